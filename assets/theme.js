// Theme toggle. Loaded in <head>, so a remembered choice applies before the
// page paints; the button in the header switches between light and dark and
// the choice is kept (localStorage) for every page of the site. With no
// choice made, the system's prefers-color-scheme decides.
(function () {
  "use strict";
  var root = document.documentElement, key = "tracewiki-theme";
  try {
    var saved = localStorage.getItem(key);
    if (saved === "light" || saved === "dark") root.setAttribute("data-theme", saved);
  } catch (e) { /* storage refused (private mode): the system decides */ }
  function current() {
    var t = root.getAttribute("data-theme");
    if (t) return t;
    return window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("theme-toggle");
    if (!button) return;
    function label() {
      var next = current() === "dark" ? "light" : "dark";
      button.textContent = next === "dark" ? "☾ Dark" : "☀ Light";
      button.setAttribute("aria-label", "Switch to the " + next + " theme");
      button.setAttribute("aria-pressed", current() === "dark" ? "true" : "false");
    }
    button.hidden = false;
    label();
    button.addEventListener("click", function () {
      var next = current() === "dark" ? "light" : "dark";
      root.setAttribute("data-theme", next);
      try { localStorage.setItem(key, next); } catch (e) { /* not remembered */ }
      label();
    });
  });
})();
