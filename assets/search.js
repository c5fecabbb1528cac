// tracewiki client search: no framework, no network. api/search.js sets
// the ranking index's head (window.TRACEWIKI_SEARCH: the vocabulary with
// each word's stem, the field weights and statistics) and this script
// loads its shards (api/search-N.js) as scripts, so search works from the
// file system and under any sub-path.
//
// The ranking is the one of "tracewiki search", whose Go implementation
// (synth/search.go) is the reference, on the numbers the build wrote from
// it: a query word is stemmed through the vocabulary (no stemmer here), a
// word it lacks is corrected to the most frequent word one edit away (two
// for 8+ letters); candidates hold any term; order: exact id, exact title,
// then BM25F plus the adjacency bonus, rounded to 6 decimals; ties by node
// type (SPEC 3 order), then id.
(function () {
  "use strict";
  var script = document.currentScript;
  var root = (script && script.getAttribute("data-root")) || "";
  var head = window.TRACEWIKI_SEARCH || { docs: 0, shards: 0, words: {}, stop: [], stems: [], idf: [], fields: [], weights: [], b: [], avglen: [] };
  var TYPES = ["requirement", "decision", "symbol", "test", "run", "page", "file", "document"];
  var ASCII = /^[\x00-\x7f]*$/;
  var NONWORD = /[^\p{L}\p{N}]+/u;
  var STOP = new Set(head.stop || []);
  var docs = [], postings = [], loaded = 0, pending = [];

  function utf8Len(cp) { return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4; }

  // fold lower-cases one character at a time, keeping each character whose
  // lower case would change its length in UTF-8 or UTF-16 (synth.fold).
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
  // vocab is a word's [stem, frequency], or undefined: only the
  // vocabulary's own keys count ("constructor" is no word of every index).
  var OWN = Object.prototype.hasOwnProperty;
  function vocab(w) { return OWN.call(head.words, w) ? head.words[w] : undefined; }
  function words(s) { return fold(s).split(NONWORD).filter(Boolean); }
  function white(s) { return s.split(/[ \t\n\r\f\v]+/).filter(Boolean); }
  function runes(s) { return Array.from(s); }

  // cmp orders strings by code point, as Go orders them by bytes.
  function cmp(a, b) {
    if (ASCII.test(a) && ASCII.test(b)) return a < b ? -1 : a > b ? 1 : 0;
    var x = runes(a), y = runes(b);
    for (var i = 0; i < x.length && i < y.length; i++) {
      var d = x[i].codePointAt(0) - y[i].codePointAt(0);
      if (d) return d;
    }
    return x.length - y.length;
  }

  // editDistance: optimal string alignment in characters, or limit+1.
  function editDistance(a, b, limit) {
    var x = runes(a), y = runes(b);
    if (Math.abs(x.length - y.length) > limit) return limit + 1;
    var prev2 = [], prev = [], cur = [];
    for (var j = 0; j <= y.length; j++) prev[j] = j;
    for (var i = 1; i <= x.length; i++) {
      cur = [i];
      var rowMin = i;
      for (j = 1; j <= y.length; j++) {
        var c = x[i - 1] === y[j - 1] ? 0 : 1;
        cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + c);
        if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) cur[j] = Math.min(cur[j], prev2[j - 2] + 1);
        rowMin = Math.min(rowMin, cur[j]);
      }
      if (rowMin > limit) return limit + 1;
      prev2 = prev; prev = cur;
    }
    return Math.min(prev[y.length], limit + 1);
  }

  function correct(w) {
    var limit = runes(w).length >= 8 ? 2 : 1;
    var best = "", bestD = limit + 1, bestF = 0;
    for (var v in head.words) {
      var info = head.words[v];
      if (info[0] < 0) continue;
      var d = editDistance(w, v, limit);
      if (d > limit) continue;
      if (d < bestD || d === bestD && (info[1] > bestF || info[1] === bestF && cmp(v, best) < 0)) { best = v; bestD = d; bestF = info[1]; }
    }
    return best;
  }

  // parse: the query's terms [{word, stem}] as synth's parse makes them.
  function parse(query) {
    var q = { whole: white(fold(query)).join(" "), words: words(query).join(" "), terms: [], corrected: {} };
    var content = [], stops = [], seen = {}, unknown = new Set();
    q.unknown = [];
    words(query).forEach(function (w) {
      var info = vocab(w);
      if (!info && !STOP.has(w) && runes(w).length >= 4) {
        var c = correct(w);
        if (c) { q.corrected[w] = c; w = c; info = vocab(c); }
      }
      if (!info && STOP.has(w)) stops.push({ word: w, stem: -1 });
      else if (!info) { if (!unknown.has(w)) { unknown.add(w); q.unknown.push(w); content.push({ word: w, stem: -2 }); } }
      else if (info[0] < 0) stops.push({ word: w, stem: -1 });
      else if (!seen[info[0]]) { seen[info[0]] = true; content.push({ word: w, stem: info[0] }); }
    });
    q.terms = content.length ? content : stops;
    return q;
  }

  function score(i, tier, terms) {
    var d = docs[i], total = 0, matched = [];
    for (var k = 0; k < terms.length; k++) {
      var t = terms[k];
      matched.push(false);
      if (t.stem < 0) continue;
      var tfw = 0;
      for (var f = 0; f < d.f.length; f++) {
        var seq = d.f[f], tf = 0;
        for (var j = 0; j < seq.length; j++) if (seq[j] === t.stem) tf++;
        if (!tf) continue;
        var norm = 1;
        if (head.avglen[f] > 0) norm = 1 - head.b[f] + head.b[f] * seq.length / head.avglen[f];
        tfw += head.weights[f] * tf / norm;
      }
      if (tfw === 0) continue;
      matched[k] = true;
      total += head.idf[t.stem] * tfw / (head.k1 + tfw);
    }
    var adj = 0;
    for (k = 1; k < terms.length; k++) {
      var a = terms[k - 1].stem, b = terms[k].stem;
      if (matched[k - 1] && matched[k] && adjacent(d, a, b)) adj += head.adjacency * (head.idf[a] + head.idf[b]);
    }
    return { i: i, tier: tier, score: Math.round((total + adj) * 1e6) / 1e6, matched: matched };
  }

  function adjacent(d, a, b) {
    for (var f = 0; f < d.f.length; f++) {
      var seq = d.f[f];
      for (var j = 1; j < seq.length; j++) if (seq[j - 1] === a && seq[j] === b) return true;
    }
    return false;
  }

  // rank returns every candidate for the query, of the given type ("" for
  // all), best first: [{entry, score, tier, matched}].
  function rank(query, kind) { return rankParsed(parse(query), kind); }

  function rankParsed(q, kind) {
    var cand = new Set();
    q.terms.forEach(function (t) { if (t.stem >= 0) (postings[t.stem] || []).forEach(function (i) { cand.add(i); }); });
    var out = [];
    for (var i = 0; i < docs.length; i++) {
      var e = docs[i];
      if (kind && e.type !== kind) continue;
      var tier = 0;
      if (q.whole && (q.whole === fold(e.id) || q.whole === fold(e.id.slice(e.id.indexOf(":") + 1)))) tier = 2;
      else if (q.words && q.words === e.titleWords) tier = 1;
      else if (!cand.has(i)) continue;
      out.push(score(i, tier, q.terms));
    }
    out.sort(function (a, b) {
      var x = docs[a.i], y = docs[b.i];
      return b.tier - a.tier || (b.score > a.score ? 1 : b.score < a.score ? -1 : 0) || x.order - y.order || cmp(x.id, y.id);
    });
    return out.map(function (r) {
      return { entry: docs[r.i], score: r.score, tier: r.tier, matched: q.terms.filter(function (t, k) { return r.matched[k]; }).map(function (t) { return t.word; }), terms: q.terms };
    });
  }

  // near: up to n vocabulary words (no stop words) within 3 edits of w,
  // or that start with its first 4 letters, nearest first, then the most
  // frequent (synth's near).
  function near(w, n) {
    var prefix = runes(w).slice(0, 4).join(""), long = runes(prefix).length === 4, cs = [];
    for (var v in head.words) {
      var info = head.words[v];
      if (info[0] < 0) continue;
      var d = editDistance(w, v, 3);
      if (d > 3 && !(long && v.startsWith(prefix))) continue;
      cs.push({ word: v, dist: d, freq: info[1] });
    }
    cs.sort(function (a, b) { return a.dist - b.dist || b.freq - a.freq || cmp(a.word, b.word); });
    return cs.slice(0, n).map(function (c) { return c.word; });
  }

  // hint says why nothing matched, in the words of synth's hint.
  function hint(q, kind) {
    if (kind) {
      var n = rankParsed(q, "").length;
      if (n > 0) return "no " + kind + " matches; " + n + " nodes of other types do: search without --kind";
    }
    if (!q.terms.length) return "the query has no words: search for names, titles or words of the wiki";
    if (q.terms[0].stem === -1) {
      return "the query has only stop words (" + q.terms.map(function (t) { return t.word; }).join(", ") + "): add a word that names what you look for";
    }
    return "nothing matches: " + q.unknown.map(function (w) {
      var ws = near(w, 3);
      return ws.length ? JSON.stringify(w) + " is in no node; near words: " + ws.join(", ") : JSON.stringify(w) + " is in no node and near no word of the wiki";
    }).join("; ");
  }

  // search answers as "tracewiki search" does (without excerpts): the
  // terms searched, the corrections, how many nodes match, the best limit
  // of them and, when none does, the hint.
  function search(query, kind, limit) {
    var q = parse(query), found = rankParsed(q, kind);
    var out = { terms: q.terms.map(function (t) { return t.word; }), corrected: q.corrected, count: found.length, results: found.slice(0, limit || 10), hint: "" };
    if (!found.length) out.hint = hint(q, kind);
    return out;
  }

  // The title words a node's exact-title tier compares with (synth's
  // titles).
  function addDocs(list) {
    list.forEach(function (d) {
      var i = docs.length;
      d.order = TYPES.indexOf(d.type) < 0 ? TYPES.length : TYPES.indexOf(d.type);
      d.titleWords = words(d.title).join(" ");
      docs.push(d);
      var seen = new Set();
      d.f.forEach(function (seq) {
        seq.forEach(function (s) {
          if (seen.has(s)) return;
          seen.add(s);
          (postings[s] = postings[s] || []).push(i);
        });
      });
    });
  }

  // Shards arrive in any order; nodes are added in shard order.
  window.TRACEWIKI_SEARCH_SHARD = function (n, list) {
    pending[n] = list;
    while (pending[loaded]) { addDocs(pending[loaded]); pending[loaded] = null; loaded++; }
    if (loaded === head.shards && window.tracewikiSearch.onready) window.tracewikiSearch.onready();
  };
  window.tracewikiSearch = { rank: rank, search: search, ready: function () { return loaded === head.shards; } };
  for (var s = 0; s < head.shards; s++) {
    var el = document.createElement("script");
    el.src = root + "api/search-" + s + ".js";
    document.head.appendChild(el);
  }

  var input = document.getElementById("q");
  var results = document.getElementById("results");
  var status = document.getElementById("status");
  if (!input || !results || !status) return;
  var MAX = 50;
  var params = new URLSearchParams(window.location.search);
  var kind = params.get("kind") || "";

  // excerpt: the passage of 24 words with the most of the terms, with
  // the matched words marked.
  function excerpt(text, terms, into) {
    var want = {};
    terms.forEach(function (t) { if (t.stem >= 0) want[t.stem] = true; });
    var re = /[\p{L}\p{N}]+/gu, m, ws = [];
    while ((m = re.exec(text))) { var info = vocab(fold(m[0])); ws.push({ at: m.index, end: m.index + m[0].length, stem: info ? info[0] : -3 }); }
    var best = -1, bestScore = 0;
    for (var i = 0; i < ws.length; i++) {
      if (!want[ws[i].stem]) continue;
      var seen = {}, sc = 0;
      for (var j = i; j < Math.min(ws.length, i + 24); j++) if (want[ws[j].stem] && !seen[ws[j].stem]) { seen[ws[j].stem] = true; sc += head.idf[ws[j].stem]; }
      if (sc > bestScore) { best = i; bestScore = sc; }
    }
    var start = best < 0 || ws[best].at < 80 ? 0 : ws[Math.max(0, best - 4)].at;
    var end = Math.min(text.length, start + 240);
    if (start > 0) into.appendChild(document.createTextNode("…"));
    var pos = start;
    ws.forEach(function (w) {
      if (w.at < start || w.end > end || !want[w.stem]) return;
      into.appendChild(document.createTextNode(text.slice(pos, w.at)));
      var mark = document.createElement("mark");
      mark.textContent = text.slice(w.at, w.end);
      into.appendChild(mark);
      pos = w.end;
    });
    into.appendChild(document.createTextNode(text.slice(pos, end) + (end < text.length ? "…" : "")));
  }

  function render(q) {
    while (results.firstChild) results.removeChild(results.firstChild);
    if (!white(q).length) { status.textContent = "Type to search requirements, decisions, pages and code."; return; }
    if (loaded < head.shards) { status.textContent = "Loading the index…"; return; }
    var answer = search(q, kind, MAX);
    var fixes = Object.keys(answer.corrected).map(function (w) { return w + " → " + answer.corrected[w]; });
    status.textContent = answer.count ? answer.count + " result" + (answer.count === 1 ? "" : "s") +
      (fixes.length ? " (corrected: " + fixes.join(", ") + ")" : "") : "No results: " + answer.hint + ".";
    answer.results.forEach(function (f) {
      var e = f.entry;
      var local = e.id.slice(e.id.indexOf(":") + 1);
      var li = document.createElement("li");
      li.setAttribute("data-id", e.id);
      var type = document.createElement("span");
      type.className = "type";
      type.textContent = e.type;
      var a = document.createElement("a");
      if (e.url) a.href = /^[a-z]+:\/\//.test(e.url) ? e.url : root + e.url; // an external's node: its own wiki
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
      if (e.text) {
        var p = document.createElement("p");
        p.className = "excerpt";
        excerpt(e.text, f.terms, p);
        li.appendChild(p);
      }
      results.appendChild(li);
    });
  }

  input.addEventListener("input", function () { render(input.value); });
  if (params.get("q")) { input.value = params.get("q"); }
  window.tracewikiSearch.onready = function () { render(input.value); };
  render(input.value);
})();
