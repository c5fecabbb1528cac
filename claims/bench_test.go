package claims

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// syntheticCorpus returns n content files made from a fixed seed: a tenth
// requirements, a twentieth decisions, a twentieth claim records and the
// rest pages whose paragraphs make claims and link to each other.
func syntheticCorpus(n int) []File {
	rng := rand.New(rand.NewPCG(1, 1))
	reqs, decs, recs := n/10, n/20, n/20
	pages := n - reqs - decs - recs
	words := strings.Fields("the order service validates each request before persistence and logs every failure so that operators can see why a login was refused")
	sentence := func() string {
		k := 6 + rng.IntN(12)
		ws := make([]string, k)
		for i := range ws {
			ws[i] = words[rng.IntN(len(words))]
		}
		return strings.Join(ws, " ")
	}
	var files []File
	for i := range reqs {
		files = append(files, File{Name: fmt.Sprintf("content/requirements/REQ-%d.md", i), Data: fmt.Appendf(nil,
			"---\ntitle: Requirement %d\nstatus: accepted\nimplements:\n  - src/pkg%d/file.go@Type.Method\ntests:\n  - src/pkg%d/file_test.go@TestMethod\nissues: [DEC-%d]\n---\n%s.\n",
			i, i%50, i%50, rng.IntN(decs), sentence())})
	}
	for i := range decs {
		files = append(files, File{Name: fmt.Sprintf("content/decisions/DEC-%d.md", i), Data: fmt.Appendf(nil,
			"+++\ntitle = \"Decision %d\"\nstatus = \"accepted\"\ndate = 2024-01-02\n+++\n%s. See [REQ-%d](req:REQ-%d).\n",
			i, sentence(), rng.IntN(reqs), rng.IntN(reqs))})
	}
	for i := range pages {
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntitle: Page %d\ntype: guide\n---\n# Page %d\n\n", i, i)
		for range 3 + rng.IntN(5) {
			fmt.Fprintf(&b, "%s ([code](code:src/pkg%d/file.go@Type.M%d)). %s, see [page](../p%d/page.md#page-%d) and `x.y`.\n\n",
				sentence(), rng.IntN(50), rng.IntN(9), sentence(), rng.IntN(pages), rng.IntN(pages))
		}
		b.WriteString("```go\n[not](code:a.go)\n```\n")
		files = append(files, File{Name: fmt.Sprintf("content/p%d/page.md", i), Data: []byte(b.String())})
	}
	for i := range recs {
		var b strings.Builder
		b.WriteString("{\"claims\": [\n")
		for j := range 10 {
			if j > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, `  {"text": %q, "kind": "behavior", "confidence": 0.5, "target": {"code_resource_uri": "code://acme/src/pkg%d/file.go#symbol-F%d", "page_path": "synth/s%d"}}`,
				sentence(), rng.IntN(50), j, rng.IntN(20))
		}
		b.WriteString("\n]}\n")
		files = append(files, File{Name: fmt.Sprintf("content/claims/batch%d.json", i), Data: []byte(b.String())})
	}
	return files
}

func BenchmarkParse(b *testing.B) {
	files := syntheticCorpus(1000)
	b.ReportAllocs()
	claims := 0
	for b.Loop() {
		m, _ := Parse("content", files)
		for _, p := range m.Pages {
			claims += len(p.Doc.Claims)
		}
		for _, r := range m.Requirements {
			claims += len(r.Doc.Claims)
		}
	}
	b.ReportMetric(float64(claims)/float64(b.N), "claims/op")
}
