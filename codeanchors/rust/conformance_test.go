//go:build conformance

package rust

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
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
	return langtest.RunReference[synResult](t, exec.Command(bin), files)
}

// refFile converts syn's result: symbols "name kind start-end".
func refFile(r synResult) langtest.RefFile {
	ref := langtest.RefFile{Ambiguous: r.Ambiguous, Error: r.Error}
	for _, s := range r.Symbols {
		var rs langtest.RefSymbol
		fmt.Sscanf(s, "%s %s %d-%d", &rs.Name, &rs.Kind, &rs.Start, &rs.End)
		ref.Symbols = append(ref.Symbols, rs)
	}
	return ref
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
	golden := langtest.Agreement{Reference: "syn"}
	for i, c := range cases {
		f, err := Extract(c.Path, c.Src)
		if err != nil && refs[i].Error == "" {
			t.Errorf("%s: Extract: %v; syn parses it", c.File, err)
		}
		if err == nil && refs[i].Error != "" {
			t.Errorf("%s: syn reports %s; Extract finds no error", c.File, refs[i].Error)
		}
		golden.Add(c.File, f, err, refFile(refs[i]))
	}
	golden.Report(t, "testdata/extract", langtest.Golden)

	// The standard library (Debian rust-src) and the crates Debian packages
	// for cargo (syn, proc-macro2, quote, unicode-ident): third-party style.
	for _, root := range []string{rustSrc, debianRegistry} {
		corpusAgreement(t, bin, root).Report(t, root, langtest.Corpus)
	}
}

// corpusAgreement compares Extract with the reference on every .rs file
// below root.
func corpusAgreement(t *testing.T, bin, root string) *langtest.Agreement {
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
	real := &langtest.Agreement{Reference: "syn"}
	for i, line := range corpus {
		p, rel, _ := strings.Cut(line, "\t")
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Extract(rel, src)
		real.Add(rel, f, err, refFile(refs[i]))
	}
	return real
}

// BenchmarkExtractRust extracts the standard library's core/src (Debian
// rust-src) and reports symbols/s and lines/s.
func BenchmarkExtractRust(b *testing.B) {
	type item struct {
		path string
		src  []byte
	}
	var items []item
	err := filepath.WalkDir(filepath.Join(rustSrc, "core", "src"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".rs") {
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			items = append(items, item{p, src})
		}
		return err
	})
	if err != nil {
		b.Fatalf("corpus (Debian package rust-src; test.sh installs it): %v", err)
	}
	slices.SortFunc(items, func(x, y item) int { return strings.Compare(x.path, y.path) })
	langtest.BenchExtract(b, items, func(it item) (string, []byte) { return it.path, it.src }, Extract)
}
