// tracewiki client search: no framework, no network. api/search.js sets
// the ranking index's head (window.TRACEWIKI_SEARCH: the vocabulary with
// each word's stem, the field weights and statistics, each node's type and
// field lengths); this script loads, as scripts, only the shards a query
// needs (api/search-KIND-N.js: the postings of its terms, the pairs of
// adjacent terms, the exact ids and titles, then the texts of the results
// it shows), so search works from the file system and under any sub-path,
// and the first answer needs a small part of the index.
//
// The ranking is the one of "tracewiki search", whose Go implementation
// (synth/search.go) is the reference, on the numbers the build wrote from
// it (synth/searchclient.go): a query word is stemmed through the
// vocabulary (no stemmer here), a word it lacks is corrected to the most
// frequent word one edit away (two for 8+ letters); candidates hold any
// term; order: exact id, exact title, then BM25F plus the adjacency bonus
// (the pair's BM25F weight, saturated), rounded to 6 decimals; ties by
// node number (node order: type in SPEC 3 order, then id).
(function () {
  "use strict";
  var script = document.currentScript;
  var root = (script && script.getAttribute("data-root")) || "";
  var head = window.TRACEWIKI_SEARCH || { docs: 0, words: {}, stop: [], fields: [], weights: [], b: [], avglen: [], typeNames: [], types: [], lens: [], postings: 1, pairs: 1, exact: 1, texts: [] };
  var ASCII = /^[\x00-\x7f]*$/;
  var NONWORD = /[^\p{L}\p{N}]+/u;
  var STOP = new Set(head.stop || []);
  var NF = head.fields.length;

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

  // editDistance: optimal string alignment of x and y (arrays of code
  // points), or limit+1. Its three rows are kept between calls: it runs
  // for every vocabulary word of a typo's length.
  var rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];
  function editDistance(x, y, limit) {
    if (Math.abs(x.length - y.length) > limit) return limit + 1;
    if (rows[0].length <= y.length) rows = [new Int32Array(y.length + 1), new Int32Array(y.length + 1), new Int32Array(y.length + 1)];
    var prev2 = rows[0], prev = rows[1], cur = rows[2], t;
    for (var j = 0; j <= y.length; j++) prev[j] = j;
    for (var i = 1; i <= x.length; i++) {
      cur[0] = i;
      var rowMin = i;
      for (j = 1; j <= y.length; j++) {
        var c = x[i - 1] === y[j - 1] ? 0 : 1;
        var v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + c);
        if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
        cur[j] = v;
        if (v < rowMin) rowMin = v;
      }
      if (rowMin > limit) return limit + 1;
      t = prev2; prev2 = prev; prev = cur; cur = t;
    }
    return Math.min(prev[y.length], limit + 1);
  }

  function codePoints(s) { return runes(s).map(function (r) { return r.codePointAt(0); }); }

  // letters is the set of a word's characters, each code point mod 32.
  // Each edit adds or removes at most one character, so two words whose
  // sets differ in more than d places (in either direction) are more than
  // d edits apart; folded characters may share a place, which only makes
  // the bound lower. It spares the distance of most vocabulary words.
  function letters(cps) {
    var m = 0;
    for (var i = 0; i < cps.length; i++) m |= 1 << (cps[i] & 31);
    return m;
  }
  function bits(m) {
    var n = 0;
    for (; m; m &= m - 1) n++;
    return n;
  }
  function apart(a, b) { return Math.max(bits(a & ~b), bits(b & ~a)); }

  // BYLENGTH are the vocabulary's words that corrections and hints may
  // name (no stop words) by their length in characters, each with its
  // code points and frequency. The rules below pick by distance,
  // frequency and code point order, so the order here does not matter.
  var BYLENGTH = null;
  function vocabulary() {
    if (!BYLENGTH) {
      BYLENGTH = [];
      for (var v in head.words) {
        if (head.words[v][0] < 0) continue;
        var cps = codePoints(v);
        (BYLENGTH[cps.length] = BYLENGTH[cps.length] || []).push({ word: v, cps: cps, letters: letters(cps), freq: head.words[v][1] });
      }
    }
    return BYLENGTH;
  }

  function correct(w) {
    var x = codePoints(w), limit = x.length >= 8 ? 2 : 1, lx = letters(x);
    var best = "", bestD = limit + 1, bestF = 0, byLength = vocabulary();
    for (var n = Math.max(0, x.length - limit); n <= x.length + limit; n++) {
      (byLength[n] || []).forEach(function (v) {
        if (apart(lx, v.letters) > Math.min(limit, bestD)) return;
        var d = editDistance(x, v.cps, Math.min(limit, bestD)); // a further word cannot win
        if (d > limit || d > bestD) return;
        if (d < bestD || d === bestD && (v.freq > bestF || v.freq === bestF && cmp(v.word, best) < 0)) { best = v.word; bestD = d; bestF = v.freq; }
      });
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

  // Shards: each api/search-KIND-N.js calls TRACEWIKI_SEARCH_PART once
  // it runs; load returns a promise of it, one script per shard ever.
  var loads = {}, arrived = {};
  var rawPostings = {}, pairs = {}, exact = {}, texts = [];
  window.TRACEWIKI_SEARCH_PART = function (kind, n, data) {
    if (kind === "p") Object.keys(data).forEach(function (s) { rawPostings[s] = data[s]; });
    else if (kind === "a") Object.keys(data).forEach(function (a) { pairs[a] = Object.assign(pairs[a] || {}, data[a]); });
    else if (kind === "x") Object.keys(data).forEach(function (k) { exact[k] = data[k]; });
    else if (kind === "t") data.forEach(function (e, j) {
      texts[head.texts[n] + j] = { id: e[0], type: e[1], title: e[2], path: e[3], url: e[4], stale: e[5], lines: e[6], text: e[7] };
    });
    if (arrived[kind + n]) arrived[kind + n]();
  };
  function load(kind, n) {
    var name = kind + n;
    if (!loads[name]) {
      loads[name] = new Promise(function (resolve, reject) {
        arrived[name] = resolve;
        var el = document.createElement("script");
        el.src = root + "api/search-" + kind + "-" + n + ".js";
        el.onerror = function () { delete loads[name]; reject(new Error("cannot load " + el.src)); };
        document.head.appendChild(el);
      });
    }
    return loads[name];
  }

  // decodeWeights: node differences and per node a field mask and its
  // fields' frequencies → {docs, weights}: each node's BM25F weight, its
  // fields' weighted frequencies summed in field order, as synth's
  // fieldWeight and score sum them.
  function decodeWeights(deltas, fr) {
    var n = deltas.length, docs = new Int32Array(n), weights = new Float64Array(n), d = 0, at = 0;
    for (var j = 0; j < n; j++) {
      d += deltas[j];
      docs[j] = d;
      var mask = fr[at++], w = 0;
      for (var f = 0; f < NF; f++) {
        if (!(mask & (1 << f))) continue;
        var norm = 1;
        if (head.avglen[f] > 0) norm = 1 - head.b[f] + head.b[f] * head.lens[d * NF + f] / head.avglen[f];
        w += head.weights[f] * fr[at++] / norm;
      }
      weights[j] = w;
    }
    return { docs: docs, weights: weights };
  }

  // decodePostings: [idf, node differences, field frequencies] → {idf,
  // docs, weights}.
  function decodePostings(p) {
    var dw = decodeWeights(p[1], p[2]);
    return { idf: p[0], docs: dw.docs, weights: dw.weights };
  }

  // postings returns stem s's postings, decoded on first use; undefined
  // before its shard is loaded.
  var decoded = {};
  function postings(s) {
    if (!decoded[s] && OWN.call(rawPostings, s)) decoded[s] = decodePostings(rawPostings[s]);
    return decoded[s];
  }

  // fnv1a: FNV-1a (32 bits) of s's UTF-8 bytes (synth.SearchExactShard).
  var UTF8 = new TextEncoder();
  function fnv1a(s) {
    var h = 0x811c9dc5, b = UTF8.encode(s);
    for (var i = 0; i < b.length; i++) h = Math.imul(h ^ b[i], 16777619) >>> 0;
    return h;
  }

  // need loads the shards ranking q takes: each term's postings, the
  // pairs of each two adjacent terms (synth.SearchPairShard), the exact
  // strings.
  function need(q) {
    var ps = [];
    q.terms.forEach(function (t, k) {
      if (t.stem < 0) return;
      ps.push(load("p", t.stem % head.postings));
      if (k + 1 < q.terms.length && q.terms[k + 1].stem >= 0) ps.push(load("a", (31 * t.stem + q.terms[k + 1].stem) % head.pairs));
    });
    [q.whole, q.words].forEach(function (s) { if (s) ps.push(load("x", fnv1a(s) % head.exact)); });
    return Promise.all(ps);
  }

  // needTexts loads what the nodes show.
  function needTexts(nodes) {
    return Promise.all(nodes.map(function (i) {
      var lo = 0, hi = head.texts.length - 1;
      while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (head.texts[mid] <= i) lo = mid; else hi = mid - 1; }
      return load("t", lo);
    }));
  }

  function exactNodes(s, tier) { return s && OWN.call(exact, s) ? exact[s][tier] : []; }

  // pairWeight: the BM25F weight of stem a followed by stem b in node i
  // (synth's pairWeight); 0 where they never stand so.
  var pairWeights = {};
  function pairWeight(i, a, b) {
    var key = a + " " + b;
    if (!pairWeights[key]) {
      var m = new Map(), raw = (pairs[a] && OWN.call(pairs[a], b)) ? pairs[a][b] : null;
      if (raw) {
        var dw = decodeWeights(raw[0], raw[1]);
        for (var j = 0; j < dw.docs.length; j++) m.set(dw.docs[j], dw.weights[j]);
      }
      pairWeights[key] = m;
    }
    return pairWeights[key].get(i) || 0;
  }

  // rankLoaded ranks with the shards loaded: every candidate [{i, tier,
  // score, matched}] best first. A term's weight in a node is BM25F's sum
  // over fields in field order, as synth's score adds it.
  function rankLoaded(q, kind) {
    var terms = q.terms, n = head.docs, tfw = [], nodes = [], seen = new Uint8Array(n);
    function add(i) { if (!seen[i]) { seen[i] = 1; nodes.push(i); } }
    terms.forEach(function (t, k) {
      var p = t.stem >= 0 && postings(t.stem);
      if (!p) return;
      tfw[k] = new Float64Array(n);
      for (var j = 0; j < p.docs.length; j++) { tfw[k][p.docs[j]] = p.weights[j]; add(p.docs[j]); }
    });
    var tiers = new Uint8Array(n);
    exactNodes(q.words, 1).forEach(function (i) { tiers[i] = 1; add(i); });
    exactNodes(q.whole, 0).forEach(function (i) { tiers[i] = 2; add(i); });
    var out = [];
    nodes.forEach(function (i) {
      if (kind && head.typeNames[head.types[i]] !== kind) return;
      var total = 0, matched = [], adj = 0;
      for (var k = 0; k < terms.length; k++) {
        var w = tfw[k] ? tfw[k][i] : 0;
        matched.push(w > 0);
        if (w > 0) total += postings(terms[k].stem).idf * w / (head.k1 + w);
      }
      for (k = 1; k < terms.length; k++) {
        if (!matched[k - 1] || !matched[k]) continue;
        var a = terms[k - 1].stem, b = terms[k].stem, pw = pairWeight(i, a, b);
        if (pw > 0) adj += head.adjacency * (postings(a).idf + postings(b).idf) * pw / (head.k1 + pw);
      }
      out.push({ i: i, tier: tiers[i], score: Math.round((total + adj) * 1e6) / 1e6, matched: matched });
    });
    // Nodes are numbered in tie order: type, then id.
    out.sort(function (x, y) { return y.tier - x.tier || (y.score > x.score ? 1 : y.score < x.score ? -1 : 0) || x.i - y.i; });
    return out;
  }

  // rank returns a promise of every candidate for the query, of the given
  // type ("" for all), best first: [{i (the node's number), tier, score,
  // matched}].
  function rank(query, kind) {
    var q = parse(query);
    return need(q).then(function () { return rankLoaded(q, kind); });
  }

  // near: up to n vocabulary words (no stop words) within 3 edits of w,
  // or that start with its first 4 letters, nearest first, then the most
  // frequent (synth's near).
  // It keeps the best n so far: a word further than the n-th cannot
  // enter, so the distance it computes is bounded by the n-th's.
  function near(w, n) {
    var x = codePoints(w), lx = letters(x), prefix = runes(w).slice(0, 4).join(""), long = x.length >= 4, best = [];
    function worse(a, b) { return a.dist - b.dist || b.freq - a.freq || cmp(a.word, b.word); }
    vocabulary().forEach(function (list) {
      list.forEach(function (v) {
        var limit = best.length < n ? 3 : Math.min(3, best[n - 1].dist);
        var d = apart(lx, v.letters) > limit ? limit + 1 : editDistance(x, v.cps, limit);
        if (d > limit && !(limit === 3 && long && v.word.startsWith(prefix))) return;
        var c = { word: v.word, dist: d, freq: v.freq };
        if (best.length === n && worse(c, best[n - 1]) >= 0) return;
        best.push(c);
        best.sort(worse);
        if (best.length > n) best.pop();
      });
    });
    return best.map(function (c) { return c.word; });
  }

  // hint says why nothing matched, in the words of synth's hint.
  function hint(q, kind) {
    if (kind) {
      var n = rankLoaded(q, "").length;
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

  // result is what the page shows of a ranked node, its text loaded.
  function result(r, q) {
    return { entry: texts[r.i], score: r.score, tier: r.tier, terms: q.terms,
      matched: q.terms.filter(function (t, k) { return r.matched[k]; }).map(function (t) { return t.word; }) };
  }

  // answer ranks q: the terms searched, the corrections, how many nodes
  // match, every candidate ranked and, when none matches and noHint is
  // not set, the hint.
  function answer(q, kind, noHint) {
    return need(q).then(function () {
      var found = rankLoaded(q, kind);
      return { terms: q.terms.map(function (t) { return t.word; }), corrected: q.corrected, count: found.length, ranked: found,
        hint: found.length || noHint ? "" : hint(q, kind) };
    });
  }

  // search answers as "tracewiki search" does (without excerpts), a
  // promise: the terms, the corrections, the count, the best limit
  // results with what they show, the hint.
  function search(query, kind, limit) {
    var q = parse(query);
    return answer(q, kind).then(function (a) {
      var top = a.ranked.slice(0, limit || 10);
      return needTexts(top.map(function (r) { return r.i; })).then(function () {
        return { terms: a.terms, corrected: a.corrected, count: a.count, hint: a.hint, results: top.map(function (r) { return result(r, q); }) };
      });
    });
  }

  window.tracewikiSearch = { rank: rank, search: search };

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
      for (var j = i; j < Math.min(ws.length, i + 24); j++) if (want[ws[j].stem] && !seen[ws[j].stem]) { seen[ws[j].stem] = true; sc += postings(ws[j].stem).idf; }
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

  // FIRST is how many results show before the text shards of the rest
  // are loaded.
  var FIRST = 10;

  function show(f) {
    var e = f.entry;
    var local = e.id.slice(e.id.indexOf(":") + 1);
    var li = document.createElement("li");
    li.setAttribute("data-id", e.id);
    var type = document.createElement("span");
    type.className = "type";
    type.textContent = e.type;
    var a = document.createElement("a");
    a.href = /^[a-z]+:\/\//.test(e.url) ? e.url : root + e.url; // an external's node: its own wiki
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
  }

  // render shows the answer to q: the status and the first results once
  // their shards are loaded, then the rest (or, when nothing matched, the
  // hint). A newer query's render
  // supersedes it. The promises it sets (shown: the first results; done:
  // all) are what a test or a benchmark waits for.
  var current = 0;
  function render(q) {
    var me = ++current;
    var live = function () { return me === current; };
    if (!white(q).length) {
      while (results.firstChild) results.removeChild(results.firstChild);
      status.textContent = "Type to search requirements, decisions, pages and code.";
      window.tracewikiSearch.shown = window.tracewikiSearch.done = Promise.resolve();
      return;
    }
    var parsed = parse(q), ranked = [];
    // The hint scans the vocabulary: "No results" shows first.
    var shown = answer(parsed, kind, true).then(function (a) {
      ranked = a.ranked.slice(0, MAX);
      return needTexts(ranked.slice(0, FIRST).map(function (r) { return r.i; })).then(function () {
        if (!live()) return;
        while (results.firstChild) results.removeChild(results.firstChild);
        var fixes = Object.keys(a.corrected).map(function (w) { return w + " → " + a.corrected[w]; });
        status.textContent = a.count ? a.count + " result" + (a.count === 1 ? "" : "s") +
          (fixes.length ? " (corrected: " + fixes.join(", ") + ")" : "") : "No results.";
        ranked.slice(0, FIRST).forEach(function (r) { show(result(r, parsed)); });
      });
    });
    var done = shown.then(function () {
      if (!ranked.length) {
        return new Promise(function (painted) { setTimeout(painted, 0); }).then(function () {
          if (live()) status.textContent = "No results: " + hint(parsed, kind) + ".";
        });
      }
      var rest = ranked.slice(FIRST);
      return needTexts(rest.map(function (r) { return r.i; })).then(function () {
        if (live()) rest.forEach(function (r) { show(result(r, parsed)); });
      });
    });
    done.catch(function (err) { if (live()) status.textContent = "The search index could not be loaded: " + err.message; });
    window.tracewikiSearch.shown = shown;
    window.tracewikiSearch.done = done;
  }

  input.addEventListener("input", function () { render(input.value); });
  if (params.get("q")) { input.value = params.get("q"); }
  render(input.value);
})();
