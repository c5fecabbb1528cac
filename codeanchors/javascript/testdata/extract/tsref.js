#!/usr/bin/env node
// tsref.js lists the symbols of JavaScript and TypeScript files as the
// TypeScript compiler sees them, by the rules ExtractJavaScript follows
// (codeanchors/javascript.go, SPEC 1.3). It is the reference the golden
// symbols of this directory were reviewed against, and what
// TestJSConformance compares the extractor with:
//
//	npm install typescript      # in a folder outside the repository
//	TSREF_TS=/that/folder/node_modules/typescript node tsref.js FILE...
//
// A FILE ending in .txtar stands for its first section, extracted under the
// section's name; any other file under its own path. Without arguments the
// paths are read from standard input, one per line. For each file it prints
// one JSON line: {"path", "symbols": ["name kind start-end", ...],
// "ambiguous": [...], "comments": ["start-end", ...]} or {"path", "error"}.
"use strict";
const fs = require("fs");
const ts = require(process.env.TSREF_TS || "typescript");
const K = ts.SyntaxKind;

function isTestPath(p) {
  const parts = p.split("/");
  const base = parts.pop();
  if (parts.some((c) => c === "tests" || c === "__tests__")) return true;
  const m = /^(.*)\.(js|jsx|ts|tsx|mjs|cjs|mts|cts)$/.exec(base);
  return !!m && (m[1].endsWith(".test") || m[1].endsWith(".spec"));
}

function scriptKind(p) {
  if (/\.tsx$/i.test(p)) return ts.ScriptKind.TSX;
  if (/\.(ts|mts|cts)$/i.test(p)) return ts.ScriptKind.TS;
  if (/\.jsx$/i.test(p)) return ts.ScriptKind.JSX;
  return ts.ScriptKind.JS;
}

function symbols(path, text) {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, scriptKind(path));
  // Lines are counted at "\n" only, as tracewiki does.
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  const line = (pos) => {
    let lo = 0, hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= pos) lo = mid; else hi = mid - 1;
    }
    return lo + 1;
  };
  // A declaration starts at its first modifier that is not a decorator, or
  // at the first token after its decorators.
  const startOf = (node) => {
    const mods = node.modifiers || [];
    for (const m of mods) if (m.kind !== K.Decorator) return m.getStart(sf);
    if (mods.length) return ts.skipTrivia(text, mods[mods.length - 1].end);
    return node.getStart(sf);
  };
  // It ends with its last token; a semicolon on a later line than the token
  // before it does not count.
  const endOf = (node) => {
    const kids = node.getChildren(sf);
    const last = kids[kids.length - 1];
    if (last && last.kind === K.SemicolonToken && kids.length > 1) {
      const prev = kids[kids.length - 2];
      if (line(last.getStart(sf)) > line(prev.end - 1)) return line(prev.end - 1);
    }
    return line(node.end - 1);
  };
  const decls = [];
  const seq = new Map();
  const add = (scope, name, kind, start, end, body, acc) => {
    const n = seq.get(scope) || 0;
    seq.set(scope, n + 1);
    decls.push({ name: scope + name, kind, scope, seq: n, start, end, body, acc });
  };
  const isFn = (x) => !!x && (x.kind === K.ArrowFunction || x.kind === K.FunctionExpression);
  const memberName = (n) =>
    n && (n.kind === K.Identifier || n.kind === K.PrivateIdentifier) ? n.text : null;

  const members = (cls, scope) => {
    for (const m of cls.members) {
      const start = line(startOf(m)), end = endOf(m);
      switch (m.kind) {
        case K.Constructor:
          add(scope, "constructor", "method", start, end, !!m.body, 0);
          break;
        case K.MethodDeclaration: {
          const n = memberName(m.name);
          if (n) add(scope, n, "method", start, end, !!m.body, 0);
          break;
        }
        case K.GetAccessor:
        case K.SetAccessor: {
          const n = memberName(m.name);
          if (n) add(scope, n, "method", start, end, true, m.kind === K.GetAccessor ? "g" : "s");
          break;
        }
        case K.PropertyDeclaration: {
          const n = memberName(m.name);
          if (n && isFn(m.initializer)) add(scope, n, "method", start, end, true, 0);
          break;
        }
      }
    }
  };

  const statements = (list, prefix) => {
    for (const st of list) {
      switch (st.kind) {
        case K.FunctionDeclaration:
          if (st.name) add(prefix, st.name.text, "func", line(startOf(st)), endOf(st), !!st.body, 0);
          break;
        case K.ClassDeclaration:
          if (st.name) {
            add(prefix, st.name.text, "type", line(startOf(st)), endOf(st), true, 0);
            members(st, prefix + st.name.text + ".");
          }
          break;
        case K.InterfaceDeclaration:
        case K.TypeAliasDeclaration:
        case K.EnumDeclaration:
          add(prefix, st.name.text, "type", line(startOf(st)), endOf(st), true, 0);
          break;
        case K.VariableStatement: {
          const ds = st.declarationList.declarations;
          ds.forEach((d, k) => {
            if (d.name.kind !== K.Identifier || !isFn(d.initializer)) return;
            const start = k === 0 ? line(startOf(st)) : line(d.getStart(sf));
            const end = k === ds.length - 1 ? endOf(st) : line(d.end - 1);
            add(prefix, d.name.text, "func", start, end, true, 0);
          });
          break;
        }
        case K.ModuleDeclaration: {
          if (st.name.kind !== K.Identifier || st.flags & ts.NodeFlags.GlobalAugmentation) break;
          let name = st.name.text, body = st.body;
          while (body && body.kind === K.ModuleDeclaration) {
            name += "." + body.name.text;
            body = body.body;
          }
          if (body && body.kind === K.ModuleBlock) statements(body.statements, prefix + name + ".");
          break;
        }
      }
    }
  };
  statements(sf.statements, "");

  // Overloads before their implementation, and a getter with its setter,
  // are one symbol; any other name declared twice is ambiguous.
  const byName = new Map();
  for (const d of decls) {
    if (!byName.has(d.name)) byName.set(d.name, []);
    byName.get(d.name).push(d);
  }
  const syms = [], ambiguous = [];
  for (const [name, parts] of byName) {
    let one = parts.length === 1;
    if (!one && parts[0].acc) {
      one = parts.length === 2 && parts[1].acc && parts[1].acc !== parts[0].acc;
    } else if (!one) {
      one = parts.every((d, n) =>
        !d.acc && d.kind === parts[0].kind && d.scope === parts[0].scope &&
        (n === 0 || d.seq === parts[n - 1].seq + 1) && (n === parts.length - 1 || !d.body));
    }
    if (!one) {
      ambiguous.push(name);
      continue;
    }
    const kind = isTestPath(path) ? "test" : parts[0].kind;
    const start = parts[0].start, end = Math.max(...parts.map((d) => d.end));
    syms.push({ name, kind, start, end });
  }
  syms.sort((a, b) => a.start - b.start || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  ambiguous.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const out = { path, symbols: syms.map((s) => `${s.name} ${s.kind} ${s.start}-${s.end}`), ambiguous, comments: comments(sf, text, line) };
  if (sf.parseDiagnostics && sf.parseDiagnostics.length) {
    const d = sf.parseDiagnostics[0];
    out.diagnostic = `${line(d.start)}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
  }
  return out;
}

// comments lists the comments as TypeScript's scanner sees them, "start-end"
// lines in source order: the hashbang line, and the comment ranges in the
// trivia before every token (trailing ones up to the line break, leading
// ones after it); JSX text has no trivia.
function comments(sf, text, line) {
  const ranges = new Map();
  const shebang = ts.getShebang(text);
  if (shebang) ranges.set(text.indexOf(shebang), text.indexOf(shebang) + shebang.length);
  const seen = new Set();
  const visit = (n) => {
    if (n.kind !== K.JsxText && !seen.has(n.pos)) {
      seen.add(n.pos);
      for (const get of [ts.getTrailingCommentRanges, ts.getLeadingCommentRanges]) {
        for (const c of get(text, n.pos) || []) ranges.set(c.pos, c.end);
      }
    }
    for (const k of n.getChildren(sf)) visit(k);
  };
  visit(sf);
  return [...ranges].sort((a, b) => a[0] - b[0]).map(([pos, end]) => `${line(pos)}-${line(end - 1)}`);
}

// readInput returns the path and text a FILE argument stands for.
function readInput(file) {
  const data = fs.readFileSync(file, "utf8");
  if (!file.endsWith(".txtar")) return [file, data];
  const lines = data.split("\n");
  let name = null;
  const body = [];
  for (const l of lines) {
    const m = /^-- (.+) --$/.exec(l);
    if (m) {
      if (name !== null) break;
      name = m[1];
      continue;
    }
    if (name !== null) body.push(l);
  }
  if (name === null) throw new Error(file + ": no section");
  return [name, body.join("\n")];
}

function main() {
  let files = process.argv.slice(2);
  if (files.length === 0) files = fs.readFileSync(0, "utf8").split("\n").filter((l) => l !== "");
  for (const file of files) {
    let out;
    try {
      const [path, text] = readInput(file);
      out = symbols(path, text);
      out.file = file;
    } catch (e) {
      out = { file, error: String(e && e.message) };
    }
    process.stdout.write(JSON.stringify(out) + "\n");
  }
}

main();
