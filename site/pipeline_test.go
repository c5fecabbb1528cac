package site

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/synth"
)

// countJudgements counts the drift judgements of projects in dir until the
// test ends.
func countJudgements(t *testing.T, dir string) *int {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := new(int)
	testHookJudge = func(p *Project) {
		if p.WS.Dir == abs {
			*n++
		}
	}
	t.Cleanup(func() { testHookJudge = nil })
	return n
}

// TestJudgedOnce checks that every command judges drift exactly once per
// run: a build (frozen or capturing), check (also when a missing target
// makes it read every code file to relocate it), a session per build or
// analysis (serve, MCP), and the knowledge of search and lookup.
func TestJudgedOnce(t *testing.T) {
	dir := fixture(t, "shop") // has a target_missing link: check relocates
	n := countJudgements(t, dir)
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	expect := func(what string, want int) {
		t.Helper()
		if *n != want {
			t.Errorf("%s: %d drift judgements, want %d", what, *n, want)
		}
		*n = 0
	}

	rep, err := p.Check()
	if err != nil {
		t.Fatal(err)
	}
	if !rep.NeedsLocate() {
		t.Fatal("the shop fixture has no missing target: check's relocation is not exercised")
	}
	expect("check", 1)
	for _, frozen := range []bool{true, false} {
		s, err := p.Build(BuildOptions{Frozen: frozen, By: "test"}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		expect("build", 1)
		if s.Loaded == nil || s.Captured == nil || s.Analysis == nil || s.Graph == nil || s.Report != s.Analysis.Report {
			t.Errorf("build (frozen %t) did not return every stage: %+v", frozen, s)
		}
	}
	if _, err := p.Knowledge(); err != nil {
		t.Fatal(err)
	}
	expect("knowledge (search, lookup, mcp)", 1)

	s, err := OpenSession(dir, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, what := range []string{"a session's first build (serve)", "a session's rebuild"} {
		if _, err := s.Build(""); err != nil {
			t.Fatal(err)
		}
		expect(what, 1)
	}
	if _, err := s.Analyze(); err != nil {
		t.Fatal(err)
	}
	expect("a session's analysis (mcp)", 1)
}

// TestBuildLeavesLock checks that a build that captures writes nothing: it
// returns the captured lock, and WriteCapture writes what it captured.
func TestBuildLeavesLock(t *testing.T) {
	dir := t.TempDir()
	writeCorpus(t, dir, 2, 2) // 4 claims, none captured
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	lock := filepath.Join(dir, p.Config.Lock)
	s, err := p.Build(BuildOptions{By: "test"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lock); !os.IsNotExist(err) {
		t.Fatalf("Build wrote the lock (%v); the caller writes it", err)
	}
	if got := len(s.Captured.Result.Captured); got != 4 || len(s.Captured.Lock.Anchors) != 4 {
		t.Fatalf("captured %d targets, lock holds %d anchors; want 4", got, len(s.Captured.Lock.Anchors))
	}
	if s.Check.Count(codeanchors.Linked) != 4 {
		t.Errorf("%d links linked, want 4: the build judges against the lock it captured", s.Check.Count(codeanchors.Linked))
	}
	if err := p.WriteCapture(s.Captured, io.Discard); err != nil {
		t.Fatal(err)
	}
	l, err := p.ReadLock()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := s.Captured.Lock.Marshal()
	if got, _ := l.Marshal(); !bytes.Equal(got, want) {
		t.Errorf("lock written:\n%s\nwant the captured one:\n%s", got, want)
	}
	// A frozen build's capture has nothing to write.
	f, err := p.Build(BuildOptions{Frozen: true}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if f.Captured.Result != nil {
		t.Errorf("frozen build captured %v", f.Captured.Result)
	}
}

// TestFindingsAndCoverage checks check --fail-on coverage's one load: its
// findings (the shop fixture's missing target relocated among them) and
// its coverage are those of Findings and Coverage apart, from one drift
// judgement instead of two.
func TestFindingsAndCoverage(t *testing.T) {
	dir := fixture(t, "shop")
	load := func() *Project {
		t.Helper()
		p, err := Load(dir)
		must(t, err)
		t.Cleanup(func() { p.Close() })
		return p
	}
	wantF, err := load().Findings("es")
	must(t, err)
	wantC, err := load().Coverage()
	must(t, err)
	rep, err := load().Check()
	must(t, err)
	if wantC.Totals.Symbols == 0 || !rep.NeedsLocate() {
		t.Fatalf("the shop fixture should have code and a missing target: %d symbols, locate %t", wantC.Totals.Symbols, rep.NeedsLocate())
	}
	n := countJudgements(t, dir)
	f, c, err := load().FindingsAndCoverage("es")
	must(t, err)
	if *n != 1 {
		t.Errorf("%d drift judgements, want 1", *n)
	}
	got, err := json.Marshal(synth.NewCheckReport(f))
	must(t, err)
	want, err := json.Marshal(synth.NewCheckReport(wantF))
	must(t, err)
	if !bytes.Equal(got, want) || !reflect.DeepEqual(f, wantF) {
		t.Errorf("findings from one load:\n%s\nfrom check:\n%s", got, want)
	}
	if !reflect.DeepEqual(c, wantC) {
		t.Errorf("coverage from one load %+v, from Coverage %+v", c.Totals, wantC.Totals)
	}
}
