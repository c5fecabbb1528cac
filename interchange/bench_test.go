package interchange

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// doorstopCorpus is a synthetic Doorstop tree with a fixed seed: a system
// document of n/10 items and a software document of the rest, each
// software item linked to one or two system items.
func doorstopCorpus(n int) []File {
	rng := rand.New(rand.NewPCG(1, 2))
	files := []File{
		{Name: "sys/.doorstop.yml", Data: []byte("settings:\n  prefix: SYS\n")},
		{Name: "sw/.doorstop.yml", Data: []byte("settings:\n  prefix: SW\n  parent: SYS\n")},
	}
	sys := max(n/10, 1)
	for i := range sys {
		files = append(files, File{Name: fmt.Sprintf("sys/SYS%04d.yml", i), Data: fmt.Appendf(nil, "level: 1.%d\ntext: |\n  System need %d.\n", i+1, i)})
	}
	for i := range n - sys {
		a, b := rng.IntN(sys), rng.IntN(sys)
		files = append(files, File{Name: fmt.Sprintf("sw/SW%05d.yml", i), Data: fmt.Appendf(nil,
			"level: %d\nlinks:\n- SYS%04d: stamp\n- SYS%04d\ntext: |\n  The software does thing %d within %d ms.\nasil: B\n", i+1, a, b, i, rng.IntN(100))})
	}
	return files
}

// BenchmarkImportDoorstop reports items/s for a 5,000-item tree.
func BenchmarkImportDoorstop(b *testing.B) {
	files := doorstopCorpus(5000)
	b.ReportAllocs()
	items := 0
	for b.Loop() {
		items += len(ImportDoorstop(files).Items)
	}
	b.ReportMetric(float64(items)/b.Elapsed().Seconds(), "items/s")
}

// BenchmarkReqIFRoundTrip reports requirements/s for exporting 5,000
// requirements to ReqIF and importing them back.
func BenchmarkReqIFRoundTrip(b *testing.B) {
	e := &Export{SchemaVersion: 1, ProjectID: "bench"}
	for i := range 5000 {
		r := Row{ID: fmt.Sprintf("R-%d", i), Document: fmt.Sprintf("d%d", i%5), Title: fmt.Sprintf("Requirement %d", i), Normative: true, Text: "Some text."}
		if i >= 5 {
			r.Parents = []Link{{Ref: fmt.Sprintf("requirement:R-%d", i%5), State: "linked"}}
		}
		e.Requirements = append(e.Requirements, r)
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		data, err := e.ReqIF("2026-01-01T00:00:00Z")
		if err != nil {
			b.Fatal(err)
		}
		r, err := ImportReqIF([]File{{Name: "b.reqif", Data: data}})
		if err != nil || len(r.Items) != 5000 {
			b.Fatalf("%v, %d items", err, len(r.Items))
		}
		n += len(r.Items)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "requirements/s")
}

// deepSdoc is StrictDoc nesting n [SECTION]s with a requirement at the
// bottom: the shape of the attack log's I-S10 (20,000 deep, 600 KB).
func deepSdoc(n int) []byte {
	var b bytes.Buffer
	b.WriteString("[DOCUMENT]\nTITLE: N\n")
	for range n {
		b.WriteString("[SECTION]\nTITLE: s\n")
	}
	b.WriteString("[REQUIREMENT]\nUID: N-1\nTITLE: deep\n")
	for range n {
		b.WriteString("[/SECTION]\n")
	}
	return b.Bytes()
}

// BenchmarkStrictDocDeepSections reports the cost of refusing a 20,000
// deep nesting (it stops at MaxDepth, so it costs about one parse).
func BenchmarkStrictDocDeepSections(b *testing.B) {
	files := []File{{Name: "deep.sdoc", Data: deepSdoc(20000)}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ImportStrictDoc(files); err == nil {
			b.Fatal("20,000 nested sections imported")
		}
	}
}
