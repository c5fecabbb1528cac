// phpref.js prints the symbols the php-parser npm package (glayzzle) finds
// in each file named on stdin (one path per line), as JSON lines
// {"path", "symbols": [{"name", "start", "end"}]} or {"path", "error"}.
// It follows Extract's rules: named functions, classes, interfaces, traits
// and enums outside function bodies and anonymous classes, and their
// methods; a range starts at the first attribute group's line.
"use strict";
const fs = require("fs");
const path = require("path");
const Engine = require(path.join(process.argv[2], "src", "index.js"));
const parser = new Engine({
  parser: { extractDoc: false, php8: true, version: "8.3", suppressErrors: false },
  ast: { withPositions: true },
});
const typeKinds = new Set(["class", "interface", "trait", "enum"]);
const nameOf = (n) => (typeof n === "string" ? n : n && n.name);
function startOf(n) {
  let s = n.loc.start.line;
  for (const g of n.attrGroups || []) {
    if (g.loc && g.loc.start.line < s) s = g.loc.start.line;
  }
  return s;
}
function walk(node, out) {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const c of node) walk(c, out);
    return;
  }
  if (typeof node.kind !== "string") return;
  if (node.kind === "function" && node.name) {
    out.push({ name: nameOf(node.name), start: startOf(node), end: node.loc.end.line });
    return;
  }
  if (typeKinds.has(node.kind)) {
    if (node.isAnonymous || !node.name) return;
    const cls = nameOf(node.name);
    out.push({ name: cls, start: startOf(node), end: node.loc.end.line });
    for (const m of node.body || []) {
      if (m.kind === "method") {
        out.push({ name: cls + "." + nameOf(m.name), start: startOf(m), end: m.loc.end.line });
      }
    }
    return;
  }
  if (node.kind === "closure" || node.kind === "arrowfunc" || node.kind === "method") return;
  for (const k of Object.keys(node)) {
    if (k === "loc" || k === "leadingComments" || k === "trailingComments") continue;
    walk(node[k], out);
  }
}
const lines = fs.readFileSync(0, "utf8").split("\n").filter(Boolean);
for (const p of lines) {
  try {
    const ast = parser.parseCode(fs.readFileSync(p, "utf8"), p);
    const out = [];
    walk(ast.children, out);
    console.log(JSON.stringify({ path: p, symbols: out }));
  } catch (e) {
    console.log(JSON.stringify({ path: p, error: String(e.message || e) }));
  }
}
