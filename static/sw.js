// Gin Ledger's service worker: static files from the cache, pages from the
// network with the last copy as a fallback, and a clear word when a hand
// could not be sent (never a blank screen, never a silently dropped hand).
"use strict";
var CACHE = "gin-ledger-v1";
var STATIC = [];  // the versioned addresses of the files every page uses: views/site/pwa.py fills them in

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return Promise.all([cache.addAll(STATIC), keepOpenPages(cache)]);
  }));
  self.skipWaiting();
});

// The page that registered this worker was loaded before there was one, so no copy of it went by:
// a phone that joined by the QR code opens a match first, and must be able to reload it offline.
// Each open page of the app is asked once more (a page that cannot be had is simply not kept).
function keepOpenPages(cache) {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    return Promise.all(windows.map(function (client) {
      var url = new URL(client.url);
      url.hash = "";
      if (url.origin !== self.location.origin) return null;
      return fetch(url.href, { credentials: "same-origin" }).then(function (response) {
        if (response.ok && response.type === "basic" && !response.redirected) return cache.put(url.href, response);
      }).catch(function () {});
    }));
  });
}

// A hand saved by the page script redraws the page without loading it: the script hands the worker
// the page the server answered, so an offline reload shows the sheet with that hand.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.kind !== "page" || typeof data.url !== "string" || typeof data.html !== "string") return;
  var url = new URL(data.url, self.location.href);
  url.hash = "";
  if (url.origin !== self.location.origin) return;
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.put(url.href, new Response(data.html, { headers: { "Content-Type": "text/html; charset=utf-8" } }));
  }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

// The two pages shown when the server cannot be reached (a hand not sent, a page not cached),
// in the language of the page that installed this worker: views/site/pwa.py fills them in.
var PAGES = {};

function offline(request) {
  if (request.method !== "GET") {
    return new Response(PAGES.not_sent, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
  }
  return caches.match(request).then(function (hit) {
    return hit || new Response(PAGES.offline, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "GET" && url.pathname.indexOf("/static/") === 0) {
    // Versioned addresses never change content: keep what is fetched once.
    event.respondWith(caches.match(request).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        if (response.ok && url.search) {
          var copy = response.clone();
          caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
        }
        return response;
      });
    }));
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
