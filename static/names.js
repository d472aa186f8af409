// The new-match form: the first-dealer choices say the names as they are typed.
// Without this script the server writes the names it knows, else "the first name above".
"use strict";
(function () {
  document.querySelectorAll("[data-name-of]").forEach(function (label) {
    var input = document.getElementById(label.dataset.nameOf);
    if (!input) return;
    function show() { label.textContent = input.value.trim() || label.dataset.unnamed; }
    input.addEventListener("input", show);
    show();
  });
})();
