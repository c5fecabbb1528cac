package assets

import (
	"os"
	"strings"
	"testing"
)

// TestAgentsDoc: docs/agents.md shows the guide init --agents writes,
// between the same markers, word for word.
func TestAgentsDoc(t *testing.T) {
	doc, err := os.ReadFile("../docs/agents.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "\n<!-- tracewiki:begin -->\n")
	section, _, ok2 := strings.Cut(rest, "<!-- tracewiki:end -->\n")
	if !ok || !ok2 {
		t.Fatal("docs/agents.md has no tracewiki:begin/end section")
	}
	if section != AgentsGuide {
		t.Errorf("docs/agents.md's section differs from assets/agents.md; copy it over:\n%s", section)
	}
}
