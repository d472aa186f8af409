// Gin Ledger's service worker: static files from the cache, pages from the
// network with the last copy as a fallback, and a clear word when a hand
// could not be sent (never a blank screen, never a silently dropped hand).
"use strict";
var CACHE = "gin-ledger-v1";
var STATIC = ["/static/style.css", "/static/app.js", "/static/icon.svg", "/static/manifest.webmanifest"];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(STATIC); }));
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

var NOT_SENT = "<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content='width=device-width'>" +
  "<title>Not sent</title><body style='font:18px system-ui;margin:1.5rem'>" +
  "<h1>Not saved: the server cannot be reached</h1>" +
  "<p>Nothing was lost: go <b>back</b>, your entries are still in the form, and send them again when the Wi-Fi is back.</p></body></html>";

function offline(request) {
  if (request.method !== "GET") {
    return new Response(NOT_SENT, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
  }
  return caches.match(request).then(function (hit) {
    return hit || new Response(NOT_SENT.replace("Not saved: the server cannot be reached", "Offline: the server cannot be reached"),
      { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "GET" && url.pathname.indexOf("/static/") === 0) {
    event.respondWith(caches.match(request).then(function (hit) { return hit || fetch(request); }));
    return;
  }
  if (request.mode !== "navigate") return;  // live fragments and the card API go straight through
  event.respondWith(fetch(request).then(function (response) {
    if (request.method === "GET" && response.ok) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  }).catch(function () { return offline(request); }));
});
