package javascript_test

import (
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/javascript"
)

func buildJSIndex(t *testing.T, archive string) *codeanchors.Index {
	t.Helper()
	in := codeanchors.IndexInput{Project: map[string][]byte{}}
	for _, f := range txtar.Parse([]byte(archive)).Files {
		if path.Ext(f.Name) == ".json" {
			in.Project[f.Name] = f.Data
			continue
		}
		x, err := javascript.Extract(f.Name, f.Data)
		if err != nil {
			t.Fatal(err)
		}
		in.Files = append(in.Files, x)
	}
	return codeanchors.BuildIndex(in)
}

func TestJSLinker(t *testing.T) {
	ix := buildJSIndex(t, jsWorkspace)
	var got []string
	for _, e := range ix.Edges {
		if e.Kind != codeanchors.EdgeDefines {
			got = append(got, e.String())
		}
	}
	want := []string{
		"js/server.js -imports-> js/utils/fmt.js",
		"js/server.js@handle -calls-> js/utils/fmt.js@format",
		"js/server.js@handle -calls-> js/utils/fmt.js@parse",
		"src/app.test.ts -imports-> src/app.ts",
		"src/app.test.ts -imports-> src/lib/math.ts",
		"src/app.test.ts@run -tests-> src/app.ts@main",
		"src/app.test.ts@run -tests-> src/lib/math.ts@add",
		"src/app.ts -imports-> src/components/index.tsx",
		"src/app.ts -imports-> src/legacy.ts",
		"src/app.ts -imports-> src/lib/index.ts",
		"src/app.ts -imports-> src/lib/math.ts",
		"src/app.ts -imports-> src/util.ts",
		"src/app.ts@Store.save -calls-> src/app.ts@Store.flush",
		"src/app.ts@main -calls-> src/app.ts@Store",
		"src/app.ts@main -calls-> src/app.ts@Store.save",
		"src/app.ts@main -calls-> src/app.ts@local",
		"src/app.ts@main -calls-> src/components/Button.tsx@Button",
		"src/app.ts@main -calls-> src/legacy.ts@legacy",
		"src/app.ts@main -calls-> src/lib/math.ts@add",
		"src/app.ts@main -calls-> src/lib/vec.ts@Vector",
		"src/app.ts@main -calls-> src/util.ts@helper",
		"src/app.ts@main -calls-> src/util.ts@twice",
		"src/components/index.tsx -imports-> src/components/Button.tsx",
		"src/lib/index.ts -imports-> src/lib/math.ts",
		"src/lib/index.ts -imports-> src/lib/vec.ts",
		"src/util.ts@helper -calls-> src/util.ts@twice",
		"web/page.tsx -imports-> shared/fmt.ts",
		"web/page.tsx@Page -calls-> shared/fmt.ts@shared",
	}
	if !slices.Equal(got, want) {
		t.Errorf("edges:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantUnresolved := []string{
		"js/server.js: ./utils/unknown",
		"src/app.ts: ./missing",
		"src/app.ts: @/nowhere",
		"src/app.ts: ~/gone",
		"web/page.tsx: @shared/none",
	}
	if !slices.Equal(ix.Unresolved, wantUnresolved) || ix.UnresolvedTotal != len(wantUnresolved) {
		t.Errorf("Unresolved = %q (%d), want %q", ix.Unresolved, ix.UnresolvedTotal, wantUnresolved)
	}
}

// jsWorkspace is a JavaScript and TypeScript workspace for the linker:
// configs with comments and trailing commas, paths and baseUrl, extends,
// relative imports with and without extensions, index files, CommonJS.
const jsWorkspace = `
-- tsconfig.json --
{
  // The root project: src/ through @/ and ~/, and one exact pattern.
  "compilerOptions": {
    "baseUrl": ".",
    "paths": {
      "@/*": ["src/*"],
      "@lib": ["src/lib/index.ts",],
      "~/*": ["nowhere/*", "src/*"], /* tried in order */
      "*": ["types/*"],
    },
  },
}
-- tsconfig.base.json --
{ "compilerOptions": { "paths": { "@shared/*": ["./shared/*"] } } }
-- web/tsconfig.json --
{
  "extends": "../tsconfig.base.json",
  "compilerOptions": { "jsx": "react-jsx" }
}
-- js/jsconfig.json --
{ "compilerOptions": { "baseUrl": "." } }
-- src/app.ts --
import { helper, twice as double } from "./util";
import Button from "./components";
import * as math from "@/lib/math";
import { Vec } from "@lib";
import { gone } from "~/gone";
import { nope } from "./missing";
import React from "react";
import fs from "node:fs";
import "./styles.css";
import { legacy } from "./legacy.js";
import { typed } from "lodash";
import "@/nowhere";

export function main() {
  helper();
  double(2);
  Button();
  math.add(1, 2);
  new Vec(1, 2);
  legacy();
  local();
  fs.readFileSync("x");
  React.createElement("div");
  const store = new Store();
  store.save();
}

function local() {
  return 1;
}

class Store {
  save() {
    this.flush();
  }
  flush() {}
}
-- src/util.ts --
export function helper() {
  return twice(1);
}
export function twice(n: number) {
  return n * 2;
}
-- src/legacy.ts --
export const legacy = () => 0;
-- src/components/index.tsx --
export { default } from "./Button";
-- src/components/Button.tsx --
export default function Button() {
  return <button>ok</button>;
}
-- src/lib/index.ts --
export * from "./math";
export { Vector as Vec } from "./vec";
-- src/lib/math.ts --
export function add(a: number, b: number) {
  return a + b;
}
-- src/lib/vec.ts --
export class Vector {
  constructor(public x: number, public y: number) {}
}
-- src/app.test.ts --
import { main } from "./app";
import { add } from "@/lib/math";
function run() {
  main();
  add(1, 1);
}
-- web/page.tsx --
import { shared } from "@shared/fmt";
import { Missing } from "@shared/none";
export function Page() {
  return <div>{shared()}</div>;
}
-- shared/fmt.ts --
export function shared() {
  return "s";
}
-- js/server.js --
const fmt = require("./utils/fmt");
const { parse } = require("utils/fmt");
const { unknown } = require("./utils/unknown");
module.exports = function serve() {};
function handle(req) {
  return fmt.format(parse(req));
}
-- js/utils/fmt.js --
function format(x) {
  return String(x);
}
function parse(x) {
  return x;
}
module.exports = { format, parse };
`
