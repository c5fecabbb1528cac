package javascript

import (
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

func TestJSResolve(t *testing.T) {
	files := []string{
		"a.ts", "b.tsx", "c.d.ts", "d.js", "e.jsx", "f.mjs", "g.cjs", "h.mts", "i.cts",
		"dir/index.ts", "jsdir/index.js", "both.ts", "both.js", "emit.ts", "emit2.mts", "user.service.ts",
	}
	l := newJSLinker(nil, nil)
	l.files = map[string]*lang.File{}
	for _, f := range files {
		l.files[f] = &lang.File{Path: f}
	}
	for _, tt := range []struct {
		spec, want string
		unresolved bool
	}{
		{"./a", "a.ts", false},
		{"./b", "b.tsx", false},
		{"./c", "c.d.ts", false},
		{"./d", "d.js", false},
		{"./e", "e.jsx", false},
		{"./f", "f.mjs", false},
		{"./g", "g.cjs", false},
		{"./h", "h.mts", false},
		{"./i", "i.cts", false},
		{"./dir", "dir/index.ts", false},
		{"./jsdir", "jsdir/index.js", false},
		{"./jsdir/", "jsdir/index.js", false},
		{"./both", "both.ts", false},        // .ts before .js
		{"./both.js", "both.js", false},     // the file written
		{"./emit.js", "emit.ts", false},     // TypeScript's .js for .ts
		{"./emit2.mjs", "emit2.mts", false}, // and .mjs for .mts
		{"./user.service", "user.service.ts", false},
		{"/a", "a.ts", false},
		{"./a.ts?raw", "a.ts", false},
		{"./nope", "", true},
		{"./nope.js", "", true},
		{"../outside", "", true},
		{"./logo.svg", "", false},
		{"./data.json", "", false},
		{"react", "", false},
		{"@scope/pkg/sub", "", false},
		{"node:path", "", false},
		{"https://esm.sh/x", "", false},
	} {
		got := l.resolve(".", tt.spec)
		if got.file != tt.want || got.unresolved != tt.unresolved {
			t.Errorf("resolve(%q) = %+v, want file %q, unresolved %t", tt.spec, got, tt.want, tt.unresolved)
		}
	}
}

func TestJSONC(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"{\"a\": 1, // one\n\t}", `{"a": 1  }`},
		{`{"a": "// not a comment, /* nor this */", "b": [1, 2,],}`, `{"a": "// not a comment, /* nor this */", "b": [1, 2]}`},
		{`{/* c */"a":/**/1}`, `{ "a": 1}`},
		{`{"a": "quote \" inside, /* */"}`, `{"a": "quote \" inside, /* */"}`},
		{"\uFEFF{}", "{}"},
		{`{"a": 1 /* unterminated`, `{"a": 1  `},
	} {
		if got := string(jsoncToJSON([]byte(tt.in))); got != tt.want {
			t.Errorf("jsoncToJSON(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseJSBinding(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want jsBinding
	}{
		{"", jsBinding{}},
		{"x", jsBinding{local: "x", imported: "default"}},
		{"* as ns", jsBinding{local: "ns", imported: "*"}},
		{"{a}", jsBinding{local: "a", imported: "a"}},
		{"{a as b}", jsBinding{local: "b", imported: "a"}},
		{"{default as B}", jsBinding{local: "B", imported: "default"}},
		{"export *", jsBinding{imported: "*", reexport: true}},
		{"export * as ns", jsBinding{local: "ns", imported: "*", reexport: true}},
		{"export {a as b}", jsBinding{local: "b", imported: "a", reexport: true}},
	} {
		if got := parseJSBinding(tt.in); got != tt.want {
			t.Errorf("parseJSBinding(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}
