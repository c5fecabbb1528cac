package site

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/synth"
)

// TestPolicyPage builds a workspace with a policy: the policy page lists
// each rule with its counts and each entry, the home page counts the
// findings and links the page, and the JSON (the page's twin, check's
// report with a policy) matches the shipped schemas.
func TestPolicyPage(t *testing.T) {
	schemas := compileSchemas(t)
	s := buildSite(t, fixture(t, "policy"), BuildOptions{}, 0)
	page := string(s.Files["policy/index.html"])
	if page == "" {
		t.Fatal("no policy/index.html")
	}
	for _, want := range []string{
		// rule, applies to, requires, requirements, met, violated, expired, justified
		`<td><a href="#rule-sw-implemented">sw-implemented</a></td><td><code>type=sw</code></td><td>implements</td><td>3</td><td>1</td><td><span class="badge badge-stale" title="">1</span></td><td>0</td><td><span class="badge badge-unknown" title="">1</span></td>`,
		`<td>sys-refined</td><td><code>document=system/**</code></td><td>1 child</td><td>1</td><td>1</td><td>0</td><td>0</td><td>0</td>`,
		`<tr id="rule-sw-implemented"><td><a href="../requirements/SW-2/index.html">SW-2</a></td><td><span class="badge badge-unknown"`,
		`bought in (by carol); stamped 20`,
		`<a href="../requirements/SW-3/index.html">SW-3</a></td><td><span class="badge badge-stale" title="no implements link">violated</span>`,
		`Every one of its 1 requirements meets it.`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("policy page lacks %q", want)
		}
	}
	home := string(s.Files["index.html"])
	if !strings.Contains(home, `<a href="policy/index.html"><span class="num">1</span> policy findings</a>`) {
		t.Errorf("home page has no policy card counting 1 finding and linking the policy page")
	}
	validate(t, schemas, "list", "policy/index.json", s.Files["policy/index.json"])
	data, err := synth.MarshalJSON(s.Check)
	if err != nil {
		t.Fatal(err)
	}
	validate(t, schemas, "check", "check report with a policy", data)
	var states []string
	for _, e := range s.Check.Policy {
		states = append(states, e.Rule+" "+e.Node.Key+" "+e.State)
	}
	if got, want := strings.Join(states, "; "), "sw-implemented SW-2 justified; sw-implemented SW-3 violated"; got != want {
		t.Errorf("policy entries = %q, want %q", got, want)
	}
	if n := s.Check.CountPolicy(); n != 1 {
		t.Errorf("CountPolicy = %d, want 1 (the justified entry is not a finding)", n)
	}
}

// TestNoPolicyNoPage: a workspace without rules gets no policy page and
// no card, so its site is the one it always was.
func TestNoPolicyNoPage(t *testing.T) {
	s := buildSite(t, fixture(t, "reqs"), BuildOptions{}, 0)
	if _, ok := s.Files["policy/index.html"]; ok {
		t.Error("a workspace without a policy has a policy page")
	}
	if strings.Contains(string(s.Files["index.html"]), "policy findings") {
		t.Error("a workspace without a policy has a policy card")
	}
}
