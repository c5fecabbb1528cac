// Command searchpage times a built site's search page in headless
// Chromium with the CPU throttled (DevTools Emulation.setCPUThrottlingRate,
// 4x by default: the way a phone runs), the goals of issue 25:
//
//   - first result: the time from the start of the navigation to
//     search/index.html?q=QUESTION until the first result is in the list;
//
//   - the index loaded before that: the bytes of the api/search*.js files
//     the page had loaded when the first result showed;
//
//   - per query: the time the page takes to rank and show each question
//     (set the box, fire "input"), p50 and p95: until its first results
//     show, and until all of them do (the page loads the shards a query
//     needs, so this includes loading them).
//
//     go run ./bench/searchpage [-chromium PATH] [-throttle 4] SITE
//
// SITE is a built site's folder; the page is opened from the file system.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// watchFirstResult runs in the page before its scripts: it notes every
// search script that has loaded (a script runs before its "load" event),
// and when the first result enters the list, which had loaded by then.
const watchFirstResult = `
window.__searchScripts = [];
document.addEventListener("load", function (e) {
  var src = e.target && e.target.src;
  if (src && /\/api\/search[^\/]*\.js$/.test(src)) window.__searchScripts.push(src);
}, true);
new MutationObserver(function (_, obs) {
  var li = document.querySelector("#results li");
  if (!li || window.__firstResult) return;
  window.__firstResult = { ms: performance.now(), scripts: window.__searchScripts.slice() };
  obs.disconnect();
}).observe(document, { childList: true, subtree: true });
`

// firstResult is what watchFirstResult notes.
type firstResult struct {
	MS      float64  `json:"ms"`
	Scripts []string `json:"scripts"`
}

func main() {
	chromium := flag.String("chromium", "chromium", "the Chromium `BINARY`")
	throttle := flag.Float64("throttle", 4, "CPU slowdown `FACTOR`")
	file := flag.String("questions", "bench/search/questions.txt", "the questions `FILE` (bench/search's format)")
	firstQ := flag.String("first", "", "the `QUERY` the page opens with (default: the first question); it must find something")
	flag.Parse()
	log.SetFlags(0)
	if flag.NArg() != 1 {
		log.Fatal("usage: searchpage [flags] SITE")
	}
	site, err := filepath.Abs(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	qs, err := readQuestions(*file)
	if err != nil {
		log.Fatal(err)
	}
	profile, err := os.MkdirTemp("", "tracewiki-searchpage-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(profile)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(*chromium), chromedp.Headless,
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.UserDataDir(profile),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(allocCtx)
	defer cancelTab()
	setup := func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		if _, err := cdp.Call(ctx, t, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: *throttle}); err != nil {
			return chromedp.Void{}, err
		}
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: watchFirstResult})
		return chromedp.Void{}, err
	}
	if err := chromedp.Do(tab, setup); err != nil {
		log.Fatalf("start %s: %v", *chromium, err)
	}

	if *firstQ == "" {
		*firstQ = qs[0]
	}
	u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(site) + "/search/index.html", RawQuery: "q=" + url.QueryEscape(*firstQ)}).String()
	if err := chromedp.Do(tab, chromedp.Navigate(u)); err != nil {
		log.Fatalf("open %s: %v", u, err)
	}
	first, err := chromedp.Run(tab, chromedp.Poll[firstResult](`window.__firstResult`, chromedp.WithPollingTimeout(2*time.Minute)))
	if err != nil {
		log.Fatalf("wait for the first result of %q: %v", *firstQ, err)
	}
	var loaded int64
	for _, s := range first.Scripts {
		p, err := url.Parse(s)
		if err != nil {
			log.Fatal(err)
		}
		st, err := os.Stat(p.Path)
		if err != nil {
			log.Fatal(err)
		}
		loaded += st.Size()
	}
	total := int64(0)
	all0, _ := filepath.Glob(filepath.Join(site, "api", "search*.js"))
	for _, f := range all0 {
		st, _ := os.Stat(f)
		total += st.Size()
	}

	// Each question: the time until its first results show (status and
	// list) and until all of them do, excerpts and shards included.
	var took, all []float64
	for _, q := range qs {
		data, _ := json.Marshal(q)
		ms, err := chromedp.Run(tab, chromedp.Evaluate[[2]float64](`(async function () {
			var box = document.getElementById("q"), t = performance.now();
			box.value = `+string(data)+`;
			box.dispatchEvent(new Event("input"));
			await window.tracewikiSearch.shown;
			var shown = performance.now() - t;
			if (!document.querySelector("#status").textContent) throw new Error("no status");
			await window.tracewikiSearch.done;
			return [shown, performance.now() - t];
		})()`, chromedp.EvalAwaitPromise))
		if err != nil {
			log.Fatalf("query %q: %v", q, err)
		}
		took, all = append(took, ms[0]), append(all, ms[1])
	}
	loadedAll := int64(0)
	names, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`window.__searchScripts`))
	if err == nil {
		for _, s := range names {
			if p, err := url.Parse(s); err == nil {
				if st, err := os.Stat(p.Path); err == nil {
					loadedAll += st.Size()
				}
			}
		}
	}
	slices.Sort(took)
	slices.Sort(all)
	at := func(xs []float64, p float64) float64 { return xs[max(0, int(math.Ceil(p*float64(len(xs))))-1)] }
	fmt.Printf("site %s, CPU throttled %gx\n", site, *throttle)
	fmt.Printf("first result of %q: %.0f ms after the navigation started (goal: 1000)\n", *firstQ, first.MS)
	fmt.Printf("index loaded before it: %d scripts, %.2f MB of %d scripts, %.1f MB (goal: at most 2 MB)\n",
		len(first.Scripts), float64(loaded)/1e6, len(all0), float64(total)/1e6)
	fmt.Printf("per query, %d questions, until the first results show: p50 %.1f ms, p95 %.1f ms, max %.1f ms (goal: p95 under 100)\n",
		len(took), at(took, 0.5), at(took, 0.95), took[len(took)-1])
	fmt.Printf("per query, until all results show with their excerpts (or the hint): p50 %.1f ms, p95 %.1f ms, max %.1f ms\n",
		at(all, 0.5), at(all, 0.95), all[len(all)-1])
	fmt.Printf("index loaded after all questions: %d scripts, %.1f MB\n", len(names), float64(loadedAll)/1e6)
}

// readQuestions reads the questions of bench/search's file, without their
// judgements.
func readQuestions(name string) ([]string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var qs []string
	for line := range strings.SplitSeq(string(data), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		q, _, _ := strings.Cut(line, " | ")
		qs = append(qs, strings.TrimSpace(q))
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%s: no questions", name)
	}
	return qs, nil
}
