// tracewiki client search: no framework, no network. The index is loaded by
// the page as api/search.js (window.TRACEWIKI_SEARCH), so search works from
// the file system and under any sub-path.
//
// The ranking is the one of "tracewiki search", whose Go implementation
// (synth/search.go) is the reference; a test runs both on a corpus of
// queries and requires the same order. Tiers, best first: exact id (5),
// exact title (4), every term a whole word of the title (3), every term a
// whole word of the id, title, path or text (2), every term a substring of
// one of them (1); ties by node type (SPEC 3 order), then id.
(function () {
  "use strict";
  var script = document.currentScript;
  var root = (script && script.getAttribute("data-root")) || "";
  var data = window.TRACEWIKI_SEARCH || { entries: [] };
  var TYPES = ["requirement", "decision", "symbol", "test", "run", "page", "file", "document"];
  var ASCII = /^[\x00-\x7f]*$/;
  var WORD = /[\p{L}\p{N}]/u, UPPER = /\p{Lu}/u, LOWER_OR_NUMBER = /[\p{Ll}\p{N}]/u;

  function utf8Len(cp) { return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4; }

  // fold lower-cases one character at a time, keeping each character whose
  // lower case would change its length in UTF-8 or UTF-16, so offsets in the
  // folded text are offsets in the text (synth.fold does the same).
  function fold(s) {
    if (ASCII.test(s)) return s.toLowerCase();
    var out = "";
    for (var ch of s) {
      var l = ch.toLowerCase();
      var cp = ch.codePointAt(0), lcp = l.codePointAt(0);
      if (l.length !== ch.length || String.fromCodePoint(lcp) !== l || utf8Len(lcp) !== utf8Len(cp)) l = ch;
      out += l;
    }
    return out;
  }

  function terms(q) { return q.split(/[ \t\n\r\f\v]+/).filter(Boolean); }

  // The character before offset i of s, and the one at i.
  function before(s, i) {
    var c = s.charCodeAt(i - 1);
    if (c >= 0xdc00 && c <= 0xdfff && i >= 2) return String.fromCodePoint(s.codePointAt(i - 2));
    return s.charAt(i - 1);
  }
  function at(s, i) { return String.fromCodePoint(s.codePointAt(i)); }

  function boundary(s, i) {
    if (i === 0 || i >= s.length) return true;
    var a = before(s, i), b = at(s, i);
    if (!WORD.test(a) || !WORD.test(b)) return true;
    return LOWER_OR_NUMBER.test(a) && UPPER.test(b);
  }

  // hasWord: the folded term t occurs in folded (the fold of orig) with a
  // word boundary on both sides.
  function hasWord(orig, folded, t) {
    for (var off = 0; ;) {
      var i = folded.indexOf(t, off);
      if (i < 0) return false;
      if (boundary(orig, i) && boundary(orig, i + t.length)) return true;
      off = i + (folded.codePointAt(i) > 0xffff ? 2 : 1);
    }
  }

  var entries = data.entries.map(function (e) {
    var colon = e.id.indexOf(":");
    var local = colon >= 0 ? e.id.slice(colon + 1) : e.id;
    var title = fold(e.title);
    return {
      e: e, type: TYPES.indexOf(e.type) < 0 ? TYPES.length : TYPES.indexOf(e.type),
      id: fold(e.id), local: fold(local), title: title, path: fold(e.path || ""), text: fold(e.text),
      titleTerms: terms(title).join(" "),
      local0: local, title0: e.title, path0: e.path || "", text0: e.text
    };
  });

  function score(x, whole, ts) {
    if (whole === x.id || whole === x.local) return 5;
    if (whole === x.titleTerms) return 4;
    var titleWords = true, words = true;
    for (var i = 0; i < ts.length; i++) {
      var t = ts[i];
      var inTitle = hasWord(x.title0, x.title, t);
      titleWords = titleWords && inTitle;
      if (!inTitle && !hasWord(x.local0, x.local, t) && !hasWord(x.path0, x.path, t) && !hasWord(x.text0, x.text, t)) {
        words = false;
        if (x.local.indexOf(t) < 0 && x.title.indexOf(t) < 0 && x.path.indexOf(t) < 0 && x.text.indexOf(t) < 0) return 0;
      }
    }
    return titleWords ? 3 : words ? 2 : 1;
  }

  // cmp orders strings by code point, as Go orders them by bytes.
  function cmp(a, b) {
    if (ASCII.test(a) && ASCII.test(b)) return a < b ? -1 : a > b ? 1 : 0;
    var x = Array.from(a), y = Array.from(b);
    for (var i = 0; i < x.length && i < y.length; i++) {
      var d = x[i].codePointAt(0) - y[i].codePointAt(0);
      if (d) return d;
    }
    return x.length - y.length;
  }

  // rank returns every match of the query, of the given type ("" for all),
  // best first: [{entry, score}].
  function rank(q, kind) {
    var ts = terms(fold(q));
    if (!ts.length) return [];
    var whole = ts.join(" ");
    var found = [];
    for (var i = 0; i < entries.length; i++) {
      var x = entries[i];
      if (kind && x.e.type !== kind) continue;
      var s = score(x, whole, ts);
      if (s) found.push({ x: x, score: s });
    }
    found.sort(function (a, b) { return b.score - a.score || a.x.type - b.x.type || cmp(a.x.e.id, b.x.e.id); });
    return found.map(function (f) { return { entry: f.x.e, score: f.score }; });
  }
  window.tracewikiSearch = { rank: rank };

  var input = document.getElementById("q");
  var results = document.getElementById("results");
  var status = document.getElementById("status");
  if (!input || !results || !status) return;
  var MAX = 50;
  var params = new URLSearchParams(window.location.search);
  var kind = params.get("kind") || "";

  function render(q) {
    while (results.firstChild) results.removeChild(results.firstChild);
    if (!terms(q).length) { status.textContent = "Type to search requirements, decisions, pages and code."; return; }
    var found = rank(q, kind);
    status.textContent = found.length ? found.length + " result" + (found.length === 1 ? "" : "s") : "No results.";
    found.slice(0, MAX).forEach(function (f) {
      var e = f.entry;
      var local = e.id.slice(e.id.indexOf(":") + 1);
      var li = document.createElement("li");
      li.setAttribute("data-id", e.id);
      var type = document.createElement("span");
      type.className = "type";
      type.textContent = e.type;
      var a = document.createElement("a");
      a.href = root + e.url;
      a.textContent = local + (e.title && e.title !== local ? " — " + e.title : "");
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
  if (params.get("q")) { input.value = params.get("q"); }
  render(input.value);
})();
