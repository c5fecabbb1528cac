package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// agreementQueries are the questions to the own wiki, which the site's
// conformance test TestSearchAgreement also asks its search page.
const agreementQueries = "../../site/testdata/search_questions.txt"

// agreementAll asks TestSearchAgreementCLIMCP every query of the corpus;
// the conformance build sets it (searchagree_all_test.go).
var agreementAll = false

// agreementQuery is one query of the corpus and its kind filter.
type agreementQuery struct{ query, kind string }

// readAgreementQueries reads the corpus: one query a line, "kind:TYPE "
// before a query filters by type, # lines and blank lines skipped.
func readAgreementQueries(t *testing.T) []agreementQuery {
	t.Helper()
	data, err := os.ReadFile(agreementQueries)
	must(t, err)
	var qs []agreementQuery
	for line := range strings.SplitSeq(string(data), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		q := agreementQuery{query: line}
		if rest, ok := strings.CutPrefix(line, "kind:"); ok {
			q.kind, q.query, _ = strings.Cut(rest, " ")
		}
		qs = append(qs, q)
	}
	return qs
}

// TestSearchAgreementCLIMCP: for every query of the shared corpus,
// "tracewiki search" and the MCP server's search tool give tracewiki's own
// wiki the same answer, byte for byte: results in the same order, the same
// corrections and the same hint. (The site's search page is compared with
// the same Go code by site's TestSearchAgreement, which needs Chromium.)
// Every answer that finds nothing carries a hint, and the corpus is no
// corpus of empty answers.
func TestSearchAgreementCLIMCP(t *testing.T) {
	bin, err := exec.LookPath("tracewiki")
	must(t, err)
	root, err := filepath.Abs("../..")
	must(t, err)
	queries := readAgreementQueries(t)
	if !agreementAll {
		// Each CLI call loads and analyses the own wiki: the plain suite
		// asks every fourth query, the conformance suite all of them.
		var some []agreementQuery
		for i := 0; i < len(queries); i += 4 {
			some = append(some, queries[i])
		}
		queries = some
	}

	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "tracewiki-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "--root", root, "mcp")}, nil)
	must(t, err)
	defer cs.Close()

	answered, corrected := 0, 0
	for _, q := range queries {
		args := map[string]any{"query": q.query}
		line := []string{"search"}
		if q.kind != "" {
			args["kind"] = q.kind
			line = append(line, "--kind", q.kind)
		}
		want := cli(t, bin, root, append(line, "--", q.query)...)
		if got := callTool(ctx, t, cs, "search", args); got != want {
			t.Errorf("search %q (kind %q):\nMCP: %s\nCLI: %s", q.query, q.kind, got, want)
			continue
		}
		var out struct {
			Count     int
			Hint      string
			Corrected map[string]string
		}
		must(t, json.Unmarshal([]byte(want), &out))
		switch {
		case out.Count == 0 && out.Hint == "":
			t.Errorf("search %q (kind %q) finds nothing and gives no hint: %s", q.query, q.kind, want)
		case out.Count > 0:
			answered++
		}
		if len(out.Corrected) > 0 {
			corrected++
		}
	}
	t.Logf("%d queries: %d answered, %d corrected, CLI and MCP agree", len(queries), answered, corrected)
	if answered < len(queries)/2 || corrected == 0 {
		t.Errorf("of %d queries %d found something and %d were corrected; the corpus should mostly find, and correct some", len(queries), answered, corrected)
	}
}
