// tracewiki client search: no framework, no network. The index is loaded by
// the page as api/search.js (window.TRACEWIKI_SEARCH), so search works from
// the file system and under any sub-path.
(function () {
  "use strict";
  var script = document.currentScript;
  var root = (script && script.getAttribute("data-root")) || "";
  var data = window.TRACEWIKI_SEARCH || { entries: [] };
  var input = document.getElementById("q");
  var results = document.getElementById("results");
  var status = document.getElementById("status");
  var entries = data.entries.map(function (e) {
    return { e: e, id: e.id.toLowerCase(), title: e.title.toLowerCase(), text: e.text.toLowerCase() };
  });
  var MAX = 50;

  function score(x, terms) {
    var s = 0;
    for (var i = 0; i < terms.length; i++) {
      var t = terms[i], hit = 0;
      var local = x.id.slice(x.id.indexOf(":") + 1);
      if (local === t) hit = 100;
      else if (local.indexOf(t) === 0) hit = 50;
      else if (x.id.indexOf(t) >= 0) hit = 30;
      else if (x.title.indexOf(t) >= 0) hit = 20;
      else if (x.text.indexOf(t) >= 0) hit = 5;
      if (!hit) return 0;
      s += hit;
    }
    return s;
  }

  function render(q) {
    while (results.firstChild) results.removeChild(results.firstChild);
    var terms = q.toLowerCase().split(/\s+/).filter(Boolean);
    if (!terms.length) { status.textContent = "Type to search requirements, decisions, pages and symbols."; return; }
    var found = [];
    for (var i = 0; i < entries.length; i++) {
      var s = score(entries[i], terms);
      if (s) found.push({ s: s, i: i });
    }
    found.sort(function (a, b) { return b.s - a.s || a.i - b.i; });
    status.textContent = found.length ? found.length + " result" + (found.length === 1 ? "" : "s") : "No results.";
    found.slice(0, MAX).forEach(function (f) {
      var e = entries[f.i].e;
      var li = document.createElement("li");
      var type = document.createElement("span");
      type.className = "type";
      type.textContent = e.type;
      var a = document.createElement("a");
      a.href = root + e.url;
      a.textContent = e.id.slice(e.id.indexOf(":") + 1) + (e.title && e.title !== e.id.slice(e.id.indexOf(":") + 1) ? " — " + e.title : "");
      li.appendChild(type);
      li.appendChild(a);
      if (e.stale) {
        var b = document.createElement("span");
        b.className = "badge badge-stale";
        b.textContent = "stale";
        li.appendChild(document.createTextNode(" "));
        li.appendChild(b);
      }
      results.appendChild(li);
    });
  }

  input.addEventListener("input", function () { render(input.value); });
  var params = new URLSearchParams(window.location.search);
  if (params.get("q")) { input.value = params.get("q"); }
  render(input.value);
})();
