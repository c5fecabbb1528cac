package synth

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// lookupFixture is the graph fixture with more to say: a page that
// mentions Login without linking it, a claim on code that changed since it
// was captured, and two evidence runs of REQ-1 (one for its current
// revision, one expired).
func lookupFixture(t testing.TB) *Knowledge {
	t.Helper()
	files := maps.Clone(fixture)
	files["content/notes.md"] = "# Notes\n\nLogin is slow; REQ-1 says why. Charge retries ([code](code:pay/pay.go@Charge)).\n"
	lock := capture(t, files)
	files["pay/pay.go"] = strings.Replace(files["pay/pay.go"], `"x"`, `"y"`, 1)
	_, _, m := buildGraph(t, files, slices.Sorted(maps.Keys(files)), lock)
	rev := m.Requirements[0].Revision // REQ-1
	pass := []codeanchors.EvidenceTest{{Name: "example.com/shop/auth.TestLogin", Outcome: codeanchors.OutcomePass, Target: "auth/login_test.go@TestLogin"}}
	lock.Evidence = []codeanchors.Evidence{
		{RecordedAt: "2026-01-02T00:00:00Z", Req: "REQ-1", Revision: rev, Run: "run-2", Tests: pass},
		{RecordedAt: "2026-01-01T00:00:00Z", Req: "REQ-1", Revision: "sha256:old", Run: "run-1", Tests: pass},
	}
	return knowledgeOf(t, files, lock)
}

// knowledgeOf answers from the workspace files with lock.
func knowledgeOf(t testing.TB, files map[string]string, lock *codeanchors.Lock) *Knowledge {
	t.Helper()
	g, rep, m := buildGraph(t, files, slices.Sorted(maps.Keys(files)), lock)
	sources := map[string]*codeanchors.Source{}
	for name, src := range files {
		if strings.HasSuffix(name, ".go") {
			sources[name] = codeanchors.NewSource(codeanchors.Default, name, []byte(src))
		}
	}
	return NewKnowledge(KnowledgeInput{Graph: g, Model: m, Report: rep, Sources: sources, Lang: "en", Search: NewSearch(g, m, func(NodeID) string { return "" })})
}

// lookupCases are the goldens of testdata/lookup: a key, a depth and a
// budget each.
var lookupCases = []struct {
	name, key     string
	depth, budget int
}{
	{"req_depth1", "REQ-1", 1, 0},
	{"req_depth2", "requirement:REQ-1", 2, 0},
	{"req_depth3", "REQ-1", 3, 0},
	{"req_depth3_budget300", "REQ-1", 3, 300},
	{"req_depth3_budget600", "REQ-1", 3, 600},
	{"req_depth3_budget40", "REQ-1", 3, 40},
	{"symbol_depth1", "auth/login.go@Login", 1, 0},
	{"symbol_depth2_budget250", "auth/login.go@Login", 2, 250},
	{"file_depth1", "pay/pay.go", 1, 0},
	{"page_file", "content/notes.md", 1, 0},
	{"run", "run-1", 1, 0},
	{"unknown", "REQ-404", 2, 0},
}

// TestLookupGolden compares lookups of the fixture with
// testdata/lookup/NAME.json (indented for review; the command prints the
// same document compactly). -update rewrites them.
func TestLookupGolden(t *testing.T) {
	if *update && os.Getenv("CI") != "" {
		t.Fatal("refusing -update with CI set")
	}
	k := lookupFixture(t)
	dir := filepath.Join("testdata", "lookup")
	want := map[string]bool{}
	for _, c := range lookupCases {
		name := filepath.Join(dir, c.name+".json")
		want[c.name+".json"] = true
		got, err := MarshalJSON(k.Lookup(c.key, LookupOptions{Depth: c.depth, Budget: c.budget}))
		if err != nil {
			t.Fatal(err)
		}
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		exp, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("%v; run go test ./synth -run TestLookupGolden -update", err)
		}
		if !bytes.Equal(got, exp) {
			t.Errorf("Lookup(%q, depth %d, budget %d) differs from %s:\n%s", c.key, c.depth, c.budget, name, got)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !want[e.Name()] {
			t.Errorf("%s: a golden no test produces", filepath.Join(dir, e.Name()))
		}
	}
}

// TestLookupContent checks what the goldens hold, so a wrong golden cannot
// pass review unnoticed.
func TestLookupContent(t *testing.T) {
	k := lookupFixture(t)
	l := k.Lookup("REQ-1", LookupOptions{Depth: 1})
	if l.Entity == nil || l.Entity.ID != nid("requirement:REQ-1") || *l.Entity.Verified != true || *l.Entity.Implemented != true {
		t.Fatalf("entity %+v", l.Entity)
	}
	// run-1 is older than run-2: history, superseded by it (SPEC 1.5),
	// and not drift.
	if len(l.Evidence) != 2 || l.Evidence[0].Run != "run-2" || l.Evidence[0].State != "linked" || l.Evidence[1].State != "superseded" ||
		l.Evidence[1].Why != "superseded by run:run-2" {
		t.Errorf("evidence %+v; want run-2 (linked) then run-1 (superseded by run:run-2)", l.Evidence)
	}
	if slices.ContainsFunc(l.Drift, func(c CheckTarget) bool { return c.Ref == "run:run-1" }) {
		t.Errorf("drift %+v; want no superseded run", l.Drift)
	}
	for _, kind := range []string{KindImplements, KindTests, KindIssues, KindEvidences} {
		if len(l.Neighbors[kind]) == 0 {
			t.Errorf("neighbors lack %s: %v", kind, slices.Sorted(maps.Keys(l.Neighbors)))
		}
	}
	if docs := l.Documents; len(docs.Covering) != 1 || docs.Covering[0].ID != nid("page:guide") || len(docs.Mentioning) != 1 || docs.Mentioning[0].ID != nid("page:notes") {
		t.Errorf("documents %+v; want guide covering, notes mentioning", docs)
	}

	l = k.Lookup("pay/pay.go@Charge", LookupOptions{})
	if len(l.Claims) != 2 || len(l.Drift) != 1 || l.Drift[0].Reason != string(codeanchors.ContentChanged) {
		t.Errorf("Charge: claims %+v, drift %+v; want its two links, stale content_changed", l.Claims, l.Drift)
	}
	for _, c := range l.Claims {
		if !strings.Contains(c.Excerpt, `auth.Login(user, "y")`) || len(c.Captured) != 2 || c.State != "stale" {
			t.Errorf("claim %+v; want the current code and the captured range", c)
		}
	}
	if l.Claims[1].Text != "Charge retries (code)." && l.Claims[0].Text != "Charge retries (code)." {
		t.Errorf("claim texts %q, %q; want the claim sentence of notes", l.Claims[0].Text, l.Claims[1].Text)
	}

	l = k.Lookup("NOPE-1", LookupOptions{})
	if l.Entity != nil || !slices.Equal(l.Unknown, []string{"NOPE-1"}) || len(l.Neighbors) != 0 {
		t.Errorf("unknown key: %+v", l)
	}
	for _, key := range []string{"requirement:REQ-1", "REQ-1", "content/requirements/REQ-1.md"} {
		if l := k.Lookup(key, LookupOptions{}); l.Entity == nil || l.Entity.ID != nid("requirement:REQ-1") {
			t.Errorf("Lookup(%q) entity %v", key, l.Entity)
		}
	}
	for key, id := range map[string]string{"auth/login.go": "file:auth/login.go", "./auth/login.go": "file:auth/login.go", "guide": "page:guide",
		"auth/login_test.go@TestLogin": "test:auth/login_test.go@TestLogin", "run-2": "run:run-2", "DEC-1": "decision:DEC-1"} {
		if l := k.Lookup(key, LookupOptions{}); l.Entity == nil || l.Entity.ID.String() != id {
			t.Errorf("Lookup(%q) entity %v, want %s", key, l.Entity, id)
		}
	}
}

// TestLookupBounds: the named bounds cut, and say so.
func TestLookupBounds(t *testing.T) {
	in := manyCallers(MaxNeighborsPerKind + 5)
	g := Build(in)
	k := NewKnowledge(KnowledgeInput{Graph: g, Model: in.Model, Report: &codeanchors.Report{}, Lang: "en", Search: NewSearch(g, in.Model, func(NodeID) string { return "" })})
	l := k.Lookup("core/f.go@F", LookupOptions{})
	if l.Entity == nil || len(l.Neighbors[codeanchors.EdgeCalls]) != MaxNeighborsPerKind || l.Truncated["neighbors."+codeanchors.EdgeCalls] != 5 {
		t.Errorf("calls: %d listed, truncated %v", len(l.Neighbors[codeanchors.EdgeCalls]), l.Truncated)
	}
}

// TestLookupBudgetProperty: for every key, depth and budget, a budgeted
// answer fits, or says it does not with every sheddable section shed; the
// sections go in SPEC 5's order; the entity and its declared links stay;
// and with an ample budget the answer is the unbudgeted one but for the
// budget key.
func TestLookupBudgetProperty(t *testing.T) {
	k := lookupFixture(t)
	order := []string{ShedExcerpts, ShedMentioning, ShedDistance3, ShedDistance2, ShedCovering, ShedOldEvidence, ShedLocated1, ShedClaims}
	for _, key := range []string{"REQ-1", "REQ-2", "auth/login.go", "auth/login.go@Login", "pay/pay.go@Charge", "guide", "DEC-1", "run-1", "nope"} {
		for depth := 1; depth <= 3; depth++ {
			free := k.Lookup(key, LookupOptions{Depth: depth})
			freeJSON, _ := MarshalCompact(free)
			declared := declaredLinks(free)
			for tokens := 1; tokens <= EstimateTokens(freeJSON)+40; tokens += 3 {
				out := k.Lookup(key, LookupOptions{Depth: depth, Budget: tokens})
				data, _ := MarshalCompact(out)
				b := out.Budget
				if b.Estimate != EstimateTokens(data) || b.Fits != (b.Estimate <= tokens) || b.Tokens != tokens {
					t.Fatalf("%s depth %d budget %d: report %+v for %d bytes", key, depth, tokens, b, len(data))
				}
				last := -1
				for _, s := range b.Shed {
					i := slices.Index(order, s)
					if i <= last {
						t.Fatalf("%s depth %d budget %d: shed %q out of order", key, depth, tokens, b.Shed)
					}
					last = i
				}
				if !b.Fits && len(b.Shed) > 0 && !shedAll(out) {
					t.Errorf("%s depth %d budget %d: does not fit, yet something sheddable is left (shed %q)", key, depth, tokens, b.Shed)
				}
				if !slices.Equal(declaredLinks(out), declared) || (out.Entity == nil) != (free.Entity == nil) {
					t.Errorf("%s depth %d budget %d: the entity or its declared links were shed", key, depth, tokens)
				}
				if len(b.Shed) == 0 {
					out.Budget = nil
					if got, _ := MarshalCompact(out); !bytes.Equal(got, freeJSON) {
						t.Errorf("%s depth %d budget %d: nothing shed, but differs from the unbudgeted answer", key, depth, tokens)
					}
				}
			}
		}
	}
}

// declaredLinks lists an answer's declared and verified neighbors at
// distance 1.
func declaredLinks(l LookupJSON) []string {
	var out []string
	for _, kind := range slices.Sorted(maps.Keys(l.Neighbors)) {
		for _, nb := range l.Neighbors[kind] {
			if nb.Distance == 1 && nb.Relation != Located {
				out = append(out, kind+" "+nb.ID.String())
			}
		}
	}
	return out
}

// shedAll reports whether everything a budget may shed is gone.
func shedAll(l LookupJSON) bool {
	for _, c := range l.Claims {
		if c.Excerpt != "" {
			return false
		}
	}
	for _, list := range l.Neighbors {
		for _, nb := range list {
			if nb.Distance > 1 || nb.Relation == Located {
				return false
			}
		}
	}
	return len(l.Documents.Mentioning) == 0 && len(l.Documents.Covering) == 0 && len(l.Evidence) <= 1 && len(l.Claims) <= BudgetClaims
}

// TestLookupJSONShape: every key SPEC 5 names is present, also for an
// unknown key.
func TestLookupJSONShape(t *testing.T) {
	k := lookupFixture(t)
	for _, key := range []string{"REQ-1", "nope"} {
		data, _ := MarshalCompact(k.Lookup(key, LookupOptions{Budget: 10000}))
		var m map[string]json.RawMessage
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"type", "schemaVersion", "depth", "entity", "neighbors", "documents", "claims", "drift", "evidence", "unknown", "truncated", "budget"} {
			if _, ok := m[f]; !ok {
				t.Errorf("lookup %s: no %q in %s", key, f, data)
			}
		}
	}
	_ = claims.Target{}
}

func BenchmarkLookup(b *testing.B) {
	k := lookupFixture(b)
	b.ReportAllocs()
	for b.Loop() {
		k.Lookup("REQ-1", LookupOptions{Depth: 3, Budget: 500})
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/query")
}
