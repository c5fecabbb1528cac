package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site"
	"github.com/tracewiki/tracewiki/synth"
)

func runSymbols(e *env, args []string) int {
	fs := e.flags("symbols")
	asJSON := fs.Bool("json", false, "print JSON")
	if code, ok := e.parse(fs, args); !ok {
		return code
	}
	if fs.NArg() == 0 {
		return e.usage("symbols: no FILE given")
	}
	syms, notes, err := site.Symbols(fs.Args())
	for _, n := range notes {
		fmt.Fprintf(e.stderr, "tracewiki: %s\n", n)
	}
	if err != nil {
		return e.fail(err)
	}
	if *asJSON {
		return e.writeJSON(syms)
	}
	for _, s := range syms {
		fmt.Fprintf(e.stdout, "%s@%s\t%s\t%d-%d\n", s.Path, s.Symbol, s.Kind, s.Start, s.End)
	}
	return exitOK
}

func runCapture(e *env, args []string) int {
	fs := e.flags("capture")
	var opts site.CaptureOptions
	fs.BoolVar(&opts.Stale, "stale", false, "also recapture every referenced target that is not linked")
	fs.StringVar(&opts.By, "by", "", "who vouches for the capture (default: git's user.email)")
	waivers := fs.Bool("waivers", false, "re-arm the expired waivers of the requirement ids and code paths given (default: all), instead of capturing targets")
	if code, ok := e.parse(fs, args); !ok {
		return code
	}
	opts.Refs = fs.Args()
	if *waivers && opts.Stale {
		return e.usage("capture: --waivers and --stale do not go together")
	}
	p, err := site.Load(e.root)
	if err != nil {
		return e.fail(err)
	}
	defer p.Close()
	if *waivers {
		keys, err := p.RearmWaivers(opts.Refs, opts.By, e.stderr)
		if err != nil {
			return e.fail(err)
		}
		for _, k := range keys {
			fmt.Fprintf(e.stdout, "re-armed waiver %s\n", k)
		}
		if len(keys) == 0 {
			fmt.Fprintln(e.stdout, "no waiver to re-arm: every waiver matches what it justifies")
		}
		return exitOK
	}
	res, err := p.Capture(opts, e.stderr)
	if err != nil {
		return e.fail(err)
	}
	fmt.Fprint(e.stdout, res)
	if len(res.Failed) > 0 {
		fmt.Fprintf(e.stderr, "tracewiki: %d target%s not captured\n", len(res.Failed), plural(len(res.Failed)))
		return exitBad
	}
	return exitOK
}

func runCheck(e *env, args []string) int {
	fs := e.flags("check")
	format := fs.String("format", "text", "output `format`: "+strings.Join(checkFormats, ", "))
	lang := fs.String("lang", "", "message language, en or es (default: the config's language)")
	all := fs.Bool("all", false, "text format: list the linked links too, after the problems")
	strict := fs.Bool("strict", false, strictUsage)
	failOn := failOnFlag(fs, failOnCoverage, failOnPolicy)
	cov := coverageFlags(fs)
	if code, ok := e.parse(fs, args); !ok {
		return code
	}
	if !slices.Contains(checkFormats, *format) {
		return e.usage("check: --format %q: want one of %s", *format, strings.Join(checkFormats, ", "))
	}
	if fs.NArg() > 0 {
		return e.usage("check: unexpected arguments %q", fs.Args())
	}
	p, err := site.Load(e.root)
	if err != nil {
		return e.fail(err)
	}
	defer p.Close()
	if *strict {
		if err := p.StrictExternals(); err != nil {
			return e.fail(err)
		}
	}
	gate := cov.asked(failOn)
	if gate {
		if code := cov.prepare(e, p); code != exitOK {
			return code
		}
	}
	var f *synth.Findings
	var c synth.CoverageJSON
	if gate {
		f, c, err = p.FindingsAndCoverage(*lang)
	} else {
		f, err = p.Findings(*lang)
	}
	if err != nil {
		return e.fail(err)
	}
	out := synth.NewCheckReport(f)
	if code := writeCheck(e, f, out, *format, *all); code != exitOK {
		return code
	}
	covCode := exitOK
	if gate {
		covCode = cov.run(e, p, c, *format == "text")
	}
	return max(e.failOn(out, *failOn), covCode)
}

// failOnPolicy is the --fail-on name of the policy's findings (SPEC 1.7):
// violated entries and expired waivers. Only check judges the policy.
const failOnPolicy = "policy"

// failOnFlag declares --fail-on: the link states and reasons that make the
// command exit 1, and the command's own gates (extra: check's coverage
// and policy).
func failOnFlag(fs *flag.FlagSet, extra ...string) *[]string {
	var names []string
	usage := "exit 1 when a link has one of these states or reasons, a comma `list` (stale, unknown, target_missing, ...; repeatable)"
	if slices.Contains(extra, failOnPolicy) {
		usage += "; policy: when a requirement violates a policy rule or its waiver expired"
	}
	if slices.Contains(extra, failOnCoverage) {
		usage += "; coverage: when the covered share of the code is below [coverage] min or --base-coverage's"
	}
	fs.Func("fail-on", usage, func(s string) error {
		for v := range strings.SplitSeq(s, ",") {
			v = strings.TrimSpace(v)
			if v == failOnPolicy || v == failOnCoverage {
				if !slices.Contains(extra, v) {
					return fmt.Errorf("%q is judged by check: use tracewiki check --fail-on %s", v, v)
				}
				names = append(names, v)
				continue
			}
			_, isReason := codeanchors.ParseReason(v)
			if v == string(codeanchors.Superseded) {
				return fmt.Errorf("%q: superseded evidence entries are history, never a finding; fail on stale or a reason instead", v)
			}
			if v != string(codeanchors.Stale) && v != string(codeanchors.Unknown) && !isReason {
				return fmt.Errorf("%q is neither a state (stale, unknown) nor a reason (%s)", v, reasonList())
			}
			names = append(names, v)
		}
		return nil
	})
	return &names
}

// reasonList is every reason, comma-separated, for messages.
func reasonList() string {
	var rs []string
	for _, r := range codeanchors.Reasons {
		rs = append(rs, string(r))
	}
	return strings.Join(rs, ", ")
}

// failOn reports the links in the given states or with the given reasons,
// and returns exit code 1 when there are any.
// counter is what --fail-on asks of a check report.
type counter interface {
	Count(codeanchors.State) int
	CountReason(codeanchors.Reason) int
}

func (e *env) failOn(rep counter, names []string) int {
	code := exitOK
	for _, s := range slices.Compact(slices.Sorted(slices.Values(names))) {
		if p, ok := rep.(interface{ CountPolicy() int }); ok && s == failOnPolicy {
			if n := p.CountPolicy(); n > 0 {
				fmt.Fprintf(e.stderr, "tracewiki: %d policy finding%s (violated or waiver expired)\n", n, plural(n))
				code = exitFindings
			}
			continue
		}
		n, what := rep.Count(codeanchors.State(s)), " link"
		if _, ok := codeanchors.ParseReason(s); ok {
			n, what = rep.CountReason(codeanchors.Reason(s)), " link"
		}
		if n > 0 {
			fmt.Fprintf(e.stderr, "tracewiki: %d %s%s%s\n", n, s, what, plural(n))
			code = exitFindings
		}
	}
	return code
}

func runEvidence(e *env, args []string) int {
	fs := e.flags("evidence")
	run := fs.String("run", "", "the run `ID` (required)")
	report := fs.String("report", "", "the test report `FILE` (relative to the current folder, or absolute), or - for stdin: JUnit XML or go test -json (required)")
	by := fs.String("by", "", "who records the evidence (default: git's user.email)")
	if code, ok := e.parse(fs, args); !ok {
		return code
	}
	if *run == "" || *report == "" {
		return e.usage("evidence: --run and --report are required")
	}
	p, err := site.Load(e.root)
	if err != nil {
		return e.fail(err)
	}
	defer p.Close()
	// The report is a command-line path: read as given, like any tool
	// would, not confined to the workspace (SPEC 1.5).
	var data []byte
	if *report == "-" {
		data, err = io.ReadAll(io.LimitReader(e.stdin, codeanchors.MaxReportSize+1))
		if err == nil && len(data) > codeanchors.MaxReportSize {
			err = fmt.Errorf("standard input: more than the %d bytes a report may have", codeanchors.MaxReportSize)
		}
	} else {
		data, err = site.ReadFileLimit(*report, codeanchors.MaxReportSize)
	}
	if err != nil {
		return e.fail(err)
	}
	res, err := p.RecordEvidence(*run, *report, data, *by, e.stderr)
	if err != nil {
		return e.fail(err)
	}
	for _, ev := range res.Recorded {
		verdict := "passed"
		if !ev.Passed() {
			verdict = "FAILED"
		}
		fmt.Fprintf(e.stdout, "recorded %s for %s: %d test%s %s\n", ev.Run, ev.Req, len(ev.Tests), plural(len(ev.Tests)), verdict)
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(e.stdout, "skipped %s\n", s)
	}
	return exitOK
}

func (e *env) writeJSON(v any) int {
	data, err := synth.MarshalJSON(v)
	if err != nil {
		return e.fail(err)
	}
	e.stdout.Write(data)
	return exitOK
}

func runNeighborhood(e *env, args []string) int {
	fs := e.flags("neighborhood")
	var q synth.Query
	fs.StringVar(&q.Path, "path", "", "a workspace `file`")
	fs.StringVar(&q.ReqKey, "req", "", "a requirement `id`")
	fs.StringVar(&q.IssueKey, "issue", "", "a decision `id`")
	fs.IntVar(&q.Depth, "depth", synth.DefaultDepth, "hops from the starting points, clamped to 1-3")
	if code, ok := e.parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return e.usage("neighborhood: unexpected arguments %q", fs.Args())
	}
	p, err := site.Load(e.root)
	if err != nil {
		return e.fail(err)
	}
	defer p.Close()
	g, _, err := p.Graph()
	if err != nil {
		return e.fail(err)
	}
	return e.writeJSON(g.Neighborhood(q))
}

// strictUsage is the help of --strict, for build and check.
const strictUsage = "release: an external ([[externals]]) that is not pinned, changed since pinned or unreadable is an error (exit 2)"

func runBuild(e *env, args []string) int {
	fs := e.flags("build")
	var opts site.BuildOptions
	out := fs.String("out", "", "the output `DIR` (default: the config's output, public)")
	fs.StringVar(&opts.BaseURL, "base-url", "", "the `URL` path the site is served under (default: the config's baseURL)")
	fs.BoolVar(&opts.Frozen, "frozen", false, "do not capture new targets; report them as unknown")
	fs.StringVar(&opts.By, "by", "", "who vouches for captures of new targets (default: git's user.email)")
	fs.StringVar(&opts.Commit, "commit", "", "the commit `REV` forge links point at (default: git's HEAD)")
	strict := fs.Bool("strict", false, strictUsage)
	failOn := failOnFlag(fs)
	openCache := cacheFlags(fs)
	if code, ok := e.parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return e.usage("build: unexpected arguments %q", fs.Args())
	}
	opts.Release = true // one build per process: nothing judges its sources again
	cache, err := openCache(e.stderr)
	if errors.Is(err, errCacheFlags) {
		return e.usage("build: %v", err)
	}
	if err != nil {
		return e.fail(err)
	}
	opts.Cache = cache
	restored := func(note string) { fmt.Fprintf(e.stderr, "tracewiki: %s\n", note) }
	if *strict {
		// A release build: every external pinned and as pinned, before
		// anything is built or written.
		p, err := site.Load(e.root)
		if err != nil {
			return e.fail(err)
		}
		err = p.StrictExternals()
		p.Close()
		if err != nil {
			return e.fail(err)
		}
	}
	b, err := site.Build(e.root, *out, opts, e.stderr, restored)
	if err != nil {
		return e.fail(err)
	}
	var rep counter = b.Counts // the last build's, when its records stood in
	if b.Check != nil {
		rep = b.Check
	}
	e.printBuilt(b.Pages, b.Dir, rep)
	return e.failOn(rep, *failOn)
}

// printBuilt says what a build made.
func (e *env) printBuilt(pages int, dir string, c counter) {
	fmt.Fprintf(e.stdout, "built %d pages into %s: %d links linked, %d stale, %d unknown\n",
		pages, dir, c.Count(codeanchors.Linked), c.Count(codeanchors.Stale), c.Count(codeanchors.Unknown))
}
