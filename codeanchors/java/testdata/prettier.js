#!/usr/bin/env node
// prettier.js formats every .java file below SRC into the same path below
// OUT with prettier and prettier-plugin-java, for TestPrettier: a formatter
// run must keep the token hash of every symbol (tokens.go).
//
//	NODE_MODULES=/folder/with/prettier/and/prettier-plugin-java node prettier.js SRC OUT [OPTIONS_JSON]
//
// OPTIONS_JSON are prettier options ({"printWidth": 40, ...}). Files prettier
// cannot parse are skipped and listed on standard error.
"use strict";
const fs = require("fs");
const path = require("path");
const { pathToFileURL } = require("url");
const modules = process.env.NODE_MODULES;
const prettier = require(path.join(modules, "prettier"));

// loadPlugin imports prettier-plugin-java, an ES module in some versions.
async function loadPlugin() {
  const dir = path.join(modules, "prettier-plugin-java");
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const exp = pkg.exports && (pkg.exports["."] || pkg.exports);
  const entry = (exp && (exp.import || exp.default || exp.require)) || pkg.main;
  const mod = await import(pathToFileURL(path.join(dir, typeof entry === "string" ? entry : entry.default)).href);
  return mod.default || mod;
}

async function main() {
  const plugin = await loadPlugin();
  const [src, out, opts] = process.argv.slice(2);
  const options = opts ? JSON.parse(opts) : {};
  const walk = (dir) =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) return walk(p);
      return d.name.endsWith(".java") ? [p] : [];
    });
  for (const file of walk(src)) {
    const dest = path.join(out, path.relative(src, file));
    try {
      const text = fs.readFileSync(file, "utf8");
      const formatted = await prettier.format(text, { ...options, parser: "java", plugins: [plugin] });
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.writeFileSync(dest, formatted);
    } catch (e) {
      process.stderr.write(`${file}: ${String(e.message).split("\n")[0]}\n`);
    }
  }
}

main();
