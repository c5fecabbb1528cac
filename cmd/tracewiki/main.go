package main

import (
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/site"
)

//go:embed doc.go
var doc string

// Exit codes.
const (
	exitOK       = 0
	exitFindings = 1 // findings the flags asked to fail on
	exitBad      = 2 // bad usage or bad input
)

func main() {
	if os.Getenv("GOGC") == "" {
		// The heap grows to 1.8 times what is live, not twice: a build of
		// 11,000 pages peaked at 379-389 MiB instead of 424-428 MiB (and
		// once 494), in the same time within the noise (bench/README).
		debug.SetGCPercent(gcPercent)
	}
	stop := startProfile(os.Stderr)
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// gcPercent is the garbage collector's GOGC unless the environment sets
// one.
const gcPercent = 80

// env is what every command gets: the global flags and the outputs.
type env struct {
	root string
	// rootErr is why no workspace was found for a command that needs
	// one; the command reports it once its flags are parsed, so that its
	// --help works anywhere.
	rootErr        error
	stdin          io.Reader
	stdout, stderr io.Writer
}

// commands maps each command to its implementation.
var commands = map[string]func(e *env, args []string) int{
	"build":        runBuild,
	"symbols":      runSymbols,
	"capture":      runCapture,
	"check":        runCheck,
	"evidence":     runEvidence,
	"neighborhood": runNeighborhood,
	"serve":        runServe,
	"diff":         runDiff,
	"impact":       runImpact,
	"init":         runInit,
	"relink":       runRelink,
	"search":       runSearch,
	"lookup":       runLookup,
	"mcp":          runMCP,
	"review":       runReview,
	"import":       runImport,
	"export":       runExport,
	"changelog":    runChangelog,
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	fs := flag.NewFlagSet("tracewiki", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&e.root, "root", "", "the workspace `DIR` (default: found from the current folder, as git finds its repository)")
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, help(""))
			return exitOK
		}
		fmt.Fprint(stderr, help(""))
		return exitBad
	}
	if fs.NArg() == 0 {
		fmt.Fprint(stderr, help(""))
		return exitBad
	}
	name := fs.Arg(0)
	if name == "help" {
		fmt.Fprint(stdout, help(fs.Arg(1)))
		return exitOK
	}
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "tracewiki: unknown command %q; run \"tracewiki --help\"\n", name)
		return exitBad
	}
	if e.root == "" {
		e.root, e.rootErr = findRoot(name)
	}
	return cmd(e, fs.Args()[1:])
}

// noWorkspace lists the commands that work in the current folder when no
// workspace is found (SPEC 1.5).
var noWorkspace = []string{"init", "import", "symbols", "diff"}

// findRoot finds the workspace from the current folder (SPEC 1.5) and
// returns it relative to the current folder ("." when it is the current
// folder), so paths in messages stay short.
func findRoot(command string) (string, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	root, err := site.FindWorkspace(cwd)
	if errors.Is(err, site.ErrNoWorkspace) && slices.Contains(noWorkspace, command) {
		return ".", nil
	}
	if err != nil {
		return "", err
	}
	if rel, err := filepath.Rel(cwd, root); err == nil {
		return rel, nil
	}
	return root, nil
}

// flags returns a FlagSet for a command whose --help prints the command's
// section of doc.go and its flags on standard output; after a bad flag the
// same text goes to standard error, under the flag package's message.
func (e *env) flags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	out := &flagOutput{w: e.stderr}
	fs.SetOutput(out)
	fs.Usage = func() {
		w := e.stdout
		if out.wrote {
			w = e.stderr
		}
		fmt.Fprint(w, help(name))
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(out)
	}
	return fs
}

// flagOutput is a command's flag output: it passes the flag package's
// error messages to w and remembers that there was one, so that usage
// after an error goes to standard error and --help to standard output.
type flagOutput struct {
	w     io.Writer
	wrote bool
}

func (o *flagOutput) Write(p []byte) (int, error) {
	o.wrote = true
	return o.w.Write(p)
}

// parse parses a command's flags; it returns false and the exit code when
// the command must stop (bad flags, or --help).
func parse(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, false
		}
		return exitBad, false
	}
	return 0, true
}

// parse is [parse] for a command that needs the workspace: after --help
// or a bad flag it stops as parse does, wherever it runs; else, when no
// workspace was found, it reports that.
func (e *env) parse(fs *flag.FlagSet, args []string) (int, bool) {
	if code, ok := parse(fs, args); !ok {
		return code, false
	}
	if e.rootErr != nil {
		return e.fail(e.rootErr), false
	}
	return 0, true
}

// parseInterspersed is [parseInterspersed] with the workspace check of
// [env.parse].
func (e *env) parseInterspersed(fs *flag.FlagSet, args []string) ([]string, int, bool) {
	rest, code, ok := parseInterspersed(fs, args)
	if ok && e.rootErr != nil {
		return nil, e.fail(e.rootErr), false
	}
	return rest, code, ok
}

// fail reports err and returns the exit code for it: content diagnostics are
// printed one per line as file:line:col: code: message.
func (e *env) fail(err error) int {
	if ds, ok := claims.AsDiagnostics(err); ok {
		for _, d := range ds {
			fmt.Fprintln(e.stderr, d)
		}
		fmt.Fprintf(e.stderr, "tracewiki: %d problem%s in the content\n", len(ds), plural(len(ds)))
		return exitBad
	}
	for line := range strings.SplitSeq(err.Error(), "\n") {
		fmt.Fprintf(e.stderr, "tracewiki: %s\n", line)
	}
	return exitBad
}

func (e *env) usage(format string, args ...any) int {
	fmt.Fprintf(e.stderr, "tracewiki: "+format+"\n", args...)
	return exitBad
}

// help returns the help text of a command (its "# name" section of doc.go),
// or the overview before the first section when name is "".
func help(name string) string {
	text := docText()
	sections := strings.Split(text, "\n# ")
	if name == "" {
		return sections[0] + "\n"
	}
	for _, s := range sections[1:] {
		if title, body, _ := strings.Cut(s, "\n"); title == name {
			return strings.Trim(body, "\n") + "\n"
		}
	}
	return sections[0] + "\n"
}

// docText is the package comment of doc.go, without the comment markers.
func docText() string {
	start := strings.Index(doc, "/*\n")
	end := strings.Index(doc, "*/")
	if start < 0 || end < start {
		return ""
	}
	return strings.TrimSpace(doc[start+3 : end])
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
