#!/usr/bin/env node
// prettier.js formats every JavaScript and TypeScript file below SRC into
// the same path below OUT, for TestJSPrettier: a prettier run must keep the
// token hash of every symbol (codeanchors/jstokens.go).
//
//	npm install prettier@3      # in a folder outside the repository
//	PRETTIER=/that/folder/node_modules/prettier node prettier.js SRC OUT [OPTIONS_JSON]
//
// OPTIONS_JSON are prettier options ({"semi": false, ...}). Files prettier
// cannot parse are skipped and listed on standard error.
"use strict";
const fs = require("fs");
const path = require("path");
const prettier = require(process.env.PRETTIER || "prettier");

async function main() {
  const [src, out, opts] = process.argv.slice(2);
  const options = opts ? JSON.parse(opts) : {};
  const walk = (dir) =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) return d.name === "node_modules" ? [] : walk(p);
      return /\.(js|jsx|mjs|cjs|ts|tsx|mts|cts)$/.test(d.name) ? [p] : [];
    });
  for (const file of walk(src)) {
    const dest = path.join(out, path.relative(src, file));
    try {
      const text = fs.readFileSync(file, "utf8");
      const formatted = await prettier.format(text, { ...options, filepath: file });
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.writeFileSync(dest, formatted);
    } catch (e) {
      process.stderr.write(`${file}: ${String(e.message).split("\n")[0]}\n`);
    }
  }
}

main();
