package synth

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

func policyReq(id, level string, fields map[string]string, parents ...string) *claims.Requirement {
	r := &claims.Requirement{ID: id, Level: level, Fields: fields, Normative: true, Revision: "sha256:" + id}
	for _, p := range parents {
		r.Parents = append(r.Parents, claims.IDRef{ID: p})
	}
	return r
}

// TestEvaluatePolicySelectors: a level selector is a prefix of whole
// level parts (level=2 selects 2 and 2.1, not 20), and a policy whose
// requirements all meet it still reports an (empty) policy list, while
// a workspace without a policy reports none.
func TestEvaluatePolicySelectors(t *testing.T) {
	m := &claims.Model{Requirements: []*claims.Requirement{
		policyReq("A", "2", nil), policyReq("B", "2.1", nil, "A"), policyReq("C", "20", nil),
	}}
	rules := []claims.Rule{{Name: "refined", Applies: "level=2", MinChildren: 1}}
	p := EvaluatePolicy(PolicyInput{Model: m, Rules: rules})
	var got []string
	for _, e := range p.Entries {
		got = append(got, e.Node.Key+" "+e.State+" "+e.Why)
	}
	if want := "B violated 0 child requirements, want at least 1"; strings.Join(got, "; ") != want {
		t.Errorf("entries = %q, want %q", got, want)
	}
	if r := p.Rules[0]; len(r.Nodes) != 2 || r.Met != 1 || r.Violated != 1 {
		t.Errorf("rule summary = %d nodes, %d met, %d violated; want 2, 1, 1", len(r.Nodes), r.Met, r.Violated)
	}

	m.Requirements[0].Fields = map[string]string{"x": "1"}
	m.Requirements[1].Fields = map[string]string{"x": "2"}
	met := EvaluatePolicy(PolicyInput{Model: m, Rules: []claims.Rule{{Name: "sys", Applies: "level=2", Fields: []string{"x"}}}})
	data, err := MarshalJSON(NewCheckReport(&Findings{Policy: met}))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"policy": []`) {
		t.Errorf("a policy every requirement meets reports no empty policy list:\n%s", data)
	}
	data, err = MarshalJSON(NewCheckReport(&Findings{Policy: EvaluatePolicy(PolicyInput{Model: m})}))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), `"policy"`) {
		t.Errorf("a workspace without a policy reports a policy list:\n%s", data)
	}
}

// TestEvaluatePolicyWaiver: a waiver justifies while the lock's stamp is
// the requirement's revision, and has expired once it is not.
func TestEvaluatePolicyWaiver(t *testing.T) {
	r := policyReq("SW-1", "", nil)
	r.Waivers = []claims.Waiver{{Rule: "tested", Reason: "by hand"}}
	m := &claims.Model{Requirements: []*claims.Requirement{r}}
	rules := []claims.Rule{{Name: "tested", Tests: true}}
	for _, c := range []struct {
		stamp, want string
	}{
		{"", PolicyJustified},
		{"sha256:SW-1", PolicyJustified},
		{"sha256:older", PolicyWaiverExpired},
	} {
		in := PolicyInput{Model: m, Rules: rules}
		if c.stamp != "" {
			in.Waivers = map[string]codeanchors.WaiverStamp{"SW-1#tested": {Hash: c.stamp, At: "t"}}
		}
		p := EvaluatePolicy(in)
		if len(p.Entries) != 1 || p.Entries[0].State != c.want {
			t.Errorf("stamp %q: entries %+v, want one %s", c.stamp, p.Entries, c.want)
		}
		if got := p.Problems(); (got == 1) != (c.want == PolicyWaiverExpired) {
			t.Errorf("stamp %q: %d problems", c.stamp, got)
		}
	}
}
