#!/usr/bin/env node
// csref.js prints the symbols of C# files by the rules of tracewiki's SPEC
// 1.3, as tree-sitter-c-sharp parses them: the reference of
// TestConformance.
//
//	NODE_MODULES=/folder/with/web-tree-sitter/and/tree-sitter-c-sharp node csref.js < PATHS
//
// PATHS lists the files, one a line; the output is one JSON object per line
// and file, in the same order: {"path", "symbols": [[name, kind, start,
// end]], "ambiguous": [names]}, or {"path", "error"} when tree-sitter finds
// a syntax error.
//
// Symbols: class, struct, interface, enum, record and delegate declarations
// named Outer.Inner (namespaces are not part of the name), their methods,
// constructors and properties Type.Name, at any depth of namespaces,
// types and #if blocks, never inside a body. A range runs from the
// declaration node's first line (its first attribute) to its last line.
// Methods and constructors of one name in one type merge into one symbol
// from the first one's first line to the last one's last line, and so do
// types of one name in one namespace that are all partial or all of
// different arity; any other repeated name is ambiguous. Kind: "test" for a
// method with a [Fact], [Theory], [Test], [TestCase], [TestCaseSource],
// [TestMethod] or [DataTestMethod] attribute and a type that declares one;
// otherwise "type" or "method".
"use strict";
const fs = require("fs");
const path = require("path");

const TEST_ATTRS = new Set(["Fact", "Theory", "Test", "TestCase", "TestCaseSource", "TestMethod", "DataTestMethod"]);
const TYPES = new Set(["class_declaration", "struct_declaration", "interface_declaration", "enum_declaration",
  "record_declaration", "record_struct_declaration", "delegate_declaration"]);
const MEMBERS = new Set(["method_declaration", "constructor_declaration", "property_declaration"]);

async function main() {
  const modules = process.env.NODE_MODULES;
  const { Parser, Language } = require(path.join(modules, "web-tree-sitter", "tree-sitter.cjs"));
  await Parser.init();
  const lang = await Language.load(path.join(modules, "tree-sitter-c-sharp", "tree-sitter-c_sharp.wasm"));
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
    walk(tree.rootNode, "", "", decls);
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

function attrNames(node) {
  const names = [];
  for (const c of node.namedChildren) {
    if (c.type !== "attribute_list") continue;
    for (const a of c.namedChildren) {
      if (a.type !== "attribute") continue;
      const n = a.childForFieldName("name");
      let text = n ? n.text : "";
      text = text.replace(/<.*$/s, "");
      text = text.slice(Math.max(text.lastIndexOf("."), text.lastIndexOf(":")) + 1);
      names.push(text.replace(/Attribute$/, ""));
    }
  }
  return names;
}

function isPartial(node) {
  return node.namedChildren.some((c) => c.type === "modifier" && c.text === "partial");
}

function arity(node) {
  const tp = node.namedChildren.find((c) => c.type === "type_parameter_list");
  return tp ? tp.namedChildren.filter((c) => c.type === "type_parameter").length : 0;
}

// walk adds the declarations below a container node.
function walk(node, ns, outer, decls) {
  for (const c of node.namedChildren) {
    if (c.type === "namespace_declaration" || c.type === "file_scoped_namespace_declaration") {
      const name = c.childForFieldName("name").text.replace(/\s+/g, "");
      const inner = ns ? ns + "." + name : name;
      if (c.type === "file_scoped_namespace_declaration") {
        walk(c, inner, outer, decls);
      } else {
        const body = c.childForFieldName("body");
        if (body) walk(body, inner, outer, decls);
      }
    } else if (TYPES.has(c.type)) {
      const simple = c.childForFieldName("name").text;
      const name = outer ? outer + "." + simple : simple;
      const d = { name, ns, type: true, partial: isPartial(c), arity: arity(c), lines: lines(c), test: false };
      decls.push(d);
      const body = c.childForFieldName("body");
      if (body && c.type !== "enum_declaration") {
        const before = decls.length;
        walk(body, ns, name, decls);
        d.test = decls.slice(before).some((m) => !m.type && m.test && m.name.startsWith(name + ".") && !m.name.slice(name.length + 1).includes("."));
      }
    } else if (MEMBERS.has(c.type)) {
      const n = c.childForFieldName("name");
      const simple = c.type === "constructor_declaration" ? outer.slice(outer.lastIndexOf(".") + 1) : n.text;
      decls.push({ name: outer + "." + simple, ns, type: false, prop: c.type === "property_declaration",
        lines: lines(c), test: c.type === "method_declaration" && attrNames(c).some((a) => TEST_ATTRS.has(a)) });
    } else if (c.type.startsWith("preproc_") || c.type === "declaration_list") {
      walk(c, ns, outer, decls);
    }
  }
}

function symbols(decls) {
  const groups = new Map();
  for (const d of decls) {
    if (!groups.has(d.name)) groups.set(d.name, []);
    groups.get(d.name).push(d);
  }
  const syms = [], amb = [];
  for (const [name, parts] of groups) {
    const allMethods = parts.every((d) => !d.type && !d.prop);
    const allTypes = parts.every((d) => d.type && d.ns === parts[0].ns);
    const allPartial = parts.every((d) => d.partial);
    const arities = new Set(parts.map((d) => d.arity));
    if (parts.length > 1 && !(allMethods || allTypes && (allPartial || arities.size === parts.length))) {
      amb.push(name);
      continue;
    }
    const start = Math.min(...parts.map((d) => d.lines[0]));
    const end = Math.max(...parts.map((d) => d.lines[1]));
    const test = parts.some((d) => d.test);
    syms.push([name, test ? "test" : parts[0].type ? "type" : "method", start, end]);
  }
  amb.sort();
  return { symbols: syms, ambiguous: amb };
}

main().catch((e) => {
  process.stderr.write(String(e.stack || e) + "\n");
  process.exit(1);
});
