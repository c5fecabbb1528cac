/*
Tracewiki builds a traceability wiki from a repository: wiki pages,
requirements, decisions and test evidence, with code anchors on every claim
that points at code, and drift checks that say what fell out of date.

Usage:

	tracewiki [--root DIR] COMMAND [flags] [args]

The workspace is --root (default "."); every path is relative to it and
nothing outside it is read. Configuration is the optional tracewiki.toml at
the root. Run "tracewiki COMMAND --help" for a command's flags.

Commands:

	symbols     print the symbols of source files
	capture     (re)capture code anchors into the lock file
	check       report the drift of every link
	evidence    record test evidence from a test report
	neighborhood  print the graph around a file, requirement or decision

Exit codes: 0 ok; 1 findings that --fail-on asked to fail on; 2 bad usage or
bad input, reported as file:line: message.

# symbols

	tracewiki symbols [--json] FILE...

Symbols prints the symbols tracewiki finds in each file, as targets are
written (PATH@SYMBOL), with their kind and line range. With --json it prints
[{"path","symbol","kind","start","end"}]. A file that does not parse is an
error naming file:line:col.

# capture

	tracewiki capture [--stale] [--by WHO] [REF...]

Capture resolves code targets and records their anchors in the lock file:
path, symbol, line range, text and token hashes, parser, captured text, when
and by whom. It is the explicit "I reviewed this code" action. With REFs it
(re)captures exactly those targets. Without, it captures every target the
content references that was never captured; --stale also recaptures every
target that is not linked. --by defaults to git's user.email. A target that
cannot be captured is named with its reason and gets no anchor; the exit code
is then 2.

# check

	tracewiki check [--format text|json] [--fail-on stale|unknown] [--lang en|es]

Check reports the live state of every link: each code target referenced by
a claim or a requirement, and each evidence entry. States are linked, stale
and unknown, with a reason and its why in the configured language. --fail-on
(repeatable, or comma-separated) exits 1 when a link has that state.

# evidence

	tracewiki evidence --run ID --report FILE|- [--by WHO]

Evidence reads a test report (JUnit XML or go test -json; FILE is in the
workspace, - reads standard input) and records, for
every requirement whose linked tests all appear in it, an evidence entry
against the requirement's current revision, with each test's outcome. A
failed test is recorded as failed and never verifies a requirement.
# neighborhood

	tracewiki neighborhood [--path P] [--req K] [--issue K] [--depth N]

Neighborhood prints, as JSON, the part of the traceability graph around a
file (its symbols and the requirements that target it), a requirement and/or
a decision, breadth-first to --depth hops (1 to 3; other values are clamped,
and the JSON says which depth was used). Nodes are requirements, decisions,
symbols, tests, runs, pages and files; edges are declared (written in the
content), located (found in the code, or a decision mentioning a path or
id: hints) or verified (evidence for the requirement's current revision).
Every node and edge says whether it is stale and why. A key that does not
exist is listed in "unknown". At most 400 nodes and 800 edges ("truncated"
says when the answer was cut).
*/
package main
