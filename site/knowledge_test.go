package site

import (
	"cmp"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/tracewiki/tracewiki/synth"
)

// BenchmarkKnowledge measures search and lookup on the workspace named by
// TRACEWIKI_SERVE_SITE (bench/run.sh sets it to bench/gen's 11,000-page
// site), as the MCP server answers them: after one analysis, per query.
// TRACEWIKI_BENCH_QUERY (default "ledger limit") is the search,
// TRACEWIKI_BENCH_ID (default REQ-1) the lookup; the lookup's size is
// reported in tokens (bytes/4) with and without a 500-token budget.
func BenchmarkKnowledge(b *testing.B) {
	dir := os.Getenv("TRACEWIKI_SERVE_SITE")
	if dir == "" {
		b.Skip("TRACEWIKI_SERVE_SITE is not set")
	}
	start := time.Now()
	p, err := Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	k, err := p.Knowledge()
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("analyzed %s in %v: %d nodes", dir, time.Since(start).Round(time.Millisecond), len(k.Graph().Nodes))
	query := cmp.Or(os.Getenv("TRACEWIKI_BENCH_QUERY"), "ledger limit")
	id := cmp.Or(os.Getenv("TRACEWIKI_BENCH_ID"), "REQ-1")
	perQuery := func(b *testing.B, fn func()) {
		b.ReportAllocs()
		var took []time.Duration
		for b.Loop() {
			t := time.Now()
			fn()
			took = append(took, time.Since(t))
		}
		slices.Sort(took)
		b.ReportMetric(float64(took[len(took)/2].Microseconds()), "µs-median/query")
	}
	b.Run("search", func(b *testing.B) {
		perQuery(b, func() { k.Search(query, synth.SearchOptions{}) })
		b.ReportMetric(float64(k.Search(query, synth.SearchOptions{}).Count), "matches")
	})
	for _, depth := range []int{1, 3} {
		for _, budget := range []int{0, 500} {
			name := "lookup-depth" + string(rune('0'+depth))
			if budget > 0 {
				name += "-budget500"
			}
			b.Run(name, func(b *testing.B) {
				o := synth.LookupOptions{Depth: depth, Budget: budget}
				data, err := synth.MarshalCompact(k.Lookup(id, o))
				if err != nil {
					b.Fatal(err)
				}
				perQuery(b, func() { k.Lookup(id, o) })
				b.ReportMetric(float64(synth.EstimateTokens(data)), "tokens")
			})
		}
	}
}
