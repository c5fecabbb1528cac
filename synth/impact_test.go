package synth

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// impactSummary is one line per changed node: id, declared sources,
// located candidates as kind:src, and the total.
func impactSummary(im ImpactJSON) []string {
	var out []string
	for _, n := range im.Changed {
		var decl, loc []string
		for _, e := range n.Declared {
			decl = append(decl, e.Kind+":"+e.Src.String())
		}
		for _, e := range n.Located {
			loc = append(loc, e.Kind+":"+e.Src.String())
		}
		out = append(out, fmt.Sprintf("%s decl=[%s] loc=[%s] total=%d", n.ID, strings.Join(decl, " "), strings.Join(loc, " "), n.LocatedTotal))
	}
	return out
}

// relyingSummary is the ids of who relies, by kind, and the claims.
func relyingSummary(r Relying) string {
	ids := func(docs []ImpactDoc) []string {
		var out []string
		for _, d := range docs {
			out = append(out, d.ID.String())
		}
		return out
	}
	return fmt.Sprintf("requirements=%v decisions=%v pages=%v tests=%v claims=%d", ids(r.Requirements), ids(r.Decisions), ids(r.Pages), r.Tests, r.Claims)
}

func fixtureGraph(t *testing.T) *Graph {
	var names []string
	for name := range fixture {
		names = append(names, name)
	}
	slices.Sort(names)
	return buildFixture(t, names)
}

// TestImpact runs impact on the graph fixture (auth/login.go: Login on line
// 3, hash on line 5; pay/pay.go: Charge calls auth.Login and imports auth).
func TestImpact(t *testing.T) {
	g := fixtureGraph(t)
	for _, tc := range []struct {
		name    string
		changes []Change
		want    []string
		relying string
	}{
		{
			name:    "whole file",
			changes: []Change{{Path: "auth/login.go"}},
			want: []string{
				"symbol:auth/login.go@Login decl=[claims:page:guide implements:requirement:REQ-1] loc=[tests:test:auth/login_test.go@TestLogin calls:symbol:pay/pay.go@Charge] total=2",
				"symbol:auth/login.go@hash decl=[] loc=[calls:symbol:auth/login.go@Login] total=1",
				"file:auth/login.go decl=[] loc=[imports:file:pay/pay.go] total=1",
			},
			relying: "requirements=[requirement:REQ-1] decisions=[] pages=[page:guide] tests=[test:auth/login_test.go@TestLogin] claims=2",
		},
		{
			name:    "one line",
			changes: []Change{{Path: "auth/login.go", Lines: []LineRange{{Start: 5, End: 5}}}},
			want: []string{
				"symbol:auth/login.go@hash decl=[] loc=[calls:symbol:auth/login.go@Login] total=1",
				"file:auth/login.go decl=[] loc=[imports:file:pay/pay.go] total=1",
			},
			relying: "requirements=[] decisions=[] pages=[] tests=[] claims=0",
		},
		{
			name:    "a deletion between two symbols touches neither",
			changes: []Change{{Path: "auth/login.go", Lines: []LineRange{{Start: 3, End: 4, Deleted: true}}}},
			want:    []string{"file:auth/login.go decl=[] loc=[imports:file:pay/pay.go] total=1"},
			relying: "requirements=[] decisions=[] pages=[] tests=[] claims=0",
		},
		{
			name: "a whole-file change wins over lines; paths are cleaned",
			changes: []Change{
				{Path: "pay/pay.go", Lines: []LineRange{{Start: 1, End: 1}}},
				{Path: "./pay/../pay/pay.go"},
				{Path: "nowhere.txt"},
			},
			want: []string{
				"symbol:pay/pay.go@Charge decl=[implements:requirement:REQ-2] loc=[] total=0",
				"file:pay/pay.go decl=[] loc=[mentions:decision:DEC-1] total=1",
			},
			relying: "requirements=[requirement:REQ-2] decisions=[] pages=[] tests=[] claims=1",
		},
		{
			name:    "a content page by its file",
			changes: []Change{{Path: "content/guide.md"}},
			want:    []string{"page:guide decl=[] loc=[] total=0"},
			relying: "requirements=[] decisions=[] pages=[] tests=[] claims=0",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			im := g.Impact(tc.changes)
			if got := impactSummary(im); !slices.Equal(got, tc.want) {
				t.Errorf("changed:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if got := relyingSummary(im.Relying); got != tc.relying {
				t.Errorf("relying = %s, want %s", got, tc.relying)
			}
		})
	}
	im := g.Impact([]Change{{Path: "pay/pay.go", Lines: []LineRange{{Start: 1, End: 1}}}, {Path: "pay/pay.go"}, {Path: "nowhere.txt"}})
	if len(im.Paths) != 2 || im.Paths[0].Path != "nowhere.txt" || im.Paths[0].Nodes != 0 || im.Paths[1].Lines != nil || im.Paths[1].Nodes != 2 {
		t.Errorf("paths = %+v; want nowhere.txt with no nodes, then pay/pay.go whole with 2", im.Paths)
	}
}

// TestImpactCap: at most MaxImpactCandidates located candidates, tests
// first, and the total of them all.
func TestImpactCap(t *testing.T) {
	var src strings.Builder
	src.WriteString("package a\n\nfunc Target() {}\n")
	for i := range 15 {
		fmt.Fprintf(&src, "\nfunc Caller%02d() { Target() }\n", i)
	}
	files := map[string]string{
		"a/a.go":      src.String(),
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestTarget(t *testing.T) { Target() }\n",
	}
	s := snapshotGraph(t, files)
	im := s.Impact([]Change{{Path: "a/a.go", Lines: []LineRange{{Start: 3, End: 3}}}})
	n := im.Changed[0]
	if n.ID != nid("symbol:a/a.go@Target") || n.LocatedTotal != 16 || len(n.Located) != MaxImpactCandidates {
		t.Fatalf("changed[0] = %s with %d of %d candidates; want Target with %d of 16", n.ID, len(n.Located), n.LocatedTotal, MaxImpactCandidates)
	}
	if n.Located[0].Kind != "tests" || n.Located[1].Src != nid("symbol:a/a.go@Caller00") || n.Located[11].Src != nid("symbol:a/a.go@Caller10") {
		t.Errorf("candidates not tests first then by source: %+v", n.Located)
	}
	if !strings.Contains(im.Text(), "… and 4 more located candidates") {
		t.Errorf("text does not count the rest:\n%s", im.Text())
	}
}

// snapshotGraph builds the graph of files with every target captured.
func snapshotGraph(t *testing.T, files map[string]string) *Graph {
	t.Helper()
	_, g := buildSite(t, files, capture(t, files))
	return g
}

// TestImpactOrderIndependent: the same changes in any order give the same
// JSON.
func TestImpactOrderIndependent(t *testing.T) {
	g := fixtureGraph(t)
	changes := []Change{
		{Path: "auth/login.go", Lines: []LineRange{{Start: 5, End: 5}}},
		{Path: "auth/login.go", Lines: []LineRange{{Start: 3, End: 3}}},
		{Path: "pay/pay.go"},
		{Path: "auth/login_test.go"},
		{Path: "README.md"},
	}
	want, _ := MarshalJSON(g.Impact(changes))
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 10 {
		c := slices.Clone(changes)
		rng.Shuffle(len(c), func(i, j int) { c[i], c[j] = c[j], c[i] })
		if got, _ := MarshalJSON(g.Impact(c)); !bytes.Equal(got, want) {
			t.Fatalf("order %d: JSON differs:\n%s\nwant:\n%s", i, got, want)
		}
	}
}

func TestLineRangeTouches(t *testing.T) {
	for _, tc := range []struct {
		r          LineRange
		start, end int
		want       bool
	}{
		{LineRange{Start: 5, End: 5}, 3, 6, true},
		{LineRange{Start: 1, End: 3}, 3, 6, true},
		{LineRange{Start: 7, End: 9}, 3, 6, false},
		{LineRange{Start: 1, End: 2}, 3, 6, false},
		{LineRange{Start: 4, End: 5, Deleted: true}, 3, 6, true},  // between two of its lines
		{LineRange{Start: 6, End: 7, Deleted: true}, 3, 6, false}, // just after it
		{LineRange{Start: 2, End: 3, Deleted: true}, 3, 6, false}, // just before it
		{LineRange{Start: 0, End: 1, Deleted: true}, 1, 1, false}, // at the top of the file
	} {
		if got := tc.r.touches(tc.start, tc.end); got != tc.want {
			t.Errorf("%+v.touches(%d, %d) = %v, want %v", tc.r, tc.start, tc.end, got, tc.want)
		}
	}
}

func TestParseChange(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{"a/b.go", "a/b.go []", ""},
		{"./a/../b.go", "b.go []", ""},
		{"a/b.go#L3-L5", "a/b.go [{3 5 false}]", ""},
		{"a/b.go@F", "", "not a symbol"},
		{"../b.go", "", "outside the workspace"},
		{"/etc/passwd", "", "outside the workspace"},
		{"", "", "empty"},
	} {
		c, err := ParseChange(tc.in)
		got := ""
		if err == nil {
			got = fmt.Sprintf("%s %v", c.Path, c.Lines)
		}
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseChange(%q) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseChange(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// budgetFiles: Target is claimed by seven pages and a requirement and called
// by six functions; Other, in the same file, by one page. So each of
// impact's shedding steps has something to shed.
func budgetFiles() map[string]string {
	src := "package a\n\n// Target is what changes.\nfunc Target() int { return 1 }\n\n// Other changes too.\nfunc Other() int { return 2 }\n"
	files := map[string]string{
		"content/other.md":              "---\ntitle: Other\n---\nOther returns two ([code](code:a/a.go@Other)).\n",
		"content/requirements/REQ-1.md": "---\ntitle: Target returns one\nimplements: [a/a.go@Target]\n---\nTarget returns one, always.\n",
	}
	for i := 1; i <= 6; i++ {
		src += fmt.Sprintf("\nfunc Caller%d() int { return Target() }\n", i)
	}
	for i := 1; i <= 7; i++ {
		files[fmt.Sprintf("content/p%d.md", i)] = fmt.Sprintf("---\ntitle: Page %d\n---\nPage %d says the target returns one ([code](code:a/a.go@Target)).\n", i, i)
	}
	files["a/a.go"] = src
	return files
}

// TestImpactBudget: each budget sheds SPEC 5's sections in order, only as
// far as needed; an ample budget changes nothing but the budget key; a
// budget too small for what is never shed says fits false.
func TestImpactBudget(t *testing.T) {
	files := budgetFiles()
	k := knowledgeOf(t, files, capture(t, files))
	changes := []Change{{Path: "a/a.go"}}
	plain := k.Impact(changes, ImpactOptions{})
	if len(plain.Changed) != MaxImpactRoots || plain.Paths[0].Nodes != 9 || len(plain.Relying.Pages) != 8 {
		t.Fatalf("unbudgeted: %d roots of %d nodes, %d pages; want %d of 9, 8 pages", len(plain.Changed), plain.Paths[0].Nodes, len(plain.Relying.Pages), MaxImpactRoots)
	}
	if got := plain.Relying.Pages[1].Excerpt; got != "Page 1 says the target returns one (code)." {
		t.Errorf("page:p1's excerpt = %q; want its claim on Target", got)
	}
	want, _ := MarshalCompact(plain)
	ample := k.Impact(changes, ImpactOptions{Budget: 1 << 20})
	if b := ample.Budget; b == nil || !b.Fits || len(b.Shed) != 0 {
		t.Fatalf("ample budget: %+v; want it to fit with nothing shed", b)
	}
	ample.Budget = nil
	if got, _ := MarshalCompact(ample); !bytes.Equal(got, want) {
		t.Errorf("ample budget differs from no budget:\n%s\nwant:\n%s", got, want)
	}

	steps := []string{ShedExcerpts, ShedCandidates, ShedPages, ShedRoots}
	full := EstimateTokens(want)
	tiny := k.Impact(changes, ImpactOptions{Budget: 1})
	if tiny.Budget.Fits || !slices.Equal(tiny.Budget.Shed, steps) {
		t.Fatalf("budget of 1 token: %+v; want every step shed and fits false", tiny.Budget)
	}
	if len(tiny.Changed) != 1 || tiny.Changed[0].ID != nid("symbol:a/a.go@Target") || len(tiny.Changed[0].Located) != BudgetCandidates ||
		len(tiny.Relying.Pages) != BudgetPages || tiny.Relying.Pages[0].Excerpt != "" || len(tiny.Relying.Requirements) != 1 {
		t.Errorf("everything shed: %d roots (%v), %d candidates, %d pages, requirements %v; want Target alone with %d candidates, %d pages, the requirement, no excerpts",
			len(tiny.Changed), tiny.Changed[0].ID, len(tiny.Changed[0].Located), len(tiny.Relying.Pages), tiny.Relying.Requirements, BudgetCandidates, BudgetPages)
	}
	// A budget just under each size sheds one more step.
	sizes := []int{full}
	for n := range steps {
		// The smallest budget that sheds exactly steps[:n+1] lies at or
		// above the size with those steps shed; find it by counting down.
		lo := tiny.Budget.Estimate
		for tokens := sizes[len(sizes)-1] - 1; tokens >= lo; tokens-- {
			got := k.Impact(changes, ImpactOptions{Budget: tokens}).Budget
			if len(got.Shed) > n+1 {
				t.Fatalf("budget %d sheds %q before anything smaller shed %q alone", tokens, got.Shed, steps[:n+1])
			}
			if slices.Equal(got.Shed, steps[:n+1]) {
				if !got.Fits || got.Estimate > tokens {
					t.Errorf("budget %d: %+v; want it to fit", tokens, got)
				}
				sizes = append(sizes, got.Estimate)
				break
			}
		}
		if len(sizes) != n+2 {
			t.Fatalf("no budget sheds exactly %q", steps[:n+1])
		}
	}
	for i := 1; i < len(sizes); i++ {
		if sizes[i] >= sizes[i-1] {
			t.Errorf("shedding %q did not make the answer smaller: %v", steps[i-1], sizes)
		}
	}
}
