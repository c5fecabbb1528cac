package javascript

import (
	"bytes"
	"encoding/json"
	"path"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// jsLinker resolves the imports of JavaScript and TypeScript files (the
// two import each other) to workspace files, and their calls by name
// through those imports.
//
// A specifier resolves as TypeScript's bundler resolution does, without
// node_modules:
//
//   - A relative specifier ("./a", "../lib/b.js") names a path relative to
//     the importing file, and a specifier starting with / one relative to
//     the workspace root.
//   - A bare specifier ("@/lib/a", "utils/b") goes through the nearest
//     tsconfig.json or jsconfig.json above the importing file (tsconfig.json
//     first): the first compilerOptions.paths pattern that matches it (the
//     exact pattern, or the * pattern with the longest prefix), each of its
//     substitutions in order, relative to compilerOptions.baseUrl or else to
//     the config that declares paths; then baseUrl itself. A config's local
//     "extends" (a relative path to another config in IndexInput.Project,
//     or a list of them) is read one level deep: its compilerOptions apply
//     where the config does not set them. Configs may hold comments and
//     trailing commas; one that still does not parse is ignored.
//   - A path is a file when a workspace file has it exactly; else, for a
//     .js, .jsx, .mjs or .cjs path, the TypeScript source written for it
//     (a.ts, a.tsx, a.d.ts for a.js; a.mts for a.mjs; a.cts for a.cjs);
//     else the path with .ts, .tsx, .d.ts, .js, .jsx, .mjs, .cjs, .mts or
//     .cts added; else its index file with one of those extensions. A
//     ?query or #fragment is ignored.
//
// A relative, rooted or mapped specifier that resolves to no file is
// unresolved, unless it names an asset by its extension (.css, .json, .svg,
// .vue and the like), which is not code. A bare specifier that no paths
// pattern maps is third-party ("react", "node:fs"), and so is one that only
// the catch-all "*" pattern or baseUrl would map.
type jsLinker struct {
	files   map[string]*lang.File
	configs map[string]*jsConfig // by folder
	project map[string][]byte
	cache   map[string]jsTarget // folder + "\x00" + specifier
	exports map[string]*jsExports
}

// jsTarget is where a specifier resolves: a file, or unresolved, or
// neither (third-party, asset).
type jsTarget struct {
	file       string
	unresolved bool
}

// jsConfig is the resolution part of one tsconfig.json or jsconfig.json.
type jsConfig struct {
	baseURL  string // workspace path, "" when not set
	pathsDir string // the folder paths substitutions are relative to
	paths    []jsPathRule
}

type jsPathRule struct {
	prefix, suffix string
	star           bool
	targets        []string
}

// jsCompilerOptions is the part of a config's JSON that matters here.
type jsCompilerOptions struct {
	BaseURL *string             `json:"baseUrl"`
	Paths   map[string][]string `json:"paths"`
}

type jsConfigFile struct {
	Extends         json.RawMessage   `json:"extends"`
	CompilerOptions jsCompilerOptions `json:"compilerOptions"`
}

func newJSLinker(files []*lang.File, project map[string][]byte) *jsLinker {
	l := &jsLinker{files: map[string]*lang.File{}, configs: map[string]*jsConfig{}, project: project,
		cache: map[string]jsTarget{}, exports: map[string]*jsExports{}}
	for _, f := range files {
		l.files[f.Path] = f
	}
	// tsconfig.json wins over jsconfig.json in one folder.
	for _, name := range []string{"jsconfig.json", "tsconfig.json"} {
		for p, data := range project {
			if path.Base(p) != name {
				continue
			}
			if c, ok := l.parseConfig(p, data); ok {
				l.configs[path.Dir(p)] = c
			}
		}
	}
	return l
}

// parseConfig reads a config and the configs it extends.
func (l *jsLinker) parseConfig(p string, data []byte) (*jsConfig, bool) {
	var cf jsConfigFile
	if json.Unmarshal(jsoncToJSON(data), &cf) != nil {
		return nil, false
	}
	dir := path.Dir(p)
	c := &jsConfig{}
	apply := func(o jsCompilerOptions, dir string) {
		if o.BaseURL != nil {
			c.baseURL = path.Join(dir, *o.BaseURL)
		}
		if o.Paths != nil {
			c.paths, c.pathsDir = jsPathRules(o.Paths), dir
		}
	}
	var extends []string
	var one string
	if json.Unmarshal(cf.Extends, &one) == nil {
		extends = []string{one}
	} else {
		_ = json.Unmarshal(cf.Extends, &extends)
	}
	for _, e := range extends {
		if !strings.HasPrefix(e, "./") && !strings.HasPrefix(e, "../") {
			continue // a package's config: outside the workspace
		}
		bp := path.Join(dir, e)
		if path.Ext(bp) != ".json" {
			bp += ".json"
		}
		var base jsConfigFile
		if data, ok := l.project[bp]; ok && json.Unmarshal(jsoncToJSON(data), &base) == nil {
			apply(base.CompilerOptions, path.Dir(bp))
		}
	}
	apply(cf.CompilerOptions, dir)
	if c.baseURL != "" {
		c.pathsDir = c.baseURL
	}
	return c, true
}

// jsPathRules sorts paths patterns: exact ones first, then by longest
// prefix before the *, as TypeScript matches them.
func jsPathRules(paths map[string][]string) []jsPathRule {
	var rules []jsPathRule
	for pat, targets := range paths {
		r := jsPathRule{prefix: pat, targets: targets}
		if i := strings.IndexByte(pat, '*'); i >= 0 {
			r.prefix, r.suffix, r.star = pat[:i], pat[i+1:], true
		}
		rules = append(rules, r)
	}
	slices.SortFunc(rules, func(a, b jsPathRule) int {
		if a.star != b.star {
			if a.star {
				return 1
			}
			return -1
		}
		if len(a.prefix) != len(b.prefix) {
			return len(b.prefix) - len(a.prefix)
		}
		return strings.Compare(a.prefix+"*"+a.suffix, b.prefix+"*"+b.suffix)
	})
	return rules
}

// jsoncToJSON removes the comments and trailing commas that tsconfig.json
// allows, keeping strings intact.
func jsoncToJSON(data []byte) []byte {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	out := make([]byte, 0, len(data))
	// skip returns the index of the next byte that is not space or comment.
	skip := func(i int) int {
		for i < len(data) {
			switch {
			case data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r':
				i++
			case bytes.HasPrefix(data[i:], []byte("//")):
				for i < len(data) && data[i] != '\n' {
					i++
				}
			case bytes.HasPrefix(data[i:], []byte("/*")):
				end := bytes.Index(data[i+2:], []byte("*/"))
				if end < 0 {
					return len(data)
				}
				i += end + 4
			default:
				return i
			}
		}
		return i
	}
	for i := 0; i < len(data); {
		switch c := data[i]; {
		case c == '"':
			j := i + 1
			for j < len(data) && data[j] != '"' {
				if data[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(data))
			out = append(out, data[i:j]...)
			i = j
		case c == '/' && i+1 < len(data) && (data[i+1] == '/' || data[i+1] == '*'):
			out = append(out, ' ')
			i = skip(i)
		case c == ',':
			if n := skip(i + 1); n < len(data) && (data[n] == '}' || data[n] == ']') {
				i++
				continue
			}
			out = append(out, c)
			i++
		default:
			out = append(out, c)
			i++
		}
	}
	return out
}

// config returns the nearest config at or above dir, or nil.
func (l *jsLinker) config(dir string) *jsConfig {
	for {
		if c, ok := l.configs[dir]; ok {
			return c
		}
		if dir == "." || dir == "/" || dir == "" {
			return nil
		}
		dir = path.Dir(dir)
	}
}

// resolve returns where spec, imported by a file in dir, resolves.
func (l *jsLinker) resolve(dir, spec string) jsTarget {
	key := dir + "\x00" + spec
	if t, ok := l.cache[key]; ok {
		return t
	}
	t := l.resolveUncached(dir, spec)
	l.cache[key] = t
	return t
}

func (l *jsLinker) resolveUncached(dir, spec string) jsTarget {
	if i := strings.IndexAny(spec, "?#"); i > 0 {
		spec = spec[:i]
	}
	switch {
	case spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../"):
		return l.resolvePath(path.Join(dir, spec))
	case strings.HasPrefix(spec, "/"):
		return l.resolvePath(path.Clean(strings.TrimLeft(spec, "/")))
	case strings.Contains(spec, ":"):
		return jsTarget{} // node:fs, https://..., virtual:...
	}
	c := l.config(dir)
	if c == nil {
		return jsTarget{}
	}
	for _, r := range c.paths {
		var star string
		switch {
		case !r.star && spec == r.prefix:
		case r.star && len(spec) >= len(r.prefix)+len(r.suffix) && strings.HasPrefix(spec, r.prefix) && strings.HasSuffix(spec, r.suffix):
			star = spec[len(r.prefix) : len(spec)-len(r.suffix)]
		default:
			continue
		}
		for _, target := range r.targets {
			t := l.resolvePath(path.Join(c.pathsDir, strings.Replace(target, "*", star, 1)))
			if t.file != "" {
				return t
			}
		}
		if r.star && r.prefix == "" && r.suffix == "" {
			break // the catch-all pattern: a package falls through it
		}
		return l.resolvePath(path.Join(c.pathsDir, strings.Replace(r.targets[0], "*", star, 1)))
	}
	if c.baseURL != "" {
		if t := l.resolvePath(path.Join(c.baseURL, spec)); t.file != "" {
			return t
		}
	}
	return jsTarget{}
}

// jsExtensions are tried, in order, on a path without one.
var jsExtensions = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}

// jsSourceFor maps an emitted extension to the TypeScript sources written
// for it.
var jsSourceFor = map[string][]string{
	".js": {".ts", ".tsx", ".d.ts"}, ".jsx": {".tsx"}, ".mjs": {".mts", ".d.mts"}, ".cjs": {".cts", ".d.cts"},
}

// jsAssetExts are extensions of imports that are not code.
var jsAssetExts = map[string]bool{
	".css": true, ".scss": true, ".sass": true, ".less": true, ".styl": true, ".pcss": true,
	".json": true, ".json5": true, ".svg": true, ".png": true, ".jpg": true, ".jpeg": true,
	".gif": true, ".webp": true, ".avif": true, ".ico": true, ".bmp": true, ".woff": true,
	".woff2": true, ".ttf": true, ".otf": true, ".eot": true, ".mp3": true, ".mp4": true,
	".webm": true, ".wav": true, ".ogg": true, ".txt": true, ".md": true, ".mdx": true,
	".html": true, ".htm": true, ".vue": true, ".svelte": true, ".astro": true, ".graphql": true,
	".gql": true, ".yaml": true, ".yml": true, ".toml": true, ".wasm": true, ".node": true,
	".glsl": true, ".frag": true, ".vert": true, ".csv": true, ".xml": true, ".pdf": true,
}

// resolvePath finds the workspace file a path stands for.
func (l *jsLinker) resolvePath(p string) jsTarget {
	if p == ".." || strings.HasPrefix(p, "../") {
		return jsTarget{unresolved: true} // outside the workspace
	}
	if _, ok := l.files[p]; ok {
		return jsTarget{file: p}
	}
	ext := strings.ToLower(path.Ext(p))
	for _, e := range jsSourceFor[ext] {
		if q := strings.TrimSuffix(p, path.Ext(p)) + e; l.files[q] != nil {
			return jsTarget{file: q}
		}
	}
	for _, e := range jsExtensions {
		if l.files[p+e] != nil {
			return jsTarget{file: p + e}
		}
	}
	for _, e := range jsExtensions {
		if q := path.Join(p, "index"+e); l.files[q] != nil {
			return jsTarget{file: q}
		}
	}
	return jsTarget{unresolved: !jsAssetExts[ext]}
}

// Imports returns the workspace files f imports, and its relative or
// mapped specifiers that resolve to no file.
func (l *jsLinker) Imports(f *lang.File) (files, unresolved []string) {
	seen := map[string]bool{}
	for _, spec := range f.Imports {
		if seen[spec] {
			continue
		}
		seen[spec] = true
		switch t := l.resolve(path.Dir(f.Path), spec); {
		case t.file != "":
			files = append(files, t.file)
		case t.unresolved:
			unresolved = append(unresolved, spec)
		}
	}
	return files, unresolved
}

// jsBinding is one parsed [File.ImportNames] entry (see Extract).
type jsBinding struct {
	local    string // the name bound in the importing file; "" for none
	imported string // the exported name: "default", "*" for a namespace, or a name
	reexport bool   // export ... from: local is the name exported
}

func parseJSBinding(b string) jsBinding {
	var out jsBinding
	if rest, ok := strings.CutPrefix(b, "export "); ok {
		out.reexport = true
		b = rest
	}
	switch {
	case b == "":
		return out
	case b == "*":
		out.imported = "*"
	case strings.HasPrefix(b, "* as "):
		out.imported, out.local = "*", strings.TrimPrefix(b, "* as ")
	case strings.HasPrefix(b, "{") && strings.HasSuffix(b, "}"):
		name, local, ok := strings.Cut(b[1:len(b)-1], " as ")
		if !ok {
			local = name
		}
		out.imported, out.local = name, local
	default:
		out.imported, out.local = "default", b
	}
	return out
}

// ResolveCall finds the definition call c of f refers to:
//
//   - f(): a function, class or const function of f's own namespace or an
//     enclosing one, else the import bound to f: the exported symbol of
//     that name (through re-exports) for a named import, the default
//     export for a default import.
//   - this.m() inside class C: C.m.
//   - ns.f(), ns bound by import * as ns or a default import or require:
//     the module's export f; C.m() with C a class of f: C.m.
//   - any other x.m(): the one method called m in f, if there is one.
func (l *jsLinker) ResolveCall(f *lang.File, c lang.Call) (lang.Ref, bool) {
	switch c.Qual {
	case "":
		for scope := c.From; ; {
			i := strings.LastIndexByte(scope, '.')
			if i < 0 {
				scope = ""
			} else {
				scope = scope[:i]
			}
			if s, ok, _ := f.Lookup(scope); !ok || s.Kind != lang.KindType { // not a class
				name := c.Name
				if scope != "" {
					name = scope + "." + c.Name
				}
				if s, ok, amb := f.Lookup(name); amb {
					return lang.Ref{}, false
				} else if ok && s.Kind != lang.KindMethod {
					return lang.Ref{Path: f.Path, Symbol: name}, true
				}
			}
			if scope == "" {
				break
			}
		}
		for i, b := range f.ImportNames {
			if jb := parseJSBinding(b); !jb.reexport && jb.local == c.Name && jb.imported != "*" {
				if t := l.resolve(path.Dir(f.Path), f.Imports[i]); t.file != "" {
					return l.export(t.file, jb.imported, 0)
				}
				return lang.Ref{}, false
			}
		}
		return lang.Ref{}, false
	case "this":
		i := strings.LastIndexByte(c.From, '.')
		if i < 0 {
			return lang.Ref{}, false
		}
		name := c.From[:i] + "." + c.Name
		if _, ok, _ := f.Lookup(name); ok {
			return lang.Ref{Path: f.Path, Symbol: name}, true
		}
		return lang.Ref{}, false
	case ".":
	default:
		for i, b := range f.ImportNames {
			if jb := parseJSBinding(b); !jb.reexport && jb.local == c.Qual {
				if t := l.resolve(path.Dir(f.Path), f.Imports[i]); t.file != "" && (jb.imported == "*" || jb.imported == "default") {
					return l.export(t.file, c.Name, 0)
				}
				return lang.Ref{}, false // a third-party module, or a named import
			}
		}
		if s, ok, _ := f.Lookup(c.Qual); ok && s.Kind == lang.KindType {
			if _, ok, _ := f.Lookup(c.Qual + "." + c.Name); ok {
				return lang.Ref{Path: f.Path, Symbol: c.Qual + "." + c.Name}, true
			}
		}
	}
	var found []lang.Ref
	for _, s := range f.Symbols {
		if s.Kind == lang.KindMethod && strings.HasSuffix(s.Name, "."+c.Name) {
			found = append(found, lang.Ref{Path: f.Path, Symbol: s.Name})
		}
	}
	if len(found) != 1 {
		return lang.Ref{}, false
	}
	return found[0], true
}

// maxReexportDepth bounds how many export ... from hops an export lookup
// follows.
const maxReexportDepth = 8

// export returns the symbol file exports as name ("default" for its
// default export), following re-exports.
func (l *jsLinker) export(file, name string, depth int) (lang.Ref, bool) {
	f := l.files[file]
	if f == nil || depth > maxReexportDepth {
		return lang.Ref{}, false
	}
	ex := l.exportsOf(f)
	local := name
	if n, ok := ex.renames[name]; ok {
		local = n
	}
	if local != "default" && !strings.Contains(local, ".") {
		if s, ok, amb := f.Lookup(local); amb {
			return lang.Ref{}, false
		} else if ok && s.Kind != lang.KindMethod {
			return lang.Ref{Path: file, Symbol: local}, true
		}
	}
	for i, b := range f.ImportNames {
		jb := parseJSBinding(b)
		if !jb.reexport {
			continue
		}
		switch {
		case jb.local == name && jb.imported != "*":
			if t := l.resolve(path.Dir(file), f.Imports[i]); t.file != "" {
				return l.export(t.file, jb.imported, depth+1)
			}
		case jb.imported == "*" && jb.local == "" && name != "default":
			if t := l.resolve(path.Dir(file), f.Imports[i]); t.file != "" {
				if r, ok := l.export(t.file, name, depth+1); ok {
					return r, true
				}
			}
		}
	}
	return lang.Ref{}, false
}

// jsExports is what a file's tokens say about its exports beyond its
// symbols: export {a as b} renames (b → a), and the name its default export
// binds (export default f, export default function f, export {f as default},
// module.exports = f), as the key "default".
type jsExports struct {
	renames map[string]string
}

func (l *jsLinker) exportsOf(f *lang.File) *jsExports {
	if ex, ok := l.exports[f.Path]; ok {
		return ex
	}
	ex := &jsExports{renames: map[string]string{}}
	t := f.Tokens
	text := func(i int) string {
		if i < len(t) {
			return t[i].Text
		}
		return ""
	}
	for i := 0; i < len(t); i++ {
		switch {
		case t[i].Text == "export" && text(i+1) == "default":
			j := i + 2
			if text(j) == "async" {
				j++
			}
			if text(j) == "abstract" {
				j++
			}
			if text(j) == "function" || text(j) == "class" {
				j++
				if text(j) == "*" {
					j++
				}
				if jsIdentifier(text(j)) {
					ex.renames["default"] = text(j)
				}
			} else if jsIdentifier(text(j)) && (text(j+1) == ";" || text(j+1) == "") {
				ex.renames["default"] = text(j)
			}
		case t[i].Text == "module" && text(i+1) == "." && text(i+2) == "exports" && text(i+3) == "=" &&
			jsIdentifier(text(i+4)) && (text(i+5) == ";" || text(i+5) == ""):
			ex.renames["default"] = text(i + 4)
		case t[i].Text == "export" && text(i+1) == "{":
			j := i + 2
			var pairs [][2]string
			for j < len(t) && t[j].Text != "}" {
				name := t[j].Text
				if name == "type" && text(j+1) != "," && text(j+1) != "}" && text(j+1) != "as" {
					j++
					name = t[j].Text
				}
				exported := name
				if text(j+1) == "as" {
					exported = text(j + 2)
					j += 2
				}
				pairs = append(pairs, [2]string{exported, name})
				j++
				if text(j) == "," {
					j++
				}
			}
			if text(j+1) == "from" {
				continue // a re-export: in ImportNames
			}
			for _, p := range pairs {
				if p[0] != p[1] {
					ex.renames[p[0]] = p[1]
				}
			}
		}
	}
	l.exports[f.Path] = ex
	return ex
}
