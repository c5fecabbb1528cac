#!/usr/bin/env node
// ktref.js prints the symbols of Kotlin files by the rules of tracewiki's
// SPEC 1.3, as tree-sitter-kotlin parses them: the reference of
// TestConformance.
//
//	NODE_MODULES=/folder/with/web-tree-sitter/and/@tree-sitter-grammars/tree-sitter-kotlin node ktref.js < PATHS
//
// PATHS lists the files, one a line; the output is one JSON object per line
// and file, in the same order: {"path", "symbols": [[name, kind, start,
// end]], "ambiguous": [names]}, or {"path", "error"} when tree-sitter finds
// a syntax error.
//
// Symbols: class, interface, object and type alias declarations named
// Outer.Inner; a companion object Type.Companion (or Type.Name); functions
// in a type Type.f (kind method; a member extension function too); a
// primary constructor Type.Type; secondary constructors Type.constructor;
// top-level functions f (kind func), top-level extension functions
// Receiver.f (the receiver's user type names joined by '.', no type
// arguments; a parenthesized or function-type receiver gives f). Never
// inside a function body, an initializer, a property or an enum entry's
// body. A range runs from the declaration node's first line (its first
// annotation or modifier) to its last line. Functions of one name in one
// scope merge into one symbol from the first one's first line to the last
// one's last line; any other repeated name is ambiguous, and so is a
// top-level extension function whose receiver names a type the file
// declares (by its full or simple name). Kind: "test" for a function
// annotated @Test, @ParameterizedTest, @RepeatedTest, @TestFactory,
// @TestTemplate or @Theory and a type that declares one; else "type",
// "method" or "func". Backtick names keep letters, digits, '_' and '$',
// every other run of characters becomes '_' (and '_' goes before a leading
// digit).
"use strict";
const fs = require("fs");
const path = require("path");

const TEST_ANNOTATIONS = new Set(["Test", "ParameterizedTest", "RepeatedTest", "TestFactory", "TestTemplate", "Theory"]);
const TYPE_NODES = new Set(["user_type", "nullable_type", "non_nullable_type", "parenthesized_type", "function_type", "type_modifiers"]);

async function main() {
  const modules = process.env.NODE_MODULES;
  const { Parser, Language } = require(path.join(modules, "web-tree-sitter", "tree-sitter.cjs"));
  await Parser.init();
  const lang = await Language.load(path.join(modules, "@tree-sitter-grammars", "tree-sitter-kotlin", "tree-sitter-kotlin.wasm"));
  const parser = new Parser();
  parser.setLanguage(lang);
  const paths = fs.readFileSync(0, "utf8").split("\n").filter((l) => l.trim() !== "");
  const out = [];
  for (const p of paths) {
    const src = fs.readFileSync(p, "utf8");
    const tree = parser.parse(src);
    if (tree.rootNode.hasError) {
      out.push(JSON.stringify({ path: p, error: firstError(tree.rootNode) }));
      tree.delete();
      continue;
    }
    const decls = [];
    walk(tree.rootNode, "", decls);
    out.push(JSON.stringify({ path: p, ...symbols(decls) }));
    tree.delete();
  }
  process.stdout.write(out.join("\n") + "\n");
}

function firstError(node) {
  const stack = [node];
  while (stack.length) {
    const n = stack.shift();
    if (n.type === "ERROR" || n.isMissing) return `${n.startPosition.row + 1}: ${n.isMissing ? "missing " + n.type : "syntax error"}`;
    for (let i = 0; i < n.childCount; i++) if (n.child(i).hasError || n.child(i).isMissing) stack.push(n.child(i));
  }
  return "syntax error";
}

function lines(node) {
  let end = node.endPosition.row + 1;
  if (node.endPosition.column === 0 && node.endPosition.row > node.startPosition.row) end--;
  return [node.startPosition.row + 1, end];
}

function ident(text) {
  if (!text.startsWith("`")) return text;
  let out = "", under = false;
  for (const ch of text.slice(1, -1)) {
    if (/^[\p{L}\p{Nd}_$]$/u.test(ch)) {
      if (out === "" && /^\p{Nd}$/u.test(ch)) out += "_";
      out += ch;
      under = false;
    } else if (!under) {
      out += "_";
      under = true;
    }
  }
  return out === "" ? "_" : out;
}

function annotationNames(node) {
  const names = [];
  const mods = node.namedChildren.find((c) => c.type === "modifiers");
  if (!mods) return names;
  for (const a of mods.namedChildren) {
    if (a.type !== "annotation") continue;
    const stack = [a];
    while (stack.length) {
      const n = stack.pop();
      if (n.type === "user_type") {
        const ids = n.namedChildren.filter((c) => c.type === "identifier");
        if (ids.length) names.push(ident(ids[ids.length - 1].text));
        continue;
      }
      if (n.type === "value_arguments") continue;
      stack.push(...n.namedChildren);
    }
  }
  return names;
}

function hasModifier(node, word) {
  const mods = node.namedChildren.find((c) => c.type === "modifiers");
  return !!mods && mods.namedChildren.some((m) => m.type !== "annotation" && m.text === word);
}

// receiver returns the receiver of a function declaration: null for none,
// "" for one that has no plain name.
function receiver(fn) {
  const name = fn.childForFieldName("name");
  for (const c of fn.namedChildren) {
    if (c.startIndex >= name.startIndex) break;
    if (!TYPE_NODES.has(c.type)) continue;
    let t = c;
    while (t.type === "nullable_type" || t.type === "non_nullable_type") t = t.namedChildren[0];
    if (t.type !== "user_type") return "";
    return t.namedChildren.filter((x) => x.type === "identifier").map((x) => ident(x.text)).join(".");
  }
  return null;
}

// walk adds the declarations below a container node; outer is the
// enclosing type's name ("" at top level).
function walk(node, outer, decls) {
  for (const c of node.namedChildren) {
    switch (c.type) {
      case "class_declaration":
      case "object_declaration":
      case "companion_object": {
        const n = c.childForFieldName("name");
        const simple = n ? ident(n.text) : "Companion";
        const name = outer ? outer + "." + simple : simple;
        const d = { name, kind: "type", lines: lines(c), test: false };
        decls.push(d);
        const before = decls.length;
        const pc = c.namedChildren.find((x) => x.type === "primary_constructor");
        if (pc) decls.push({ name: name + "." + simple, kind: "method", lines: lines(pc), test: false });
        const body = c.namedChildren.find((x) => x.type === "class_body" || x.type === "enum_class_body");
        if (body) walk(body, name, decls);
        d.test = decls.slice(before).some((m) => m.kind !== "type" && m.test && !m.name.slice(name.length + 1).includes("."));
        break;
      }
      case "type_alias": {
        const n = c.childForFieldName("type");
        decls.push({ name: outer ? outer + "." + ident(n.text) : ident(n.text), kind: "type", lines: lines(c), test: false });
        break;
      }
      case "function_declaration": {
        const simple = ident(c.childForFieldName("name").text);
        const d = { name: simple, kind: "func", lines: lines(c), test: annotationNames(c).some((a) => TEST_ANNOTATIONS.has(a)) };
        if (outer) {
          d.name = outer + "." + simple;
          d.kind = "method";
        } else {
          const r = receiver(c);
          if (r) {
            d.recv = r;
            d.name = r + "." + simple;
          }
        }
        decls.push(d);
        break;
      }
      case "secondary_constructor":
        decls.push({ name: outer + ".constructor", kind: "method", lines: lines(c), test: false });
        break;
      case "class_member_declaration":
      case "declaration":
      case "statement":
        walk(c, outer, decls);
        break;
    }
  }
}

function symbols(decls) {
  const types = new Set();
  for (const d of decls) {
    if (d.kind !== "type") continue;
    types.add(d.name);
    types.add(d.name.slice(d.name.lastIndexOf(".") + 1));
  }
  const groups = new Map();
  for (const d of decls) {
    if (!groups.has(d.name)) groups.set(d.name, []);
    groups.get(d.name).push(d);
  }
  const syms = [], amb = [];
  for (const [name, parts] of groups) {
    if (name.split(".").includes("_")) continue; // _ names nothing
    const typeLike = parts.filter((d) => d.kind === "type" || (d.recv && types.has(d.recv))).length;
    if (typeLike > 0 && (parts.length > 1 || parts[0].kind !== "type")) {
      amb.push(name);
      continue;
    }
    const start = Math.min(...parts.map((d) => d.lines[0]));
    const end = Math.max(...parts.map((d) => d.lines[1]));
    const test = parts.some((d) => d.test);
    syms.push([name, test ? "test" : parts[0].kind, start, end]);
  }
  amb.sort();
  return { symbols: syms, ambiguous: amb };
}

main().catch((e) => {
  process.stderr.write(String(e.stack || e) + "\n");
  process.exit(1);
});
