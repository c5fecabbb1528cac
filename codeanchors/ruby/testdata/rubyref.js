// rubyref.js: the reference for TestConformance. It reads file paths on
// stdin, one a line, parses each with Prism (@ruby/prism, whose folder is
// argv[2]) and prints one JSON line per file: {Path, Symbols: [{Name,
// Start, End}], Comments: [[Start, End]], Error}. It names symbols by SPEC 1.3's Ruby rules, walking
// Prism's ClassNode, ModuleNode, SingletonClassNode and DefNode:
//   - classes and modules nest with "." (class A::B is A.B, class ::C and
//     class ::C::D are the top-level C and C.D);
//   - def m in a class or module body is Class.m, at the top level m;
//   - def self.m and a def in class << self are Class.self.m;
//   - nothing inside a def is a symbol, nor a def with another receiver,
//     nor a def in class << obj (obj not self), nor an operator method;
//   - every other node (blocks, if, begin) is transparent.
// Lines are 1-based; a node's range is from its first byte's line to its
// last byte's line.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";

const dir = process.argv[2];
const prism = await import(path.join(dir, "src", "index.js"));
const parse = await prism.loadPrism();

const nameRE = /^[\p{L}_][\p{L}\p{N}_]*[?!=]?$/u;

function constName(n) {
  if (n instanceof prism.ConstantReadNode) return n.name;
  if (n instanceof prism.ConstantPathNode) {
    if (n.parent === null) return n.name;
    const p = constName(n.parent);
    return p === null ? null : p + "." + n.name;
  }
  return null;
}

const isNode = (v) => v !== null && typeof v === "object" && typeof v.compactChildNodes === "function";

function lineOf(starts, off) {
  let lo = 0, hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= off) lo = mid; else hi = mid - 1;
  }
  return lo + 1;
}

function symbols(buf, root) {
  const starts = [0];
  for (let i = 0; i < buf.length; i++) if (buf[i] === 10) starts.push(i + 1);
  const out = [];
  const range = (loc) => [lineOf(starts, loc.startOffset), lineOf(starts, loc.startOffset + Math.max(loc.length, 1) - 1)];
  const join = (scope, name) => (scope === "" ? name : scope + "." + name);
  // scope: the enclosing name; null inside a def or an unnamed singleton class.
  function walk(node, scope) {
    if (node === null || node === undefined) return;
    if (node instanceof prism.ClassNode || node instanceof prism.ModuleNode) {
      const n = constName(node.constantPath);
      if (scope !== null && n !== null) {
        // class ::Top is a top-level class
        let first = node.constantPath;
        while (first instanceof prism.ConstantPathNode && first.parent !== null) first = first.parent;
        const absolute = first instanceof prism.ConstantPathNode;
        const full = absolute ? n : join(scope, n);
        const [s, e] = range(node.location);
        out.push({ Name: full, Start: s, End: e });
        walk(node.body, full);
        if (node.superclass) walk(node.superclass, scope);
        return;
      }
      walk(node.body, null);
      return;
    }
    if (node instanceof prism.SingletonClassNode) {
      const self = node.expression instanceof prism.SelfNode && scope !== null;
      walk(node.body, self ? join(scope, "self") : null);
      return;
    }
    if (node instanceof prism.DefNode) {
      if (scope !== null && nameRE.test(node.name)) {
        let full = null;
        if (node.receiver === null) full = join(scope, node.name);
        else if (node.receiver instanceof prism.SelfNode) full = join(join(scope, "self"), node.name);
        if (full !== null) {
          const [s, e] = range(node.location);
          out.push({ Name: full, Start: s, End: e });
        }
      }
      walk(node.body, null);
      return;
    }
    // Every field holding a node or nodes (compactChildNodes leaves out
    // a CaseNode's conditions in this version).
    for (const v of Object.values(node)) {
      if (Array.isArray(v)) {
        for (const c of v) if (isNode(c)) walk(c, scope);
      } else if (isNode(v)) {
        walk(v, scope);
      }
    }
  }
  walk(root, "");
  return out;
}

// comments returns the [start, end] lines of Prism's comments (# and
// =begin/=end), in source order, for TestCommentsConformance.
function comments(buf, r) {
  const starts = [0];
  for (let i = 0; i < buf.length; i++) if (buf[i] === 10) starts.push(i + 1);
  return r.comments.map((c) => {
    const loc = c.location;
    // an =begin/=end comment's location takes the =end line's line break
    let last = loc.startOffset + Math.max(loc.length, 1) - 1;
    if (last > loc.startOffset && buf[last] === 10) last--;
    return [lineOf(starts, loc.startOffset), lineOf(starts, last)];
  });
}

const rl = readline.createInterface({ input: process.stdin });
for await (const line of rl) {
  if (line === "") continue;
  const buf = fs.readFileSync(line);
  const text = buf.toString("utf8");
  let rec = { Path: line, Symbols: [], Comments: [], Error: "" };
  if (!Buffer.from(text, "utf8").equals(buf)) {
    rec.Error = "not UTF-8";
  } else {
    const r = parse(text);
    if (r.errors.length > 0) {
      const e = r.errors[0];
      rec.Error = e.message;
    } else {
      rec.Symbols = symbols(buf, r.value);
      rec.Comments = comments(buf, r);
    }
  }
  process.stdout.write(JSON.stringify(rec) + "\n");
}
