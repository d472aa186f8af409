// Gin Ledger: makes the hand form quicker. Every page works without it.
// It knows no rule of the game: the server reads every entry (the preview too, views/match/preview.py).
// What it says itself comes from the page (#texts, in the page's language).
"use strict";
var TEXTS = (function () {
  var el = document.getElementById("texts");
  return el ? JSON.parse(el.textContent) : {};
})();
function say(template, values) {
  return (template || "").replace(/%\((\w+)\)s/g, function (m, key) { return values[key]; });
}

// Each part sets itself up in a region drawn by the server: the page at first, the new
// main region after a hand is saved (the page is not loaded again).
var setUps = [];
function setUp(root) { setUps.forEach(function (part) { part(root); }); }

// Saving a hand: one round trip. A saved hand is answered with what a following phone gets (the
// board, the sheet, the next hand's state) and the flash, applied as a follower applies it; any
// other answer (a refusal with its messages by the fields, a question) is a page whose main region
// is put in. If the server cannot be reached the entries stay in the form and the page says so.
// Without the script: Post/Redirect/Get.
(function () {
  document.addEventListener("submit", function (event) {
    var f = event.target;
    if (event.defaultPrevented) return;  // another script (the card grid) took this one
    // One tap, one hand: the server also refuses a repeated form, this only spares the round trip.
    setTimeout(function () { enableSubmit(f, false); }, 0);
    if (!f.hasAttribute("data-fetch") || !window.fetch || !window.FormData) return;
    event.preventDefault();
    send(f);
  });

  function enableSubmit(f, on) {
    f.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = !on; });
  }
  function send(f) {
    var fields = [];
    new FormData(f).forEach(function (value, name) { fields.push([name, value]); });
    post(f.action, fields).then(show, function () {
      // A form with a one-time id can be sent again safely (the server stores it once): keep it on the
      // phone and send it by itself. Any other form says it was not sent and keeps its entries.
      if (fields.some(function (p) { return p[0] === "form_id" && p[1]; })) wait(f, fields); else notSent(f);
    });
  }
  // One POST; rejects when nothing reached the server (no network, or a proxy or the worker said 502/503/504).
  function post(action, fields) {
    var body = new URLSearchParams();  // URL-encoded: a multipart body costs the server a new pattern each time
    fields.forEach(function (p) { body.append(p[0], p[1]); });
    // X-Sheet: the version the live region shows, so a saved hand is answered with only what it lacks.
    var live = document.getElementById("live");
    var headers = { "X-Requested-With": "fetch", "X-Answer": "fragment" };
    if (live && live.dataset.etag) headers["X-Sheet"] = live.dataset.etag;
    return fetch(action, { method: "POST", body: body, credentials: "same-origin", headers: headers })
      .then(function (r) {
        if (r.status === 502 || r.status === 503 || r.status === 504) throw new Error("not sent");
        // Saved: the sheet's address; refused: stay where we are; redirected (an expired form): follow.
        var hand = r.headers.get("X-Hand-Number");
        var page = r.headers.get("Content-Location") || (r.redirected ? r.url : location.href.split("#")[0]);
        var fragment = r.headers.get("X-Answer") === "fragment";
        var etag = r.headers.get("ETag");
        return r.text().then(function (html) {
          return { html: html, url: page + (hand ? "#hand-" + hand : ""), hand: hand, fragment: fragment, etag: etag };
        });
      });
  }

  // The outbox: saves that could not reach the server, kept in localStorage per match (the form's
  // address), shown as "Waiting to send hand 5…" (also after a reload) and sent again when the
  // network returns and every few seconds, one at a time.
  var OUTBOX = "gin-ledger-outbox:";
  var sending = false;
  var retry = null;
  function boxKey(action) { return OUTBOX + new URL(action, location.href).pathname; }
  function waiting(key) {
    try { return JSON.parse(localStorage.getItem(key)) || []; } catch (e) { return []; }
  }
  function keep(key, list) {
    if (list.length) localStorage.setItem(key, JSON.stringify(list)); else localStorage.removeItem(key);
  }
  function field(fields, name) {
    var found = fields.filter(function (p) { return p[0] === name; })[0];
    return found ? found[1] : "";
  }
  function wait(f, fields) {
    var key = boxKey(f.action);
    var list = waiting(key);
    var id = field(fields, "form_id");
    if (!list.some(function (item) { return field(item.fields, "form_id") === id; })) {
      list.push({ action: new URL(f.action, location.href).pathname, fields: fields });
      keep(key, list);
    }
    // Where a saved hand's message would be, with the pad clear of the Save bar as after a save.
    if (showWaiting()) fit(document.getElementById("main"));
    later();
  }
  function pageKeys() {  // the outboxes of the match on this page (its forms with a one-time id)
    var keys = {};
    document.querySelectorAll("form[data-fetch]").forEach(function (f) {
      if (f.querySelector("[name=form_id]")) keys[boxKey(f.action)] = true;
    });
    return Object.keys(keys);
  }
  function showWaiting() {
    var main = document.getElementById("main");
    if (!main) return;
    var note = main.querySelector("[data-role=waiting]");
    var lines = [];
    pageKeys().forEach(function (key) {
      waiting(key).forEach(function (item) { lines.push(say(TEXTS.waiting, { number: field(item.fields, "number") || "?" })); });
    });
    // In the place of the last save's message, which it outdates: the form below does not move down
    // (its pad's second row would go under the Save bar).
    var flashes = main.querySelector(".flashes");
    if (flashes) flashes.hidden = lines.length > 0;
    if (!lines.length) { if (note) note.remove(); return; }
    if (!note) {
      note = document.createElement("p");
      note.className = "waiting";
      note.setAttribute("role", "status");
      note.setAttribute("data-role", "waiting");
      if (flashes) flashes.after(note); else main.prepend(note);
    }
    note.textContent = lines.join(" ");
    return note;
  }
  function later() { clearTimeout(retry); retry = setTimeout(flush, 4000); }
  function flush() {
    if (sending) return;
    var key = pageKeys().filter(function (k) { return waiting(k).length; })[0];
    if (!key) return;
    var item = waiting(key)[0];
    var token = document.querySelector("input[name=csrf_token]");  // this page's token: the kept one may be old
    var fields = item.fields.map(function (p) { return p[0] === "csrf_token" && token ? [p[0], token.value] : p; });
    sending = true;
    post(item.action, fields).then(function (got) {
      sending = false;
      keep(key, waiting(key).filter(function (other) { return field(other.fields, "form_id") !== field(item.fields, "form_id"); }));
      show(got);
      flush();
    }, function () { sending = false; showWaiting(); later(); });
  }
  window.addEventListener("online", flush);
  setUps.push(function () { showWaiting(); if (pageKeys().some(function (k) { return waiting(k).length; })) flush(); });

  function show(got) {
    if (got.fragment) { moved(got); return; }
    var html = got.html, url = got.url, hand = got.hand;
    var fresh = new DOMParser().parseFromString(html, "text/html");
    var main = fresh.getElementById("main");
    var old = document.getElementById("main");
    if (!main || !old) { location.assign(url); return; }  // not one of our pages: let the browser show it
    old.replaceWith(main);
    if (fresh.title) document.title = fresh.title;
    history.replaceState(null, "", url);
    setUp(main);
    land(main, hand);
    if (hand) keepForOffline(url, html);
  }
  // A saved hand: the flash replaces the last one, and the sheet moves on the one way it moves on for
  // every phone ("sheet-moved", the live follow below); the form starts the next hand afresh.
  function moved(got) {
    var main = document.getElementById("main");
    var doc = new DOMParser().parseFromString("<div>" + got.html + "</div>", "text/html");
    var notices = doc.querySelector("[data-region=notices]");
    var state = doc.querySelector("[data-region=state]");
    var live = document.getElementById("live");
    if (!main || !live || !notices || !state || state.dataset.finished !== live.dataset.finished) {
      // The match closed, or this is no match page (a question answered): the match page anew.
      if (new URL(got.url, location.href).href.split("#")[0] === location.href.split("#")[0]) {
        history.replaceState(null, "", got.url);
        location.reload();
      }
      else location.assign(got.url);
      return;
    }
    main.querySelectorAll(".flashes, .way-back").forEach(function (el) { el.remove(); });
    while (notices.lastChild) main.insertBefore(notices.lastChild, main.firstChild);
    var form = document.getElementById("hand-form");
    document.querySelectorAll(".entry form").forEach(function (f) { f.reset(); clean(f); enableSubmit(f, true); });
    // As a page drawn anew: the typed points folded away, no preview, no note of another phone's save.
    document.querySelectorAll(".entry details[open]").forEach(function (d) { d.open = false; });
    document.querySelectorAll(".entry [data-role=preview]").forEach(function (p) { p.textContent = ""; });
    document.querySelectorAll(".entry [data-role=moved-on]").forEach(function (n) { n.hidden = true; });
    document.dispatchEvent(new CustomEvent("sheet-moved", { detail: { html: got.html, etag: got.etag, saved: true } }));
    document.querySelectorAll(".entry input[name=form_id]").forEach(function (i) { i.value = state.dataset.formId; });
    if (form) form.dispatchEvent(new Event("preview-changed"));
    history.replaceState(null, "", got.url);
    setUp(main.querySelector(".way-back") || document.createElement("div"));
    land(main, got.hand);
    keepForOffline(got.url, "<!doctype html>\n" + document.documentElement.outerHTML);
  }
  // After a stored hand the next hand's form is empty and clean, whatever drew it: a refused save draws
  // its entries as the form's own (reset() brings them back) and its messages by the fields.
  var KEPT = { csrf_token: true, form_id: true, version: true, number: true, draw: true };
  function clean(f) {
    Array.prototype.forEach.call(f.elements, function (el) {
      if (el.type === "radio" || el.type === "checkbox") el.checked = el.defaultChecked = false;
      else if (el.name && !KEPT[el.name] && el.type !== "submit" && el.type !== "button") el.value = el.defaultValue = "";
      ["aria-invalid", "aria-describedby", "autofocus"].forEach(function (a) { el.removeAttribute(a); });
    });
    f.querySelectorAll(".error:not([data-role]), .counted-cards").forEach(function (el) { el.remove(); });
    f.querySelectorAll("[data-role=pad-refused]").forEach(function (el) { el.hidden = true; });
    f.querySelectorAll("[data-drawn]").forEach(function (el) { el.removeAttribute("data-drawn"); });
    f.querySelectorAll("[data-role=preview]").forEach(function (el) { el.classList.remove("error"); });
    delete f.dataset.edited;
    delete f.dataset.refusedDigit;
    // The words and taps the last entries changed, as the page draws them: the names in the labels, the
    // note on lay-offs, the counts the last upcard's limit disabled, the card grid's link.
    f.querySelectorAll("[data-blank]").forEach(function (el) { el.textContent = el.dataset.blank; });
    f.querySelectorAll("[name=knocker_deadwood]").forEach(function (i) { i.disabled = false; });
    var link = document.querySelector("[data-role=count-link]");
    if (link) {
      var url = new URL(link.href);
      ["knocker", "upcard", "k", "d"].forEach(function (name) { url.searchParams.delete(name); });
      link.href = url.pathname + url.search;
    }
  }
  // The service worker keeps the page as it is now, for a reload without the Wi-Fi (static/sw.js):
  // a saved hand draws it without loading it, so the worker never saw this copy go by.
  function keepForOffline(url, html) {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker) worker.postMessage({ kind: "page", url: url, html: html });
  }
  // Where the eye and the keyboard go: the first refused field, else the message of what happened.
  function land(main, hand) {
    // The server marks the first refused field with autofocus (the same page without a script);
    // the script only repeats that for a main region it put in itself.
    var message = main.querySelector(".error[id$='-error']");
    var field = main.querySelector("[autofocus]") ||
      (message && main.querySelector("[name='" + message.id.replace(/-error$/, "") + "']:not([type=hidden])"));
    var target = field || message || main.querySelector("[role=alert]") || main.querySelector(".flashes") || main;
    if (!field) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
    if (target.classList.contains("flashes")) fit(main);  // saved: the flash, the board, the next hand
    else (target.closest("fieldset") || target).scrollIntoView({ block: "center" });
    var row = hand && document.getElementById("hand-" + hand);
    if (row) row.classList.add("fresh");
  }
  // After a save the page shows itself from the top, unless the next hand's first entries would then be
  // under the sticky Save bar or below the screen (a flash with its way back, a board of long names, a
  // closed game): then it goes down as far as they need, with a line more for a preview that takes two
  // (the bar then grows), and never past the next hand's heading. The first entries end with the count
  // pad; with Oklahoma they are the upcard, asked first (the pad is a scroll later, and going down to it
  // would hide the message and the scores).
  function fit(main) {
    window.scrollTo(0, 0);
    var heading = main.querySelector("#enter");
    var form = main.querySelector("#hand-form");
    var bar = form && form.querySelector(".save-bar");
    var last = form && (form.querySelector("fieldset.upcard") || form.querySelector("[data-role=pad]:not([hidden])") ||
                        form.querySelector("[name=opponent_deadwood]"));
    if (!heading || !bar || !last) return;
    var barTop = window.innerHeight - bar.offsetHeight;  // where the bar is once it sticks
    var bottom = last.getBoundingClientRect().bottom;
    if (bottom <= barTop) return;
    var preview = bar.querySelector("[data-role=preview]");
    var below = bottom - barTop + (preview ? preview.offsetHeight : 0) + 4;
    window.scrollTo(0, Math.min(below, heading.getBoundingClientRect().top));
  }
})();

// The hand form: the players' names in the labels, the on-page pad, and the preview,
// which is the server's answer for the entries so far (the save's own reading and fold).
(function () {
  var HIDDEN = { csrf_token: true, form_id: true, version: true, number: true, confirmed: true, told: true };  // not the hand's; a token never goes in an address
  var timer = null;
  var asked = 0;  // the number of the latest question: an older answer that comes late is dropped

  function handForm(el) { return el && el.closest ? el.closest("#hand-form") : null; }
  function checked(form, name) {
    var input = form.querySelector("[name=" + name + "]:checked");
    return input ? input.value : null;
  }
  function setText(form, role, text) {
    form.querySelectorAll("[data-role=" + role + "]").forEach(function (el) { el.textContent = text; });
  }
  function started(form) {
    return !!form.querySelector("input[type=radio]:checked, input[type=checkbox]:checked") ||
      !!(form.querySelector("[name=opponent_deadwood]") || {}).value;
  }
  // The entries as the save would send them, with a button the limit disabled still counted:
  // the answer then says why it is refused.
  function query(form) {
    var params = new URLSearchParams();
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || HIDDEN[el.name] || el.type === "submit" || el.type === "button") return;
      if ((el.type === "radio" || el.type === "checkbox") && !el.checked) return;
      if (el.value !== "") params.append(el.name, el.value);
    });
    return params.toString();
  }
  function names(form) {
    var knocker = checked(form, "knocker");
    if (!knocker) return;
    var other = Array.prototype.filter.call(form.querySelectorAll("[name=knocker]"), function (i) { return !i.checked; })[0];
    setText(form, "knocker-name", knocker);
    if (other) setText(form, "defender-name", other.value);
  }
  // "Count cards" takes the knocker and the upcard chosen so far to the card grid.
  function countLinkFor(form) {
    var link = document.querySelector("[data-role=count-link]");
    if (!link) return;
    var url = new URL(link.href);
    var rank = checked(form, "upcard_rank"), suit = checked(form, "upcard_suit");
    [["knocker", checked(form, "knocker")], ["upcard", rank && suit ? rank + suit : null]].forEach(function (pair) {
      if (pair[1]) url.searchParams.set(pair[0], pair[1]); else url.searchParams.delete(pair[0]);
    });
    link.href = url.pathname + url.search;
  }
  function ask(form) {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var number = ++asked;
      fetch(form.dataset.previewUrl + "?" + query(form), { credentials: "same-origin", cache: "no-store",
                                                          headers: { Accept: "application/json" } })
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
        .then(function (answer) { if (number === asked && form.isConnected) answered(form, answer); })
        .catch(function () {});  // a nicety: without an answer the save itself still says what it thinks
    }, 120);
  }
  function answered(form, answer) {
    var preview = form.querySelector("[data-role=preview]");
    // A refused save already says its refusal by the field: until an entry changes, the preview does not
    // say it a second time under the form.
    var said = answer.status === "refused" && answer.field && !form.dataset.edited &&
      form.querySelector("#" + answer.field + "-error");
    if (preview && !form.dataset.refusedDigit) {  // a digit the pad refused is said until an entry changes
      preview.textContent = said ? "" : answer.sentence;
      preview.classList.toggle("error", answer.status === "refused");
    }
    setText(form, "layoff-note", answer.lays_off ? TEXTS.after_layoffs : TEXTS.no_layoffs);
    if (answer.save) setText(form, "save-as", answer.save);  // the edit page: the kind the server scores
    // Counts over the deal's limit cannot be tapped; one already tapped stays tapped (and is sent),
    // so the save refuses it in the words the preview just said, not as a missing count.
    form.querySelectorAll("[name=knocker_deadwood]").forEach(function (i) {
      i.disabled = parseInt(i.value, 10) > answer.limit && !i.checked;
    });
  }
  function changed(form) {
    delete form.dataset.refusedDigit;
    if (!form.dataset.previewUrl) return;
    form.dataset.edited = "yes";
    names(form);
    countLinkFor(form);
    ask(form);
  }

  document.addEventListener("input", function (e) { var f = handForm(e.target); if (f) changed(f); });
  document.addEventListener("change", function (e) { var f = handForm(e.target); if (f) changed(f); });
  // A pad types into the field it is for (data-for) in its own form: the defender's count, the typed points.
  document.addEventListener("click", function (e) {
    var key = e.target.closest && e.target.closest("[data-for] [data-key], [data-for] [data-points-key]");
    var pad = key && key.closest("[data-for]");
    var form = pad && pad.closest("form");
    var input = form && form.querySelector("[name=" + pad.dataset.for + "]");
    if (!input) return;
    var k = key.dataset.key || key.dataset.pointsKey;
    // A count the server drew (an edit, a refusal, the count page) is replaced by the first digit tapped;
    // a delete edits it.
    var drawn = input.hasAttribute("data-drawn");
    input.removeAttribute("data-drawn");
    var note = pad.nextElementSibling;
    var next = k === "\u232b" ? input.value.slice(0, -1) : k === "C" ? ""
      : (drawn || input.value === "0" ? "" : input.value) + k;
    // The field's most is the server's (data-most, maxlength): a digit past it is refused aloud, never lost unsaid.
    var most = parseInt(input.dataset.most, 10);
    if ((input.maxLength > 0 && next.length > input.maxLength) || parseInt(next, 10) > most) {
      if (drawn) input.setAttribute("data-drawn", "");
      // Where the next tap is: the hand form's save bar (its preview says it until an entry changes),
      // else the note under the pad.
      var place = form.querySelector(".save-bar [data-role=preview]") || note;
      place.textContent = "";  // the same words again are still news to a screen reader
      place.hidden = false;
      place.textContent = say(pad.dataset.refused, { digit: k });
      if (place !== note) place.classList.add("error");
      form.dataset.refusedDigit = "yes";
      document.dispatchEvent(new CustomEvent("say-aloud", { detail: { words: place.textContent } }));
      return;
    }
    note.hidden = true;
    input.value = next;
    if (handForm(form)) changed(form);
  });
  // Typed on a keyboard instead: the drawn count is the player's to edit.
  document.addEventListener("input", function (e) { if (e.target.removeAttribute) e.target.removeAttribute("data-drawn"); });
  // "Type the points instead" opens its panel where it can be seen whole: the names, the points, their pad.
  document.addEventListener("click", function (e) {
    var summary = e.target.closest && e.target.closest(".alt-entries summary");
    if (!summary) return;
    setTimeout(function () { if (summary.parentNode.open) summary.parentNode.scrollIntoView({ block: "nearest" }); }, 0);
  });
  // Saving (a hand, a draw): a preview still waiting for its 120 ms would only cost a round trip
  // for a form that is about to be replaced.
  document.addEventListener("submit", function () { clearTimeout(timer); asked++; }, true);
  // Another phone saved a hand (the live region says so): the same entries may now go elsewhere.
  document.addEventListener("preview-changed", function (e) { var f = handForm(e.target); if (f && started(f)) ask(f); }, true);

  setUps.push(function (root) {
    root.querySelectorAll("form [data-for]").forEach(function (pad) {
      var input = pad.closest("form").querySelector("[name=" + pad.dataset.for + "]");
      if (!input) return;
      pad.hidden = false;
      input.setAttribute("inputmode", "none");  // the pad is on the page; no keyboard over it
      if (input.value !== "") input.setAttribute("data-drawn", "");
    });
    var form = root.querySelector("#hand-form");
    if (!form || !form.dataset.previewUrl) return;
    // The words the entries change, as drawn for no entry yet (a form that is saved starts afresh: `clean`).
    form.querySelectorAll("[data-role=knocker-name], [data-role=defender-name], [data-role=layoff-note]").forEach(
      function (el) { if (!el.hasAttribute("data-blank")) el.dataset.blank = el.textContent; });
    names(form);
    if (started(form)) {  // filled in by the server (an edit, the count page, a refusal): ask at once
      countLinkFor(form);
      ask(form);
    }
  });
})();

// Follow a match saved on another phone: ask for a fragment at the page's pace (data-every: 2.5 s on a
// page that enters hands, 5 s on one that only shows them; every 10 s after five quiet minutes), naming
// the version shown (X-Sheet); "nothing new" is an empty 200 with that ETag, which costs almost nothing
// and keeps the connection (a 304 makes waitress close it). Without this script the page has a Refresh link instead.
(function () {
  if (!window.fetch) return;
  var live = null;  // the region followed; a saved hand draws a new one
  var etag = null;  // the version it was drawn at
  // After five minutes of answers with nothing new (the table took a break) the follow slows to SLOW,
  // and any change, tap or return to the page makes it quick again. A hidden page asks nothing.
  var EVERY = 2500, SLOW = 10000, QUIET_MS = 300000;  // EVERY: a page drawn before data-every
  var FAST = EVERY, QUIET_POLLS = QUIET_MS / FAST;
  var delay = FAST;
  var quiet = 0;
  var timer = null;

  function formStarted() {  // anything entered in the entry section (the knock form, the typed points)
    var entry = document.querySelector(".entry");
    if (!entry) return false;
    return !!entry.querySelector("input[type=radio]:checked, input[type=checkbox]:checked") ||
      Array.prototype.some.call(entry.querySelectorAll("input[name=opponent_deadwood], input[name=points]"),
                                function (i) { return i.value; });
  }
  // The hand the page enters follows the sheet, whoever moved it on: the heading and the number its
  // save sends. An entry already started keeps what was typed and says, in the save bar where the
  // next tap is, that its hand was saved on another phone (with the way to drop it if it was the same deal).
  function nextHand(state, started) {
    var number = state.dataset.nextHand;
    var fields = document.querySelectorAll(".entry input[name=number]");
    var was = fields.length ? fields[0].value : number;
    if (was === number) return;
    var heading = document.getElementById("enter");
    if (heading && state.dataset.heading) heading.textContent = state.dataset.heading;
    fields.forEach(function (i) { i.value = number; });
    var note = document.querySelector(".entry [data-role=moved-on]");
    if (!note || !started) return;
    var on = parseInt(number, 10) > parseInt(was, 10);
    // The hand it was entering, told to the server: an entry the same as the other phone's is asked about.
    if (on) document.querySelectorAll(".entry input[name=told]").forEach(function (i) { i.value = i.value || was; });
    note.querySelector("[data-role=moved-on-words]").textContent =
      say(on ? note.dataset.saved : note.dataset.changed, { saved: parseInt(number, 10) - 1, number: number });
    note.hidden = false;
  }
  // An answer whose sheet body says data-from is a step: it holds only the rows the version it names
  // lacks, and applies to a region showing that version only (else false: nothing is changed). The rows
  // kept are the page's own after the hands folded away (data-folded) up to the one before (data-after).
  function keepRows(old, body) {
    var folded = parseInt(body.dataset.folded, 10), after = parseInt(body.dataset.after, 10);
    var first = body.querySelector("tr[id^=hand-]");
    var hand = null;
    old.querySelectorAll(".sheet tbody > tr").forEach(function (row) {
      if (row.id.indexOf("hand-") === 0) hand = parseInt(row.id.slice(5), 10);
      if (hand === null || hand <= folded || hand > after) return;
      row.classList.remove("fresh");
      body.insertBefore(row, first);
    });
  }
  function touched(root) {  // anything in it changed from how the page drew it
    return Array.prototype.some.call(root.querySelectorAll("input, select, textarea"), function (el) {
      return el.type === "radio" || el.type === "checkbox" ? el.checked !== el.defaultChecked : el.value !== el.defaultValue;
    });
  }
  function swap(html, ours) {  // ours: this phone's own save, never "saved on another phone"
    var doc = new DOMParser().parseFromString("<div>" + html + "</div>", "text/html");
    var body = doc.querySelector("tbody[data-from]");
    if (body && body.dataset.from !== etag) return false;
    var state = doc.querySelector("[data-region=state]");
    if (state && state.dataset.finished !== live.dataset.finished && !formStarted()) {
      location.reload();  // the hand form appears or goes: simplest to draw the page anew
      return true;
    }
    doc.querySelectorAll("[data-region]").forEach(function (fresh) {
      var old = live.querySelector("[data-region=" + fresh.dataset.region + "]");
      if (!old) return;
      if (body && fresh.contains(body)) keepRows(old, body);
      old.replaceWith(fresh);
    });
    // A table's deal form is drawn for one deal (its boards, who deals): once the sheet moved past it, a form
    // nothing was entered in is drawn anew; an entry kept is refused by its save, which names the deal.
    var deal = document.querySelector("[data-deal]");
    if (deal && state && state.dataset.nextHand && deal.dataset.deal !== state.dataset.nextHand && !touched(deal)) {
      location.reload();
      return true;
    }
    var form = document.getElementById("hand-form");
    if (state && state.dataset.nextHand) nextHand(state, !ours && formStarted());
    if (state && state.dataset.version) {
      document.querySelectorAll(".entry input[name=version]").forEach(function (i) { i.value = state.dataset.version; });
    }
    if (form && state && state.dataset.preview) form.dispatchEvent(new Event("preview-changed"));
    var rows = live.querySelectorAll(".sheet tbody tr[id^=hand-]");
    if (rows.length) rows[rows.length - 1].classList.add("fresh");
    return true;
  }
  function shown(tag) { etag = tag; if (tag) live.dataset.etag = tag; }
  function poll() {
    if (document.hidden || !live) return;  // a phone in a pocket asks nothing
    var followed = live;
    var headers = etag ? { "X-Sheet": etag } : {};
    fetch(live.dataset.liveUrl, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        if (followed !== live) return null;  // a saved hand drew the region anew meanwhile
        if (!r.ok) throw new Error(r.status);
        var tag = r.headers.get("ETag");
        if (tag && tag === etag) { quiet++; return null; }  // the version shown: nothing new
        quiet = 0;
        return r.text().then(function (html) { if (followed === live && swap(html)) shown(tag); });
      })
      .then(function () { delay = quiet >= QUIET_POLLS ? SLOW : FAST; },
            function () { delay = Math.min(delay * 2, 15000); })
      .then(schedule);
  }
  function schedule() { clearTimeout(timer); if (!source) timer = setTimeout(poll, delay); }
  // Pushed: one held stream (views/live/stream.py) brings each change as it is committed, its id the version
  // drawn; the browser reconnects by itself and names the last one. A stream refused (503: the server holds
  // no more), or silent for 10 s (a proxy that buffers), gives way to the polls above.
  var source = null;
  function stream() {
    if (!window.EventSource || !live || source) return;
    var es = source = new EventSource(live.dataset.liveUrl.replace(/\/live$/, "/stream") + "?shown=" + encodeURIComponent(etag || ""));
    var heard = setTimeout(giveUp, 10000);
    function giveUp() { clearTimeout(heard); es.close(); if (source === es) { source = null; live.dataset.follow = "poll"; schedule(); } }
    es.addEventListener("hello", function () { clearTimeout(heard); clearTimeout(timer); live.dataset.follow = "stream"; });
    es.onerror = function () { if (es.readyState === EventSource.CLOSED) giveUp(); };
    es.onmessage = function (e) {
      if (source !== es || e.lastEventId === etag) return;
      if (swap(e.data)) shown(e.lastEventId); else poll();  // a step for another version: ask for the whole
    };
  }
  // This phone saved a hand: the answer is the fragment a poll would bring, applied the same way.
  document.addEventListener("sheet-moved", function (e) {
    if (!live) return;
    if (swap(e.detail.html, e.detail.saved) && e.detail.etag) shown(e.detail.etag);
    quiet = 0;
    delay = FAST;
    schedule();
  });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { quiet = 0; clearTimeout(timer); poll(); } });
  document.addEventListener("input", function () { if (delay === SLOW) { quiet = 0; delay = FAST; schedule(); } });
  setUps.push(function (root) {
    var found = root.querySelector("#live");
    if (!found) return;
    live = found;
    etag = live.dataset.etag;
    FAST = parseInt(live.dataset.every, 10) || EVERY;
    QUIET_POLLS = Math.round(QUIET_MS / FAST);
    delay = FAST;
    quiet = 0;
    if (source) { source.close(); source = null; }
    stream();
    schedule();  // the region was drawn at this version an instant ago: the first ask can wait
  });
})();

// Installable, and kind to a flaky Wi-Fi: the service worker keeps the static
// files and the last pages seen. Keep the screen on while a match is open.
(function () {
  // Every page of a table asks for it (templates/base.html), once the page itself has loaded: a phone
  // that joined by the QR code opens a match first, maybe never the home page.
  var worker = document.documentElement.dataset.sw;
  if ("serviceWorker" in navigator && worker) {
    var register = function () { navigator.serviceWorker.register(worker, { scope: "/" }).catch(function () {}); };
    if (document.readyState === "complete") register(); else window.addEventListener("load", register);
  }
  if (!("wakeLock" in navigator)) return;
  var lock = null;
  var wanted = localStorage.getItem("gin-ledger-wake") !== "off";
  var toggle = null;
  function show() {
    if (!toggle) return;
    toggle.setAttribute("aria-pressed", wanted ? "true" : "false");
    toggle.textContent = wanted ? TEXTS.wake_on : TEXTS.wake_off;
  }
  function acquire() {
    if (!wanted || lock || document.hidden || !toggle || !toggle.isConnected) return;
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      lock.addEventListener("release", function () { lock = null; });
    }).catch(function () {});
  }
  document.addEventListener("visibilitychange", acquire);
  setUps.push(function (root) {
    var found = root.querySelector("[data-role=wake]");
    if (!found) return;
    toggle = found;
    toggle.classList.remove("unseen");  // its room was kept (visibility), so nothing moves when it shows
    toggle.addEventListener("click", function () {
      wanted = !wanted;
      localStorage.setItem("gin-ledger-wake", wanted ? "on" : "off");
      if (!wanted && lock) lock.release();
      show();
      acquire();
    });
    show();
    acquire();
  });
})();

// Each saved hand said aloud, when this phone asked for it (remembered in localStorage): the sentence
// the server wrote for the flash (data-say), in the page's language, by the browser's own speech. A
// phone without a voice for the language says so on the switch. Nothing of it without this script.
(function () {
  var synth = window.speechSynthesis;
  if (!synth || !window.SpeechSynthesisUtterance) return;
  var KEY = "gin-ledger-speak";
  var lang = (document.documentElement.lang || "en").toLowerCase();
  var toggle = null;
  function voice() {
    return synth.getVoices().filter(function (v) { return (v.lang || "").toLowerCase().split(/[-_]/)[0] === lang; })[0];
  }
  function wanted() { return localStorage.getItem(KEY) === "on"; }
  function show() {
    if (!toggle) return;
    var none = !voice();
    toggle.disabled = none;
    toggle.setAttribute("aria-pressed", wanted() && !none ? "true" : "false");
    toggle.textContent = none ? TEXTS.speak_none : wanted() ? TEXTS.speak_on : TEXTS.speak_off;
  }
  function speak(root) {
    var flash = root.querySelector(".flash-saved[data-say]");
    if (flash) utter(flash.dataset.say);
  }
  function utter(text) {
    var found = voice();
    if (!text || !wanted() || !found) return;
    var words = new SpeechSynthesisUtterance(text);
    words.lang = found.lang;
    words.voice = found;
    synth.cancel();
    synth.speak(words);
  }
  // What another part of the script tells the player (a digit the pad refused), said as a saved hand is.
  document.addEventListener("say-aloud", function (e) { utter(e.detail.words); });
  if (synth.addEventListener) synth.addEventListener("voiceschanged", show);
  document.addEventListener("sheet-moved", function (e) { if (e.detail.saved) speak(document); });
  setUps.push(function (root) {
    var found = root.querySelector("[data-role=speak]");
    if (found) {
      toggle = found;
      toggle.classList.remove("unseen");
      toggle.addEventListener("click", function () { localStorage.setItem(KEY, wanted() ? "off" : "on"); show(); });
      show();
    }
    speak(root);  // a save that drew the page or its main region anew (the match closed)
  });
})();

setUp(document);

// Share: the phone's share sheet where the browser has one; else the text is shown (and copied
// where the browser lets the page). The text is the server's, in the page's language.
(function () {
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-share-button]") : null;
    if (!button) return;
    var box = button.closest("[data-share]");
    var shown = box && box.querySelector(".share-text");
    if (!shown) return;
    event.preventDefault();
    var text = shown.textContent;
    if (navigator.share) {
      navigator.share({ text: text }).catch(function () { shown.hidden = false; });
      return;
    }
    shown.hidden = false;
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).catch(function () {});
  });
})();
