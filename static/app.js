// Gin Ledger: makes the hand form quicker. Every page works without it.
// What it says comes from the page (#texts, in the page's language); it only fills in names and numbers.
"use strict";
var TEXTS = (function () {
  var el = document.getElementById("texts");
  return el ? JSON.parse(el.textContent) : {};
})();
function say(template, values) {
  return (template || "").replace(/%\((\w+)\)s/g, function (m, key) { return values[key]; });
}
(function () {
  var form = document.getElementById("hand-form");
  document.querySelectorAll("form").forEach(function (f) {
    // One tap, one hand: the server also refuses a repeated form, this only spares the round trip.
    f.addEventListener("submit", function () {
      setTimeout(function () {
        f.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = true; });
      }, 0);
    });
  });
  // Saving a hand: one round trip. The server answers the script with the new page itself
  // (a refusal too, with its messages by the fields); if the server cannot be reached the
  // entries stay in the form and the page says so. Without the script: Post/Redirect/Get.
  document.querySelectorAll("form[data-fetch]").forEach(function (f) {
    f.addEventListener("submit", function (event) {
      if (!window.fetch || !window.FormData) return;
      event.preventDefault();
      fetch(f.action, { method: "POST", body: new FormData(f), credentials: "same-origin",
                        headers: { "X-Requested-With": "fetch" } })
        .then(function (r) {
          // Saved: the sheet's address; refused: stay where we are; redirected (an expired form): follow.
          var hand = r.headers.get("X-Hand-Number");
          var page = r.headers.get("Content-Location") || (r.redirected ? r.url : location.href.split("#")[0]);
          var url = page + (hand ? "#hand-" + hand : "");
          return r.text().then(function (html) {
            history.replaceState(null, "", url);
            document.open();
            document.write(html);
            document.close();
            window.scrollTo(0, 0);
          });
        })
        .catch(function () {
          f.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = false; });
          var where = f.querySelector("[data-role=preview]") || f;
          var note = document.createElement("p");
          note.className = "error";
          note.setAttribute("role", "alert");
          note.textContent = TEXTS.not_sent;
          where.after(note);
        });
    });
  });
  if (!form) return;
  var data = form.dataset.preview ? JSON.parse(form.dataset.preview) : null;
  var od = form.querySelector("[name=opponent_deadwood]");
  var pad = form.querySelector("[data-role=pad]");
  var preview = form.querySelector("[data-role=preview]");
  var countLink = document.querySelector("[data-role=count-link]");
  var players = Array.prototype.map.call(form.querySelectorAll("[name=knocker]"), function (i) { return i.value; });

  function checked(name) {
    var input = form.querySelector("[name=" + name + "]:checked");
    return input ? input.value : null;
  }
  function other(name) { return name === players[0] ? players[1] : players[0]; }
  function setText(role, text) {
    form.querySelectorAll("[data-role=" + role + "]").forEach(function (el) { el.textContent = text; });
  }
  function cardValue(code) {
    var rank = code.slice(0, -1);
    if (rank === "A") return 1;
    if (rank === "J" || rank === "Q" || rank === "K") return 10;
    return parseInt(rank, 10);
  }
  function knockLimit() {
    var up = form.querySelector("[name=upcard]");
    if (data && data.oklahoma && up && up.value) return up.value.charAt(0) === "A" ? 0 : cardValue(up.value);
    return data ? data.knock_limit : 10;
  }
  function games(list) {  // "1", "1 and 2", "1, 2 and 3"
    if (list.length < 2) return list.join("");
    return say(TEXTS.and, { rest: list.slice(0, -1).join(", "), last: list[list.length - 1] });
  }
  // The same arithmetic as models/hand.py; the server's answer after saving is what counts.
  function outcome(knocker, kd, odv) {
    var bigGin = form.querySelector("[name=big_gin]");
    var up = form.querySelector("[name=upcard]");
    var r;
    if (kd === 0) {
      var big = bigGin && bigGin.checked;
      r = { word: big ? TEXTS.big_gin : TEXTS.gin, winner: knocker, points: odv + (big ? data.big_gin : data.gin) };
    } else if (kd < odv) {
      r = { word: "", winner: knocker, points: odv - kd };
    } else {
      r = { word: TEXTS.undercut, winner: other(knocker), points: kd - odv + data.undercut };
    }
    if (data.oklahoma && data.spade_double && up && /S$/.test(up.value)) { r.points *= 2; r.word += TEXTS.spades; }
    return r;
  }
  // "Count cards" takes the knocker and the upcard chosen so far to the card grid.
  function countLinkFor(knocker) {
    var url = new URL(countLink.href);
    var up = form.querySelector("[name=upcard]");
    [["knocker", knocker], ["upcard", up && up.value]].forEach(function (pair) {
      if (pair[1]) url.searchParams.set(pair[0], pair[1]); else url.searchParams.delete(pair[0]);
    });
    countLink.href = url.pathname + url.search;
  }
  function update() {
    var knocker = checked("knocker");
    if (knocker) {
      setText("knocker-name", knocker);
      setText("defender-name", other(knocker));
    }
    var kdText = checked("knocker_deadwood");
    setText("layoff-note", kdText === "0" ? TEXTS.no_layoffs : TEXTS.after_layoffs);
    if (countLink) countLinkFor(knocker);
    var limit = knockLimit();
    form.querySelectorAll("[name=knocker_deadwood]").forEach(function (i) { i.disabled = parseInt(i.value, 10) > limit; });
    if (!preview || !data) return;
    var odv = od.value === "" ? NaN : parseInt(od.value, 10);
    if (!knocker || kdText === null || isNaN(odv)) { preview.textContent = ""; return; }
    var kd = parseInt(kdText, 10);
    if (kd > limit) { preview.textContent = say(TEXTS.over_limit, { limit: limit }); return; }
    if (odv > 98) { preview.textContent = TEXTS.max_deadwood; return; }
    var bigGin = form.querySelector("[name=big_gin]");
    if (kd !== 0 && bigGin && bigGin.checked) { preview.textContent = TEXTS.big_gin_zero; return; }
    var r = outcome(knocker, kd, odv);
    var list = data.games[r.winner];
    var closes = list.filter(function (g) { return data.scores[g][r.winner] + r.points >= data.target; });
    var sentence = TEXTS.scores[Math.min(list.length, 3)];
    preview.textContent = r.word + say(sentence, { winner: r.winner, points: r.points, games: games(list) }) +
      (closes.length ? " " + say(TEXTS.wins[Math.min(closes.length, 3)], { winner: r.winner, games: games(closes) }) : "");
  }
  if (pad && od) {
    pad.hidden = false;
    od.setAttribute("inputmode", "none");  // the pad is on the page; no keyboard over it
    pad.addEventListener("click", function (e) {
      var key = e.target.closest("[data-key]");
      if (!key) return;
      var k = key.dataset.key;
      if (k === "\u232b") od.value = od.value.slice(0, -1);
      else if (k === "C") od.value = "";
      else if (od.value.length < 2) od.value = od.value === "0" ? k : od.value + k;
      update();
    });
  }
  form.addEventListener("preview-changed", function () {
    data = JSON.parse(form.dataset.preview);  // another phone saved a hand: new games, new scores
    update();
  });
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  update();
})();

// Follow a match saved on another phone: ask for a fragment every 1.5 s with
// If-None-Match; a 304 costs almost nothing. Without this script the page has
// a Refresh link instead.
(function () {
  var live = document.getElementById("live");
  if (!live || !window.fetch) return;
  var url = live.dataset.liveUrl;
  var etag = live.dataset.etag;  // the version this page was drawn at
  var delay = 1500;
  var timer = null;

  function formStarted() {
    var form = document.getElementById("hand-form");
    if (!form) return false;
    return !!form.querySelector("input[type=radio]:checked") || (form.querySelector("[name=opponent_deadwood]") || {}).value;
  }
  function swap(html) {
    var doc = new DOMParser().parseFromString("<div>" + html + "</div>", "text/html");
    var state = doc.querySelector("[data-region=state]");
    if (state && state.dataset.finished !== live.dataset.finished && !formStarted()) {
      location.reload();  // the hand form appears or goes: simplest to draw the page anew
      return;
    }
    doc.querySelectorAll("[data-region]").forEach(function (fresh) {
      var old = live.querySelector("[data-region=" + fresh.dataset.region + "]");
      if (old) old.replaceWith(fresh);
    });
    if (state) {
      var form = document.getElementById("hand-form");
      if (form && state.dataset.preview) {
        form.dataset.preview = state.dataset.preview;
        form.dispatchEvent(new Event("preview-changed"));
      }
    }
    var rows = live.querySelectorAll(".sheet tbody tr[id^=hand-]");
    if (rows.length) rows[rows.length - 1].classList.add("fresh");
  }
  function poll() {
    if (document.hidden) return;  // a phone in a pocket asks nothing
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        if (r.status === 304) return null;
        if (!r.ok) throw new Error(r.status);
        etag = r.headers.get("ETag");
        return r.text().then(swap);
      })
      .then(function () { delay = 1500; }, function () { delay = Math.min(delay * 2, 15000); })
      .then(schedule);
  }
  function schedule() { clearTimeout(timer); timer = setTimeout(poll, delay); }
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { clearTimeout(timer); poll(); } });
  var refresh = document.querySelector("[data-role=refresh]");
  if (refresh) refresh.hidden = true;
  schedule();  // the page was drawn at this version an instant ago: the first ask can wait
})();

// Installable, and kind to a flaky Wi-Fi: the service worker keeps the static
// files and the last pages seen. Keep the screen on while a match is open.
(function () {
  if ("serviceWorker" in navigator && document.documentElement.dataset.sw) {
    navigator.serviceWorker.register(document.documentElement.dataset.sw, { scope: "/" }).catch(function () {});
  }
  var toggle = document.querySelector("[data-role=wake]");
  if (!toggle || !("wakeLock" in navigator)) return;
  var lock = null;
  var wanted = localStorage.getItem("gin-ledger-wake") !== "off";
  function show() {
    toggle.setAttribute("aria-pressed", wanted ? "true" : "false");
    toggle.textContent = wanted ? TEXTS.wake_on : TEXTS.wake_off;
  }
  function acquire() {
    if (!wanted || lock || document.hidden) return;
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      lock.addEventListener("release", function () { lock = null; });
    }).catch(function () {});
  }
  toggle.hidden = false;
  toggle.addEventListener("click", function () {
    wanted = !wanted;
    localStorage.setItem("gin-ledger-wake", wanted ? "on" : "off");
    if (!wanted && lock) lock.release();
    show();
    acquire();
  });
  document.addEventListener("visibilitychange", acquire);
  show();
  acquire();
})();
