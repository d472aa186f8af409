// Gin Ledger: the card grid counts on each tap by sending the form to the count page's JSON (the counting is the server's).
// Without this script the grid is a plain form and the "Count" buttons ask the server instead.
"use strict";
(function () {
  var form = document.getElementById("count-form");
  if (!form || !window.fetch || !window.URLSearchParams) return;
  var asked = 0;

  form.querySelectorAll("[data-role=count-submit]").forEach(function (b) { b.hidden = true; });

  function codes(side) {
    return Array.prototype.map.call(form.querySelectorAll("input[name=" + side + "]:checked"), function (i) { return i.value; });
  }
  // A card as the grid draws it: the label's symbol and spoken name, in a chip of the suit's colour.
  function chip(side, code) {
    var label = form.querySelector("label[for='" + side + "-" + code + "']");
    var span = document.createElement("span");
    span.className = "chip " + label.className.replace("card", "").trim();
    Array.prototype.forEach.call(label.childNodes, function (n) { span.appendChild(n.cloneNode(true)); });
    return span;
  }
  function none() {
    var span = document.createElement("span");
    span.className = "none";
    span.textContent = TEXTS.none;
    return span;
  }
  function fill(el, side, list, className) {
    if (!el) return;
    el.textContent = "";
    if (!list.length) { el.appendChild(none()); return; }
    list.forEach(function (item, i) {
      if (i) el.appendChild(document.createTextNode(" "));
      if (!className) { el.appendChild(chip(side, item)); return; }
      var group = document.createElement("span");
      group.className = className;
      fill(group, side, item);
      el.appendChild(group);
    });
  }
  function show(side, r) {
    var box = form.querySelector(".count-result[data-side=" + side + "]");
    box.querySelector("[data-role=status]").textContent = r.text;
    fill(box.querySelector("[data-role=melds]"), side, r.melds, "meld");
    fill(box.querySelector("[data-role=laid_off]"), side, r.laid_off);
    fill(box.querySelector("[data-role=deadwood]"), side, r.deadwood);
    box.querySelector("[data-role=points]").textContent = r.points;
    var discard = box.querySelector("[data-role=discard-row]");
    if (discard) {
      discard.hidden = !r.discard;
      fill(box.querySelector("[data-role=discard]"), side, r.discard ? [r.discard] : []);
    }
  }
  function ask(params) {
    return fetch(form.dataset.api + "?" + params.toString(), { headers: { Accept: "application/json" } })
      .then(function (response) {
        return response.json().then(function (body) {
          if (!response.ok) throw new Error(body.error || TEXTS.count_failed);
          return body;
        });
      });
  }
  // A card in one hand cannot be tapped in the other.
  function exclude() {
    form.querySelectorAll("input[name=k], input[name=d]").forEach(function (input) {
      var other = form.querySelector("#" + (input.name === "k" ? "d-" : "k-") + input.value);
      input.disabled = other.checked;
    });
  }
  function names() {
    var chosen = form.querySelector("input[name=knocker]:checked");
    if (!chosen) return;
    var players = Array.prototype.map.call(form.querySelectorAll("input[name=knocker]"), function (i) { return i.value; });
    var defender = players[0] === chosen.value ? players[1] : players[0];
    form.querySelectorAll("[data-role=knocker-name]").forEach(function (el) { el.textContent = chosen.value; });
    form.querySelectorAll("[data-role=defender-name]").forEach(function (el) { el.textContent = defender; });
  }
  // The whole form goes to the server, which counts both hands (limit, gin, lay-offs are its to know).
  function update() {
    var mine = ++asked;
    exclude();
    names();
    ask(new URLSearchParams(new FormData(form))).then(function (body) {
      if (mine !== asked) return;  // a later tap has been asked already
      show("k", body.k);
      show("d", body.d);
    }).catch(function (error) {
      if (mine !== asked) return;
      form.querySelector(".count-result[data-side=k] [data-role=status]").textContent = say(TEXTS.not_counted, { reason: error.message });
    });
  }
  form.addEventListener("change", update);
  // The checkboxes are the form's; submitting it (Enter) still works, but the count is already here.
  // "Use these counts" is a real submit: the server counts the taps and goes on to the hand form.
  form.addEventListener("submit", function (e) {
    if (e.submitter && e.submitter.dataset.role === "use") return;
    e.preventDefault();
    update();
  });
})();
