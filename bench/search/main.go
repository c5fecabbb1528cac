// Command search measures tracewiki search (issue 25) two ways.
//
// Retrieval: it imports StrictDoc's own documentation into a temporary
// workspace ("tracewiki import strictdoc DOCS"; read from there, never
// copied into the repository), asks "tracewiki search" each question of
// bench/search/questions.txt, and scores the top 10 against the ids the
// file judges right: MRR@10, recall@5 and the share of questions with no
// result. It scores a plain BM25 baseline the same way, on the same nodes
// (api/search.json of a build): one field of all the node's text, words
// lower-cased and split at non-letters, no stemming, no stop words, no
// typo correction, ties by id.
//
//	go run ./bench/search -tracewiki BIN [-docs DIR]
//
// Without -docs it looks for ../shared/data/strictdoc-0.26.0/docs and
// ../../shared/... from the current folder, and skips with a message when
// neither is there.
//
// Latency: with -latency WORKSPACE it asks "tracewiki search" each
// question in that workspace instead (a built 11k benchmark workspace, say)
// and prints the p50 and p95 of the command's wall time.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
)

// Benchmark constants: the cut-offs of the figures and BM25's.
const (
	rankDepth   = 10 // MRR@10
	recallDepth = 5  // recall@5
	bm25K1      = 1.2
	bm25B       = 0.75
)

// question is one line of questions.txt.
type question struct {
	text  string
	right []string // node ids, "requirement:" added
}

func main() {
	bin := flag.String("tracewiki", "tracewiki", "the tracewiki `BINARY`")
	docs := flag.String("docs", "", "StrictDoc's docs `DIR` (default: ../shared/data/strictdoc-0.26.0/docs, ../../shared/...)")
	file := flag.String("questions", "bench/search/questions.txt", "the questions `FILE`")
	latency := flag.String("latency", "", "time the questions in this `WORKSPACE` instead")
	flag.Parse()
	log.SetFlags(0)
	qs, err := readQuestions(*file)
	if err != nil {
		log.Fatal(err)
	}
	if *latency != "" {
		timeCLI(*bin, *latency, qs)
		return
	}
	if *docs == "" {
		*docs = findDocs()
		if *docs == "" {
			fmt.Println("bench/search: skipped: StrictDoc's docs are not at ../shared/data/strictdoc-0.26.0/docs (give -docs DIR)")
			return
		}
	}
	retrieval(*bin, *docs, qs)
}

// findDocs returns the first of the usual places of StrictDoc's docs that
// exists, or "".
func findDocs() string {
	for _, dir := range []string{"../shared", "../../shared"} {
		p := filepath.Join(dir, "data", "strictdoc-0.26.0", "docs")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			abs, _ := filepath.Abs(p)
			return abs
		}
	}
	return ""
}

// readQuestions reads "QUESTION | ID ID…" lines; # lines and blank lines
// are skipped.
func readQuestions(name string) ([]question, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var qs []question
	for i, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		text, ids, ok := strings.Cut(line, " | ")
		if !ok || strings.TrimSpace(ids) == "" {
			return nil, fmt.Errorf("%s:%d: want QUESTION | ID…", name, i+1)
		}
		q := question{text: strings.TrimSpace(text)}
		for _, id := range strings.Fields(ids) {
			q.right = append(q.right, "requirement:"+id)
		}
		qs = append(qs, q)
	}
	return qs, nil
}

// answer is what the benchmark reads of "tracewiki search".
type answer struct {
	Terms   []string `json:"terms"`
	Count   int      `json:"count"`
	Results []struct {
		ID string `json:"id"`
	} `json:"results"`
}

// search runs "tracewiki search" in workspace ws and returns its answer
// and wall time.
func search(bin, ws, q string) (answer, time.Duration) {
	start := time.Now()
	out, err := exec.Command(bin, "--root", ws, "search", "--limit", fmt.Sprint(rankDepth), "--", q).Output()
	took := time.Since(start)
	if err != nil {
		log.Fatalf("tracewiki search %q: %v", q, err)
	}
	var a answer
	if err := json.Unmarshal(out, &a); err != nil {
		log.Fatalf("tracewiki search %q: %v", q, err)
	}
	return a, took
}

// retrieval imports the docs, builds, and prints the figures of both
// rankings.
func retrieval(bin, docs string, qs []question) {
	ws, err := os.MkdirTemp("", "tracewiki-bench-search-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(ws)
	must(os.WriteFile(filepath.Join(ws, "tracewiki.toml"), []byte("title = \"StrictDoc\"\n"), 0o644))
	run(bin, ws, "import", "strictdoc", docs)
	out := filepath.Join(ws, "public")
	run(bin, ws, "build", "--no-cache", "--out", out)
	base := newBM25(readEntries(filepath.Join(out, "api", "search.json")))
	fmt.Printf("corpus: %s, %d nodes; %d questions\n", docs, len(base.docs), len(qs))

	var ours, theirs figures
	var took []time.Duration
	for _, q := range qs {
		a, d := search(bin, ws, q.text)
		took = append(took, d)
		var ids []string
		for _, r := range a.Results {
			ids = append(ids, r.ID)
		}
		ours.add(q, ids, a.Count)
		if a.Count == 0 && slices.ContainsFunc(a.Terms, base.has) {
			ours.emptyButKnown = append(ours.emptyButKnown, q.text)
		}
		bids, bcount := base.rank(q.text)
		theirs.add(q, bids, bcount)
		fmt.Printf("%-55.55s tracewiki %s  bm25 %s\n", q.text, rankOf(q, ids), rankOf(q, bids))
	}
	fmt.Println()
	ours.print("tracewiki search")
	theirs.print("plain BM25 (no stemming, no stop words)")
	fmt.Printf("MRR@10 gain over the baseline: %+.3f (goal: at least +0.05)\n", ours.mrr()-theirs.mrr())
	fmt.Printf("questions with no result whose words occur in the corpus: %d %q (goal: 0)\n", len(ours.emptyButKnown), ours.emptyButKnown)
	p50, p95 := percentiles(took)
	fmt.Printf("CLI wall time per question on this corpus: p50 %v, p95 %v\n", p50, p95)
}

// rankOf is the rank of the first right id in ids, or "-".
func rankOf(q question, ids []string) string {
	for i, id := range ids {
		if slices.Contains(q.right, id) {
			return fmt.Sprintf("%2d", i+1)
		}
	}
	return " -"
}

// figures add up one ranking's scores over the questions.
type figures struct {
	n, empty      int
	rr, recall    float64
	emptyButKnown []string
}

func (f *figures) add(q question, ids []string, count int) {
	f.n++
	if count == 0 {
		f.empty++
	}
	for i, id := range ids[:min(len(ids), rankDepth)] {
		if slices.Contains(q.right, id) {
			f.rr += 1 / float64(i+1)
			break
		}
	}
	found := 0
	for _, id := range ids[:min(len(ids), recallDepth)] {
		if slices.Contains(q.right, id) {
			found++
		}
	}
	f.recall += float64(found) / float64(len(q.right))
}

func (f *figures) mrr() float64 { return f.rr / float64(f.n) }

func (f *figures) print(name string) {
	fmt.Printf("%-40s MRR@10 %.3f  recall@5 %.3f  zero-result rate %.3f (%d of %d)\n",
		name, f.mrr(), f.recall/float64(f.n), float64(f.empty)/float64(f.n), f.empty, f.n)
}

// timeCLI asks each question in ws and prints the percentiles.
func timeCLI(bin, ws string, qs []question) {
	search(bin, ws, qs[0].text) // warm the file cache
	var took []time.Duration
	for _, q := range qs {
		_, d := search(bin, ws, q.text)
		took = append(took, d)
	}
	p50, p95 := percentiles(took)
	fmt.Printf("tracewiki search in %s, %d questions: p50 %v, p95 %v, max %v\n", ws, len(qs), p50, p95, slices.Max(took))
}

// percentiles are the nearest-rank p50 and p95 of ds.
func percentiles(ds []time.Duration) (time.Duration, time.Duration) {
	s := slices.Clone(ds)
	slices.Sort(s)
	at := func(p float64) time.Duration {
		return s[max(0, int(math.Ceil(p*float64(len(s))))-1)].Round(time.Millisecond)
	}
	return at(0.50), at(0.95)
}

func run(bin, ws string, args ...string) {
	cmd := exec.Command(bin, append([]string{"--root", ws}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		log.Fatalf("tracewiki %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

// entry is what the baseline reads of a node of api/search.json.
type entry struct {
	ID       string   `json:"id"` // "type:key"
	Title    string   `json:"title"`
	Headings []string `json:"headings"`
	Text     string   `json:"text"`
	Code     []string `json:"code"`
}

func readEntries(name string) []entry {
	f, err := os.Open(name)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	var s struct {
		Entries []entry `json:"entries"`
	}
	if err := json.NewDecoder(bufio.NewReader(f)).Decode(&s); err != nil {
		log.Fatalf("%s: %v", name, err)
	}
	return s.Entries
}

// bm25 is the baseline: one bag of words per node.
type bm25 struct {
	docs   []string         // node ids
	tf     []map[string]int // per node: word → count
	length []int
	avg    float64
	df     map[string]int
}

// words lower-cases s and splits it at everything but letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
}

func newBM25(es []entry) *bm25 {
	b := &bm25{df: map[string]int{}}
	total := 0
	for _, e := range es {
		id := e.ID
		text := strings.Join(append([]string{id, e.Title, e.Text}, append(e.Headings, e.Code...)...), " ")
		tf := map[string]int{}
		ws := words(text)
		for _, w := range ws {
			if tf[w] == 0 {
				b.df[w]++
			}
			tf[w]++
		}
		b.docs = append(b.docs, id)
		b.tf = append(b.tf, tf)
		b.length = append(b.length, len(ws))
		total += len(ws)
	}
	b.avg = float64(total) / float64(max(1, len(es)))
	return b
}

// has reports whether word occurs in the corpus as written (lower case).
func (b *bm25) has(word string) bool { return b.df[word] > 0 }

// rank returns the top rankDepth ids for q and how many nodes match.
func (b *bm25) rank(q string) ([]string, int) {
	type scored struct {
		i     int
		score float64
	}
	var out []scored
	n := float64(len(b.docs))
	terms := slices.Compact(slices.Sorted(slices.Values(words(q))))
	for i, tf := range b.tf {
		s := 0.0
		for _, t := range terms {
			f := float64(tf[t])
			if f == 0 {
				continue
			}
			df := float64(b.df[t])
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			s += idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*float64(b.length[i])/b.avg))
		}
		if s > 0 {
			out = append(out, scored{i, s})
		}
	}
	slices.SortFunc(out, func(x, y scored) int {
		return cmp.Or(cmp.Compare(y.score, x.score), strings.Compare(b.docs[x.i], b.docs[y.i]))
	})
	var ids []string
	for _, s := range out[:min(len(out), rankDepth)] {
		ids = append(ids, b.docs[s.i])
	}
	return ids, len(out)
}
