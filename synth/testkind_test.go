package synth

import (
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// TestTestKindFromExtractor checks that test-ness is the extractor's where
// a file is extracted: a JUnit @Test method in a file whose name says
// nothing (not *Test.java, not under tests/) is a test node, a claim on it
// names that node, and its call is a tests edge. The name rule alone
// (codeanchors.IsTest) does not see the annotation.
func TestTestKindFromExtractor(t *testing.T) {
	sources := map[string]string{
		"src/main/java/bank/Account.java": "package bank;\n\npublic class Account {\n    public static Account open() {\n        return new Account();\n    }\n}\n",
		"src/main/java/bank/AccountChecks.java": "package bank;\n\nimport org.junit.jupiter.api.Test;\n\npublic class AccountChecks {\n" +
			"    @Test\n    void opens() {\n        Account.open();\n    }\n\n    void helper() {\n        Account.open();\n    }\n}\n",
	}
	var files []*codeanchors.File
	for _, p := range []string{"src/main/java/bank/Account.java", "src/main/java/bank/AccountChecks.java"} {
		s := codeanchors.NewSource(codeanchors.Default, p, []byte(sources[p]))
		if s.File == nil {
			t.Fatal(s.ParseErr)
		}
		files = append(files, s.File)
	}
	const test = "src/main/java/bank/AccountChecks.java@AccountChecks.opens"
	if codeanchors.IsTest("src/main/java/bank/AccountChecks.java", "AccountChecks.opens") {
		t.Fatal("the name rule sees the annotation: this test no longer tests the gap")
	}
	ix := codeanchors.BuildIndex(codeanchors.IndexInput{Files: files})
	g := Build(Input{ProjectID: "p", Model: &claims.Model{}, Index: ix})

	tg, err := claims.ParseTarget(test)
	if err != nil {
		t.Fatal(err)
	}
	id := g.TargetNodeID(tg)
	if n, ok := g.Node(id); !ok || n.Type != claims.NodeTest {
		t.Errorf("%s: node %v (found %v, type %q), want a test node", test, id, ok, n.Type)
	}
	helper, _ := claims.ParseTarget("src/main/java/bank/AccountChecks.java@AccountChecks.helper")
	if n, ok := g.Node(g.TargetNodeID(helper)); !ok || n.Type != claims.NodeSymbol {
		t.Errorf("AccountChecks.helper: node %+v, want a symbol node", n)
	}
	open, _ := claims.ParseTarget("src/main/java/bank/Account.java@Account.open")
	kinds := map[NodeID]string{}
	for _, e := range g.Edges {
		if e.Dst == g.TargetNodeID(open) {
			kinds[e.Src] = e.Kind
		}
	}
	if kinds[id] != codeanchors.EdgeTests || kinds[g.TargetNodeID(helper)] != codeanchors.EdgeCalls {
		t.Errorf("edges into Account.open: %v, want tests from %v and calls from the helper", kinds, id)
	}
	// Without an index, the name rule is the fallback.
	if id := (*Graph)(nil).TargetNodeID(tg); id.Type != claims.NodeSymbol {
		t.Errorf("no index: %v, want a symbol node", id)
	}
}
