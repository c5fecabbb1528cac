//go:build conformance

package site

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// realRepoPairs are the real version pairs TestDriftRealRepo replays.
var realRepoPairs = []struct {
	name     string
	old, new moduleVersion
}{
	// BurntSushi/toml v1.3.2 → v1.6.0 deletes files (decode_go116.go and
	// its test), removes symbols, moves and rewrites most of the rest, and
	// leaves a few files (internal/tz.go, _example/example.go) untouched.
	{"toml", moduleVersion{"github.com/BurntSushi/toml", "v1.3.2"}, moduleVersion{"github.com/BurntSushi/toml", "v1.6.0"}},
	// Compilable Go can only define one name twice in a file as init, and
	// neither toml nor goldmark ever gains a second init in a file. The
	// go-yaml/yaml repository does: its v2 branch (gopkg.in/yaml.v2) has
	// one init in resolve.go, its v3 branch (gopkg.in/yaml.v3) two, so
	// resolve.go@init becomes ambiguous.
	{"yaml", moduleVersion{"gopkg.in/yaml.v2", "v2.3.0"}, moduleVersion{"gopkg.in/yaml.v3", "v3.0.1"}},
	{"goldmark", moduleVersion{"github.com/yuin/goldmark", "v1.5.0"}, moduleVersion{"github.com/yuin/goldmark", "v1.8.7"}},
}

type moduleVersion struct{ Path, Version string }

// TestDriftRealRepo captures an anchor for every symbol and every file of
// a real module version, replaces the code with a later real version, and
// checks every verdict against an oracle built only on go/parser and
// go/printer. The module proxy is part of the CI contract: a failed
// download fails the test.
func TestDriftRealRepo(t *testing.T) {
	total := map[string]int{}
	for _, pr := range realRepoPairs {
		t.Run(pr.name, func(t *testing.T) {
			for k, n := range testDriftPair(t, pr.old, pr.new) {
				total[k] += n
			}
		})
	}
	// The pairs were chosen to show every outcome; a test that only ever
	// sees "linked" (or only "stale") proves nothing.
	for _, k := range []string{
		"file linked/-", "file linked/- reformatted", "file stale/content_changed", "file unknown/target_missing",
		"symbol linked/-", "symbol linked/- moved", "symbol linked/- reformatted", "symbol linked/- moved+reformatted",
		"symbol stale/content_changed", "symbol stale/symbol_not_found", "symbol unknown/target_missing", "symbol unknown/ambiguous",
	} {
		if total[k] == 0 {
			t.Errorf("no target ended %s: the version pairs no longer cover it", k)
		}
	}
}

// testDriftPair checks every anchor of oldMod against newMod and returns
// the number of targets per kind, state/reason and flags.
func testDriftPair(t *testing.T, oldMod, newMod moduleVersion) map[string]int {
	oldDir, newDir := downloadModule(t, oldMod), downloadModule(t, newMod)
	oldFiles, newFiles := readGoFiles(t, oldDir), readGoFiles(t, newDir)
	dir := t.TempDir()

	// 1. The old code and one claim per symbol and per file.
	var targets []string
	for _, name := range slices.Sorted(maps.Keys(oldFiles)) {
		f, err := codeanchors.Default.Language(name).Extract(name, oldFiles[name])
		if err != nil {
			t.Fatalf("ExtractGo(%s %s): %v", oldMod.Version, name, err)
		}
		targets = append(targets, name)
		for _, s := range f.Symbols {
			targets = append(targets, name+"@"+s.Name)
		}
	}
	writeGoFiles(t, dir, oldFiles)
	writeClaimPages(t, dir, targets)
	p, err := Load(dir)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	res, err := p.Capture(CaptureOptions{By: "test"}, io.Discard)
	p.Close()
	if err != nil {
		t.Fatalf("Capture: %v", err)
	}
	if len(res.Failed) > 0 || len(res.Captured) != len(targets) {
		t.Fatalf("Capture: %d of %d captured, failed: %v", len(res.Captured), len(targets), res.Failed)
	}

	// 2. The new code, with the old files really gone.
	for name := range oldFiles {
		must(t, os.Remove(filepath.Join(dir, filepath.FromSlash(name))))
	}
	writeGoFiles(t, dir, newFiles)
	p, err = Load(dir)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	start := time.Now()
	rep, err := p.Check()
	checkTime := time.Since(start)
	p.Close()
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	if len(rep.Targets) != len(targets) {
		t.Fatalf("Check: %d targets, want %d", len(rep.Targets), len(targets))
	}

	// 3. The oracle.
	oldIdx, newIdx := map[string]*oracleFile{}, map[string]*oracleFile{}
	for name, src := range oldFiles {
		oldIdx[name] = indexOracle(t, name, src)
		checkOracleNaming(t, name, src, oldIdx[name])
	}
	for name, src := range newFiles {
		newIdx[name] = indexOracle(t, name, src)
	}
	var bad []string
	counts := map[string]int{}
	for _, ts := range rep.Targets {
		v := ts.Verdict
		kind := "file "
		if ts.Target.IsSymbol() {
			kind = "symbol "
		}
		key := kind + string(v.State) + "/" + cmp.Or(string(v.Reason), "-")
		counts[key]++
		switch {
		case v.Moved && v.Reformatted:
			counts[key+" moved+reformatted"]++
		case v.Moved:
			counts[key+" moved"]++
		case v.Reformatted:
			counts[key+" reformatted"]++
		}
		var want oracleVerdict
		if ts.Target.IsSymbol() {
			want = expectSymbol(t, ts.Target, oldIdx[ts.Target.Path], newIdx[ts.Target.Path])
		} else {
			want = expectFile(oldIdx[ts.Target.Path], newIdx[ts.Target.Path])
		}
		if want.layoutOnly {
			counts["oracle: layout-only change"]++
		}
		if !want.matches(v) {
			bad = append(bad, fmt.Sprintf("%s: want %s, got %s", ts.Target, want, describe(v)))
		}
	}

	var table strings.Builder
	fmt.Fprintf(&table, "%s@%s → %s@%s: %d targets (%d files), Check %v\n",
		oldMod.Path, oldMod.Version, newMod.Path, newMod.Version, len(rep.Targets), len(oldFiles), checkTime.Round(time.Millisecond))
	fmt.Fprintf(&table, "  (a row with moved/reformatted counts a part of the row above it)\n")
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		fmt.Fprintf(&table, "  %-40s %5d\n", k, counts[k])
	}
	t.Logf("summary\n%s", table.String())
	if len(bad) > 0 {
		t.Errorf("%d verdicts disagree with the go/printer oracle:\n%s", len(bad), strings.Join(bad, "\n"))
	}
	return counts
}

// downloadModule fetches a module version through the module proxy with
// "go mod download" and returns its folder in the module cache. It runs
// outside any module, in the default module cache, so a second run is
// answered from the cache.
func downloadModule(t *testing.T, m moduleVersion) string {
	t.Helper()
	cache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOMODCACHE: %v", err)
	}
	cmd := exec.Command("go", "mod", "download", "-json", m.Path+"@"+m.Version)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOMODCACHE="+strings.TrimSpace(string(cache)))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil || runErr != nil || info.Error != "" || info.Dir == "" {
		t.Fatalf("go mod download %s@%s: %v %s %s (json: %v)", m.Path, m.Version, runErr, info.Error, stderr.String(), err)
	}
	return info.Dir
}

// readGoFiles reads the .go files of a module folder, testdata excluded,
// keyed by slash-separated relative path.
func readGoFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return fs.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(name, ".go") {
			return nil
		}
		rel, err := filepath.Rel(dir, name)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(name)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("%s: no Go files", dir)
	}
	return files
}

// writeGoFiles writes copies of files under dir. The module cache is
// read-only, so the copies get mode 0644 of their own.
func writeGoFiles(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for name, data := range files {
		dst := filepath.Join(dir, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(dst), 0o755))
		must(t, os.WriteFile(dst, data, 0o644))
	}
}

// writeClaimPages writes content pages of at most 200 claims, one claim
// paragraph per target.
func writeClaimPages(t *testing.T, dir string, targets []string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Join(dir, "content"), 0o755))
	for page, chunk := range slices.Collect(slices.Chunk(targets, 200)) {
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntitle: Anchors %d\n---\n\n", page)
		for i, target := range chunk {
			fmt.Fprintf(&b, "Anchored claim %d ([code](code:%s)).\n\n", page*200+i, target)
		}
		must(t, os.WriteFile(filepath.Join(dir, "content", fmt.Sprintf("anchors%03d.md", page)), []byte(b.String()), 0o644))
	}
}

// oracleFile is one Go file as the oracle sees it: go/parser without
// comments and go/printer, nothing from codeanchors. Two decls are the
// same code when their prints after [flattenPositions] are equal; the same
// text when their raw lines are. Where this oracle and tracewiki could
// legitimately part:
//
//   - Layout. format.Node of a parsed decl keeps the source's line breaks,
//     so it differs for a gofmt-clean re-wrap that tracewiki (rightly, by
//     SPEC 1.3) calls reformatted. Flattening positions removes that; the
//     summary counts these cases as "oracle: layout-only change" (7 in
//     toml, 2 in yaml, 22 in goldmark, all agreeing with tracewiki).
//   - Import order. format.Node sorts a whole file's imports; the token
//     hash sees the order. The file print therefore prints the decls, not
//     the *ast.File, and a reordering is a content change on both sides.
//   - //line directives. Lines are the file's own on both sides
//     (PositionFor(p, false)), as codeanchors documents.
type oracleFile struct {
	lines []string // CRLF→LF, trailing blanks trimmed
	decls map[string][]oracleDecl
	// printed is the package clause and the flattened print of every decl;
	// layout is the same print before flattening.
	printed, layout string
	err             error // the file does not parse
}

type oracleDecl struct {
	start, end int // the file's own lines, //line directives ignored
	// layout is format.Node of the decl as parsed; printed is the same
	// after [flattenPositions], the oracle's notion of "same code".
	layout, printed string
}

// indexOracle parses src and prints each declaration. A func is printed
// as its FuncDecl; a type spec as its GenDecl when it stands alone
// (type T ...), whose range starts at the type keyword, and as the bare
// spec inside a group, whose range starts at its name: each print covers
// the tokens of the range tracewiki hashes.
func indexOracle(t *testing.T, name string, src []byte) *oracleFile {
	t.Helper()
	o := &oracleFile{decls: map[string][]oracleDecl{}}
	for l := range strings.SplitSeq(strings.TrimSuffix(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n"), "\n") {
		o.lines = append(o.lines, strings.TrimRight(l, " \t"))
	}
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		o.err = err
		return o
	}
	show := func(n any) string {
		var b bytes.Buffer
		if err := format.Node(&b, fset, n); err != nil {
			t.Fatalf("%s: format.Node: %v", name, err)
		}
		return b.String()
	}
	line := func(p token.Pos) int { return fset.PositionFor(p, false).Line }
	type named struct {
		sym  string
		node ast.Node
	}
	var nodes []named
	add := func(sym string, from, to token.Pos, n ast.Node) {
		o.decls[sym] = append(o.decls[sym], oracleDecl{start: line(from), end: line(to - 1), layout: show(n)})
		nodes = append(nodes, named{sym, n})
	}
	for _, d := range af.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name == "_" {
				continue
			}
			sym := d.Name.Name
			if d.Recv != nil {
				recv := oracleRecv(d.Recv)
				if recv == "" || recv == "_" {
					continue
				}
				sym = recv + "." + sym
			}
			add(sym, d.Pos(), d.End(), d)
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, s := range d.Specs {
				ts := s.(*ast.TypeSpec)
				if ts.Name.Name == "_" {
					continue
				}
				if d.Lparen.IsValid() {
					add(ts.Name.Name, ts.Pos(), ts.End(), ts)
				} else {
					add(ts.Name.Name, d.Pos(), d.End(), d)
				}
			}
		}
	}

	// Not format.Node(af): it sorts the imports of a file, a change
	// tracewiki's token hash rightly sees.
	o.layout = "package " + af.Name.Name + "\n\n" + show(af.Decls)
	flattenPositions(reflect.ValueOf(af), af.FileStart, map[uintptr]bool{})
	seen := map[string]int{}
	for _, n := range nodes {
		o.decls[n.sym][seen[n.sym]].printed = show(n.node)
		seen[n.sym]++
	}
	o.printed = "package " + af.Name.Name + "\n\n" + show(af.Decls)
	return o
}

var posType = reflect.TypeFor[token.Pos]()

// flattenPositions moves every valid position in the AST at v to p, so
// that go/printer lays it out from the tree alone. format.Node keeps the
// source's line breaks (inside composite literals, argument lists, between
// statements and declarations, blank lines), so a bare print of the parsed
// decl sees a gofmt-clean re-wrap (toml v1.6.0 put NewEncoder's
// &Encoder{...} on one line) as a change, where tracewiki's token hash
// rightly does not. Positions stay valid rather than becoming NoPos
// because some carry syntax: GenDecl.Lparen (a group), CallExpr.Ellipsis
// (f(xs...)), TypeSpec.Assign (an alias).
func flattenPositions(v reflect.Value, p token.Pos, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		flattenPositions(v.Elem(), p, seen)
	case reflect.Interface:
		if !v.IsNil() {
			flattenPositions(v.Elem(), p, seen)
		}
	case reflect.Slice:
		for i := range v.Len() {
			flattenPositions(v.Index(i), p, seen)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Field(i)
			switch {
			case f.Type() == posType:
				if f.Int() != int64(token.NoPos) && f.CanSet() {
					f.SetInt(int64(p))
				}
			case f.CanSet():
				flattenPositions(f, p, seen)
			}
		}
	}
}

// oracleRecv is the receiver's base type name: T for T, *T, T[P], *T[K, V].
func oracleRecv(recv *ast.FieldList) string {
	if len(recv.List) == 0 {
		return ""
	}
	x := recv.List[0].Type
	for {
		switch y := x.(type) {
		case *ast.Ident:
			return y.Name
		case *ast.StarExpr:
			x = y.X
		case *ast.ParenExpr:
			x = y.X
		case *ast.IndexExpr:
			x = y.X
		case *ast.IndexListExpr:
			x = y.X
		default:
			return ""
		}
	}
}

// checkOracleNaming fails when the oracle and ExtractGo disagree on the
// names (and ranges) of a file's symbols, so that the verdicts are
// compared on the same targets.
func checkOracleNaming(t *testing.T, name string, src []byte, o *oracleFile) {
	t.Helper()
	f, err := codeanchors.Default.Language(name).Extract(name, src)
	if err != nil || o.err != nil {
		t.Fatalf("%s: ExtractGo: %v; go/parser: %v", name, err, o.err)
	}
	var unique, dup []string
	for sym, ds := range o.decls {
		if len(ds) == 1 {
			unique = append(unique, sym)
		} else {
			dup = append(dup, sym)
		}
	}
	slices.Sort(unique)
	slices.Sort(dup)
	var got []string
	for _, s := range f.Symbols {
		got = append(got, s.Name)
		if d := o.decls[s.Name]; len(d) == 1 && (d[0].start != s.Start || d[0].end != s.End) {
			t.Errorf("%s@%s: ExtractGo lines %d-%d, oracle %d-%d", name, s.Name, s.Start, s.End, d[0].start, d[0].end)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, unique) || !slices.Equal(f.Ambiguous, dup) {
		t.Errorf("%s: ExtractGo symbols %v ambiguous %v; oracle %v ambiguous %v", name, got, f.Ambiguous, unique, dup)
	}
}

// oracleVerdict is the expected verdict of one target.
type oracleVerdict struct {
	state              codeanchors.State
	reason             codeanchors.Reason
	moved, reformatted bool
	start, end         int // checked when non-zero
	// layoutOnly: the decl's format.Node print changed but its flattened
	// print did not (see [flattenPositions]); only counted.
	layoutOnly bool
}

func (w oracleVerdict) matches(v codeanchors.Verdict) bool {
	return v.State == w.state && v.Reason == w.reason && v.Moved == w.moved && v.Reformatted == w.reformatted &&
		(w.start == 0 || v.Start == w.start && v.End == w.end)
}

func (w oracleVerdict) String() string {
	return describe(codeanchors.Verdict{State: w.state, Reason: w.reason, Moved: w.moved, Reformatted: w.reformatted, Start: w.start, End: w.end})
}

func describe(v codeanchors.Verdict) string {
	s := string(v.State)
	if v.Reason != "" {
		s += "/" + string(v.Reason)
	}
	if v.Moved {
		s += " moved"
	}
	if v.Reformatted {
		s += " reformatted"
	}
	if v.Start > 0 {
		s += fmt.Sprintf(" L%d-L%d", v.Start, v.End)
	}
	return s
}

// expectSymbol is the oracle's verdict for a PATH@SYMBOL target.
func expectSymbol(t *testing.T, target claims.Target, oldF, newF *oracleFile) oracleVerdict {
	olds := oldF.decls[target.Symbol]
	if len(olds) != 1 {
		t.Fatalf("%s: the oracle finds %d declarations in the old file", target, len(olds))
	}
	old := olds[0]
	switch {
	case newF == nil:
		return oracleVerdict{state: codeanchors.Unknown, reason: codeanchors.TargetMissing}
	case newF.err != nil:
		return oracleVerdict{state: codeanchors.Stale, reason: codeanchors.SymbolNotFound}
	}
	news := newF.decls[target.Symbol]
	switch len(news) {
	case 0:
		return oracleVerdict{state: codeanchors.Stale, reason: codeanchors.SymbolNotFound}
	case 1:
	default:
		return oracleVerdict{state: codeanchors.Unknown, reason: codeanchors.Ambiguous}
	}
	cur := news[0]
	w := oracleVerdict{start: cur.start, end: cur.end, layoutOnly: cur.layout != old.layout && cur.printed == old.printed}
	switch {
	case cur.printed != old.printed:
		w.state, w.reason = codeanchors.Stale, codeanchors.ContentChanged
	case slices.Equal(oldF.lines[old.start-1:old.end], newF.lines[cur.start-1:cur.end]):
		w.state, w.moved = codeanchors.Linked, cur.start != old.start || cur.end != old.end
	default:
		w.state, w.reformatted, w.moved = codeanchors.Linked, true, cur.start != old.start
	}
	return w
}

// expectFile is the oracle's verdict for a whole-file target: linked when
// its lines are equal, reformatted when only its canonical print is,
// content changed otherwise.
func expectFile(oldF, newF *oracleFile) oracleVerdict {
	switch {
	case newF == nil:
		return oracleVerdict{state: codeanchors.Unknown, reason: codeanchors.TargetMissing}
	case slices.Equal(oldF.lines, newF.lines):
		return oracleVerdict{state: codeanchors.Linked, start: 1, end: len(newF.lines)}
	case newF.err == nil && newF.printed == oldF.printed:
		return oracleVerdict{state: codeanchors.Linked, reformatted: true, start: 1, end: len(newF.lines),
			layoutOnly: newF.layout != oldF.layout}
	}
	return oracleVerdict{state: codeanchors.Stale, reason: codeanchors.ContentChanged, start: 1, end: len(newF.lines)}
}
