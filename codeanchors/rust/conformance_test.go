package rust

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Debian's Rust toolchain and its packaged crates build the reference;
// test.sh installs them (packages rustc, cargo, librust-syn-dev,
// librust-proc-macro2-dev). The paths are absolute so that a rustup
// toolchain earlier in PATH is not used instead.
const (
	debianCargo    = "/usr/bin/cargo"
	debianRustc    = "/usr/bin/rustc"
	debianRegistry = "/usr/share/cargo/registry"
	// rustSrc is the standard library's source, Debian package rust-src:
	// the real-code corpus of the conformance test.
	rustSrc = "/usr/lib/rustlib/src/rust/library"
)

// synref builds testdata/synref (a small program on the syn parser) once
// into the user cache folder, keyed by its sources' hash, and returns the
// binary's path.
func synref(t *testing.T) string {
	t.Helper()
	h := sha256.New()
	var files []string
	for _, name := range []string{"Cargo.toml", "src/main.rs"} {
		data, err := os.ReadFile(filepath.Join("testdata", "synref", name))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(data))
		h.Write(data)
		files = append(files, name)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "tracewiki-test-synref", hex.EncodeToString(h.Sum(nil))[:16])
	bin := filepath.Join(dir, "target", "release", "synref")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	for _, p := range []string{debianCargo, debianRustc, filepath.Join(debianRegistry, "syn-1.0.107")} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s is needed to build the syn reference (test.sh installs it): %v", p, err)
		}
	}
	for _, name := range files {
		data, _ := os.ReadFile(filepath.Join("testdata", "synref", name))
		dst := filepath.Join(dir, "src-tree", name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	home := filepath.Join(dir, "cargo-home")
	config := fmt.Sprintf("[source.crates-io]\nreplace-with = \"debian\"\n[source.debian]\ndirectory = %q\n[net]\noffline = true\n", debianRegistry)
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(debianCargo, "build", "--release", "--offline", "--quiet")
	cmd.Dir = filepath.Join(dir, "src-tree")
	cmd.Env = append(os.Environ(), "CARGO_HOME="+home, "RUSTC="+debianRustc, "CARGO_TARGET_DIR="+filepath.Join(dir, "target"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cargo build testdata/synref: %v\n%s", err, out)
	}
	return bin
}

// synResult is one line of synref's output.
type synResult struct {
	File      string   `json:"file"`
	Symbols   []string `json:"symbols"`
	Ambiguous []string `json:"ambiguous"`
	Error     string   `json:"error"`
}

// runSynref runs the reference on files, each "PATH\tREL".
func runSynref(t *testing.T, bin string, files []string) []synResult {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(strings.Join(files, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("synref: %v\n%s", err, stderr.Bytes())
	}
	var res []synResult
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r synResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("synref output %q: %v", sc.Bytes(), err)
		}
		res = append(res, r)
	}
	if len(res) != len(files) {
		t.Fatalf("synref: %d results for %d files", len(res), len(files))
	}
	return res
}

// agreement counts how often Extract agrees with the reference.
type agreement struct {
	files, skipped       int
	names, namesAgreed   int // names either side reports; those both report alike
	ranges, starts, ends int // names both report as symbols; same start; same end
	symbols              int // symbols the reference reports
	disagreements        []string
	errors               []string // files the reference parses and Extract refuses
}

func pct(n, d int) float64 {
	if d == 0 {
		return 100
	}
	return 100 * float64(n) / float64(d)
}

func (a *agreement) String() string {
	return fmt.Sprintf("%d files (%d skipped: syn reports a syntax error), %d reference symbols; names %d/%d = %.3f%%; start %d/%d = %.3f%%; end %d/%d = %.3f%%",
		a.files, a.skipped, a.symbols, a.namesAgreed, a.names, pct(a.namesAgreed, a.names),
		a.starts, a.ranges, pct(a.starts, a.ranges), a.ends, a.ranges, pct(a.ends, a.ranges))
}

// compare adds one file: what Extract found (or its error) against the
// reference.
func (a *agreement) compare(file string, f *lang.File, err error, ref synResult) {
	if ref.Error != "" {
		a.skipped++
		return
	}
	a.files++
	if err != nil {
		a.errors = append(a.errors, err.Error())
	}
	type entry struct {
		kind       string // "" for ambiguous
		start, end int
	}
	parse := func(syms, amb []string) map[string]entry {
		m := map[string]entry{}
		for _, s := range syms {
			var e entry
			var name string
			fmt.Sscanf(s, "%s %s %d-%d", &name, &e.kind, &e.start, &e.end)
			m[name] = e
		}
		for _, n := range amb {
			m[n] = entry{}
		}
		return m
	}
	var mine []string
	var amb []string
	if f != nil {
		for _, s := range f.Symbols {
			mine = append(mine, fmt.Sprintf("%s %s %d-%d", s.Name, s.Kind, s.Start, s.End))
		}
		amb = f.Ambiguous
	}
	got, want := parse(mine, amb), parse(ref.Symbols, ref.Ambiguous)
	a.symbols += len(ref.Symbols)
	var names []string
	for n := range got {
		names = append(names, n)
	}
	for n := range want {
		if _, ok := got[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		g, gok := got[n]
		w, wok := want[n]
		a.names++
		switch {
		case !gok:
			a.disagreements = append(a.disagreements, fmt.Sprintf("%s: %s %s %d-%d: missing", file, n, w.kind, w.start, w.end))
			continue
		case !wok:
			a.disagreements = append(a.disagreements, fmt.Sprintf("%s: %s %s %d-%d: unknown to syn", file, n, g.kind, g.start, g.end))
			continue
		case g.kind != w.kind:
			a.disagreements = append(a.disagreements, fmt.Sprintf("%s: %s: kind %q, syn %q (\"\" is ambiguous)", file, n, g.kind, w.kind))
			continue
		}
		a.namesAgreed++
		if g.kind == "" {
			continue
		}
		a.ranges++
		if g.start == w.start {
			a.starts++
		}
		if g.end == w.end {
			a.ends++
		}
		if g.start != w.start || g.end != w.end {
			a.disagreements = append(a.disagreements, fmt.Sprintf("%s: %s: lines %d-%d, syn %d-%d", file, n, g.start, g.end, w.start, w.end))
		}
	}
}

// TestConformance compares Extract with the syn parser (testdata/synref,
// built from Debian's packaged crates): the golden cases must agree
// exactly, and real code must reach 99.5% of names and 99% of each range
// end, over at least 1,000 symbols per corpus: the Rust standard library's
// sources (Debian rust-src) and the crates of Debian's cargo registry. Files syn cannot parse (the standard library uses unstable
// syntax here and there) are skipped and counted.
func TestConformance(t *testing.T) {
	bin := synref(t)

	cases := readCases(t)
	files := make([]string, len(cases))
	tmp := t.TempDir()
	for i, c := range cases {
		files[i] = filepath.Join(tmp, fmt.Sprintf("%d.rs", i)) + "\t" + c.Path
		if err := os.WriteFile(filepath.Join(tmp, fmt.Sprintf("%d.rs", i)), c.Src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	refs := runSynref(t, bin, files)
	var golden agreement
	for i, c := range cases {
		f, err := Extract(c.Path, c.Src)
		if err != nil && refs[i].Error == "" {
			t.Errorf("%s: Extract: %v; syn parses it", c.File, err)
		}
		if err == nil && refs[i].Error != "" {
			t.Errorf("%s: syn reports %s; Extract finds no error", c.File, refs[i].Error)
		}
		golden.compare(c.File, f, err, refs[i])
	}
	t.Logf("testdata/extract: %s", &golden)
	for _, d := range golden.disagreements {
		t.Error(d)
	}

	// The standard library (Debian rust-src) and the crates Debian packages
	// for cargo (syn, proc-macro2, quote, unicode-ident): third-party style.
	for _, root := range []string{rustSrc, debianRegistry} {
		real := corpusAgreement(t, bin, root)
		t.Logf("%s: %s", root, real)
		if real.symbols < 1000 {
			t.Errorf("%s: only %d reference symbols; want at least 1,000", root, real.symbols)
		}
		if p := pct(real.namesAgreed, real.names); p < 99.5 {
			t.Errorf("%s: names agree %.3f%%, want at least 99.5%%", root, p)
		}
		if p := pct(real.starts, real.ranges); p < 99 {
			t.Errorf("%s: range starts agree %.3f%%, want at least 99%%", root, p)
		}
		if p := pct(real.ends, real.ranges); p < 99 {
			t.Errorf("%s: range ends agree %.3f%%, want at least 99%%", root, p)
		}
	}
}

// corpusAgreement compares Extract with the reference on every .rs file
// below root, logging the first disagreements.
func corpusAgreement(t *testing.T, bin, root string) *agreement {
	t.Helper()
	if _, err := os.Stat(root); err != nil {
		t.Fatalf("the corpus %s is missing (test.sh installs its Debian package): %v", root, err)
	}
	var corpus []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".rs") {
			rel, _ := filepath.Rel(root, p)
			corpus = append(corpus, p+"\t"+filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(corpus)
	refs := runSynref(t, bin, corpus)
	real := &agreement{}
	for i, line := range corpus {
		p, rel, _ := strings.Cut(line, "\t")
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Extract(rel, src)
		real.compare(rel, f, err, refs[i])
	}
	for i, d := range real.disagreements {
		if i == 30 {
			t.Logf("... and %d more", len(real.disagreements)-i)
			break
		}
		t.Log(d)
	}
	for _, e := range real.errors {
		t.Errorf("Extract refuses a file syn parses: %s", e)
	}
	return real
}
