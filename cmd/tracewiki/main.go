package main

import (
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
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
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// env is what every command gets: the global flags and the outputs.
type env struct {
	root           string
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
	"search":       runSearch,
	"lookup":       runLookup,
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	fs := flag.NewFlagSet("tracewiki", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&e.root, "root", ".", "the workspace `DIR`")
	fs.Usage = func() { fmt.Fprint(stderr, help("")) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
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
	return cmd(e, fs.Args()[1:])
}

// flags returns a FlagSet for a command whose --help prints the command's
// section of doc.go.
func (e *env) flags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprint(e.stderr, help(name))
		fmt.Fprintln(e.stderr, "\nFlags:")
		fs.PrintDefaults()
	}
	return fs
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
