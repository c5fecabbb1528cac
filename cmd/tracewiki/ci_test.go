package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// workflowFile is the example CI workflow of docs/ci.md.
const workflowFile = "../../.github/workflows/tracewiki.yml"

type workflow struct {
	On   map[string]any    `yaml:"on"`
	Env  map[string]string `yaml:"env"`
	Jobs map[string]struct {
		Env   map[string]string `yaml:"env"`
		Steps []workflowStep    `yaml:"steps"`
	} `yaml:"jobs"`
}

type workflowStep struct {
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	With map[string]any    `yaml:"with"`
	Env  map[string]string `yaml:"env"`
}

// TestWorkflow keeps the example workflow from rotting: it has the steps
// docs/ci.md describes, every tracewiki command in it uses only commands
// and flags the CLI accepts, written so that the flag package parses them,
// and the commands, run in order on a small repository whose pull request
// made a link stale, do what the workflow expects of them.
func TestWorkflow(t *testing.T) {
	data, err := os.ReadFile(workflowFile)
	if err != nil {
		t.Fatal(err)
	}
	var wf workflow
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatalf("%s: %v", workflowFile, err)
	}
	if _, ok := wf.On["pull_request"]; !ok {
		t.Errorf("%s: not run on pull_request", workflowFile)
	}
	if len(wf.Jobs) != 1 {
		t.Fatalf("%s: %d jobs, want 1", workflowFile, len(wf.Jobs))
	}
	var steps []workflowStep
	for _, j := range wf.Jobs {
		steps = j.Steps
	}
	uses := map[string]workflowStep{}
	var scripts []string
	for _, s := range steps {
		if s.Uses != "" {
			uses[strings.Split(s.Uses, "@")[0]] = s
		}
		if s.Run != "" {
			scripts = append(scripts, s.Run)
		}
	}
	for _, action := range []string{"actions/checkout", "actions/setup-go", "github/codeql-action/upload-sarif", "actions/upload-artifact", "actions/github-script"} {
		if _, ok := uses[action]; !ok {
			t.Errorf("%s: no step uses %s", workflowFile, action)
		}
	}
	if d := fmt.Sprint(uses["actions/checkout"].With["fetch-depth"]); d != "0" {
		t.Errorf("checkout: fetch-depth %s, want 0 (the base commit is built too)", d)
	}
	all := strings.Join(scripts, "\n")
	for _, want := range []string{"go install " + module + "/cmd/tracewiki@latest", "git worktree add"} {
		if !strings.Contains(all, want) {
			t.Errorf("%s: no step runs %q", workflowFile, want)
		}
	}

	// The commands, in order, with the shell's variables as a runner sets
	// them, in a repository whose base built fine and whose pull request
	// changed the code under a claim.
	tmp := t.TempDir()
	runner, ws := filepath.Join(tmp, "runner"), filepath.Join(tmp, "ws")
	vars := map[string]string{"RUNNER_TEMP": runner, "GITHUB_STEP_SUMMARY": filepath.Join(tmp, "summary.md")}
	for k, v := range wf.Env {
		vars[k] = githubExpr(v)
	}
	var cmds []shellCmd
	for _, s := range scripts {
		cs, err := shellCommands(githubExpr(s), vars)
		if err != nil {
			t.Fatalf("%s: %v in\n%s", workflowFile, err, s)
		}
		cmds = append(cmds, cs...)
	}
	var invocations []shellCmd
	for _, c := range cmds {
		if c.args[0] == "tracewiki" {
			if err := checkInvocation(c.args[1:]); err != nil {
				t.Errorf("%s: %s: %v", workflowFile, strings.Join(c.args, " "), err)
			}
			invocations = append(invocations, c)
		}
	}
	if t.Failed() {
		return
	}
	var names []string
	for _, c := range invocations {
		names = append(names, strings.Join(c.args, " "))
	}
	for _, want := range []string{"build --frozen --out", "build --frozen --base-url /shop/pr-7/", "diff --format markdown --preview-url", "check --format sarif", "check --format github --fail-on stale,target_missing"} {
		if !slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, want) }) {
			t.Errorf("%s: no command runs tracewiki %s", workflowFile, want)
		}
	}

	writeWorkspace(t, ws)
	t.Chdir(ws)
	if code := run([]string{"capture", "--by", "ci@example.com"}, nil, &bytes.Buffer{}, &bytes.Buffer{}); code != exitOK {
		t.Fatalf("capture: exit %d", code)
	}
	// The base branch, as git worktree would check it out.
	if err := os.CopyFS(filepath.Join(runner, "base"), os.DirFS(ws)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("shop/price.go", []byte("package shop\n\nfunc Price(n int) int { return n * 1000 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var annotations string
	for _, c := range invocations {
		var stdout, stderr bytes.Buffer
		code := run(c.args[1:], nil, &stdout, &stderr)
		want := exitOK
		if slices.Contains(c.args, "--fail-on") {
			want = exitFindings // the pull request made a link stale
		}
		if code != want {
			t.Fatalf("%s: exit %d, want %d\n%s", strings.Join(c.args, " "), code, want, stderr.String())
		}
		if c.stdout != "" {
			if err := os.WriteFile(c.stdout, stdout.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if slices.Contains(c.args, "github") {
			annotations = stdout.String()
		}
	}
	sarif, err := os.ReadFile(uses["github/codeql-action/upload-sarif"].With["sarif_file"].(string))
	if err != nil || !json.Valid(sarif) || !bytes.Contains(sarif, []byte(`"ruleId": "content_changed"`)) {
		t.Errorf("the uploaded SARIF file is not a log with the stale link (%v):\n%s", err, sarif)
	}
	if !strings.HasPrefix(annotations, "::warning file=shop/price.go,line=3,title=tracewiki%3A content_changed::") {
		t.Errorf("annotations:\n%s", annotations)
	}
	diff, err := os.ReadFile(filepath.Join(runner, "tracewiki-diff.md"))
	if err != nil || !bytes.Contains(diff, []byte("shop/price.go@Price")) {
		t.Errorf("the diff comment does not name the stale link (%v):\n%s", err, diff)
	}
}

// writeWorkspace writes a repository with one claim on one function.
func writeWorkspace(t *testing.T, dir string) {
	t.Helper()
	for name, text := range map[string]string{
		"go.mod":           "module example.com/shop\n\ngo 1.26\n",
		"shop/price.go":    "package shop\n\nfunc Price(n int) int { return n * 100 }\n",
		"content/guide.md": "# Guide\n\nPrices are in cents ([code](code:shop/price.go@Price)).\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// githubExpr replaces the ${{ ... }} expressions the runner evaluates
// before the shell runs, with the values of pull request 7 of acme/shop.
func githubExpr(s string) string {
	values := map[string]string{
		"github.event.number":                "7",
		"github.event.repository.name":       "shop",
		"github.repository_owner":            "acme",
		"github.event.pull_request.base.sha": "0123456789abcdef0123456789abcdef01234567",
	}
	return regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`).ReplaceAllStringFunc(s, func(m string) string {
		expr := regexp.MustCompile(`^\$\{\{\s*|\s*\}\}$`).ReplaceAllString(m, "")
		if v, ok := values[expr]; ok {
			return v
		}
		return "expr"
	})
}

// checkInvocation checks the arguments of one tracewiki command line: the
// global flags and the command's flags are ones the CLI defines, the flags
// come before the arguments (the flag package stops at the first argument,
// and would take a later flag for one), and the real parser accepts them.
func checkInvocation(args []string) error {
	var globals []string
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		if args[0] != "--root" || len(args) < 2 {
			return fmt.Errorf("global flag %s: only --root DIR is defined", args[0])
		}
		globals, args = append(globals, args[:2]...), args[2:]
	}
	if len(args) == 0 {
		return fmt.Errorf("no command")
	}
	name, rest := args[0], args[1:]
	if _, ok := commands[name]; !ok {
		return fmt.Errorf("no command %q", name)
	}
	defined, err := flagsOf(name)
	if err != nil {
		return err
	}
	var flags []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			for _, later := range rest[i:] {
				if strings.HasPrefix(later, "-") && later != "-" {
					return fmt.Errorf("flag %s after the argument %s: the flag package would not parse it", later, a)
				}
			}
			break
		}
		fname, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		takesValue, ok := defined[fname]
		if !ok {
			return fmt.Errorf("%s has no flag -%s", name, fname)
		}
		flags = append(flags, a)
		if takesValue && !hasValue && i+1 < len(rest) {
			i++
			flags = append(flags, rest[i])
		}
	}
	if name == "check" {
		for i, f := range flags {
			if (f == "--format" || f == "-format") && i+1 < len(flags) && !slices.Contains(checkFormats, flags[i+1]) {
				return fmt.Errorf("check has no format %q", flags[i+1])
			}
		}
	}
	// The real parsers: --help after the flags exits 0 when they parse.
	var stderr bytes.Buffer
	if code := run(append(slices.Concat(globals, []string{name}, flags), "--help"), nil, &bytes.Buffer{}, &stderr); code != exitOK {
		return fmt.Errorf("the flags do not parse:\n%s", stderr.String())
	}
	return nil
}

// flagsOf returns the flags of a command, from its --help, each with
// whether it takes a value.
func flagsOf(name string) (map[string]bool, error) {
	var stdout bytes.Buffer
	run([]string{name, "--help"}, nil, &stdout, &bytes.Buffer{})
	_, list, ok := strings.Cut(stdout.String(), "\nFlags:\n")
	if !ok {
		return nil, fmt.Errorf("%s --help lists no flags", name)
	}
	out := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  -(\S+)( \S+)?$`).FindAllStringSubmatch(list, -1) {
		out[m[1]] = m[2] != ""
	}
	return out, nil
}

// shellCmd is one simple command of a run script, with its words expanded
// and where its standard output is redirected ("" for nowhere).
type shellCmd struct {
	args   []string
	stdout string
}

// shellCommands splits a run script into simple commands: just enough of
// the shell for a workflow's run steps. It knows quotes, $VAR and ${VAR}
// (vars only: an unknown variable is an error), comments, line
// continuations, the separators ; && || | and newline, and > >> 2>
// redirections.
func shellCommands(script string, vars map[string]string) ([]shellCmd, error) {
	var (
		out              []shellCmd
		cur              shellCmd
		word             strings.Builder
		inWord           bool
		redirect, errRed bool
	)
	endWord := func() {
		if !inWord {
			return
		}
		w := word.String()
		word.Reset()
		inWord = false
		switch {
		case errRed:
			errRed = false
		case redirect:
			cur.stdout, redirect = w, false
		default:
			cur.args = append(cur.args, w)
		}
	}
	endCmd := func() {
		endWord()
		if len(cur.args) > 0 {
			out = append(out, cur)
		}
		cur = shellCmd{}
	}
	expand := func(s string, i int) (int, error) { // s[i] == '$'
		name, j := "", i+1
		if j < len(s) && s[j] == '{' {
			k := strings.IndexByte(s[j:], '}')
			if k < 0 {
				return 0, fmt.Errorf("unclosed ${")
			}
			name, j = s[j+1:j+k], j+k+1
		} else {
			for j < len(s) && (s[j] == '_' || 'A' <= s[j] && s[j] <= 'Z' || 'a' <= s[j] && s[j] <= 'z' || '0' <= s[j] && s[j] <= '9') {
				j++
			}
			name = s[i+1 : j]
		}
		v, ok := vars[name]
		if !ok {
			return 0, fmt.Errorf("unknown variable $%s", name)
		}
		word.WriteString(v)
		inWord = true
		return j, nil
	}
	s := script
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i += 2
		case c == '#' && !inWord:
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == ' ' || c == '\t':
			endWord()
			i++
		case c == '\n' || c == ';':
			endCmd()
			i++
		case strings.HasPrefix(s[i:], "&&") || strings.HasPrefix(s[i:], "||"):
			endCmd()
			i += 2
		case c == '|':
			endCmd()
			i++
		case !inWord && strings.HasPrefix(s[i:], "2>"):
			endWord()
			errRed = true
			i += 2
		case c == '>':
			endWord()
			redirect = true
			i++
			if i < len(s) && s[i] == '>' {
				i++
			}
		case c == '\'':
			k := strings.IndexByte(s[i+1:], '\'')
			if k < 0 {
				return nil, fmt.Errorf("unclosed '")
			}
			word.WriteString(s[i+1 : i+1+k])
			inWord = true
			i += k + 2
		case c == '"':
			i++
			inWord = true
			for i < len(s) && s[i] != '"' {
				if s[i] == '$' {
					j, err := expand(s, i)
					if err != nil {
						return nil, err
					}
					i = j
					continue
				}
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				word.WriteByte(s[i])
				i++
			}
			if i == len(s) {
				return nil, fmt.Errorf("unclosed \"")
			}
			i++
		case c == '$':
			j, err := expand(s, i)
			if err != nil {
				return nil, err
			}
			i = j
		default:
			word.WriteByte(c)
			inWord = true
			i++
		}
	}
	endCmd()
	return out, nil
}

func TestShellCommands(t *testing.T) {
	vars := map[string]string{"T": "/tmp/r", "P": "a b"}
	for _, c := range []struct{ script, want string }{
		{`tracewiki check --format sarif > out.sarif`, `[tracewiki check --format sarif] > out.sarif`},
		{"a \"$T/x\" '$P' ${P}x # comment\nb 2>/dev/null && c | d", `[a /tmp/r/x $P a bx] | [b] | [c] | [d]`},
		{"tracewiki build \\\n  --out \"$T/site\"", `[tracewiki build --out /tmp/r/site]`},
		{`cat f >> "$T/sum"; x`, `[cat f] > /tmp/r/sum | [x]`},
	} {
		cmds, err := shellCommands(c.script, vars)
		var parts []string
		for _, cmd := range cmds {
			p := fmt.Sprintf("[%s]", strings.Join(cmd.args, " "))
			if cmd.stdout != "" {
				p += " > " + cmd.stdout
			}
			parts = append(parts, p)
		}
		if got := strings.Join(parts, " | "); err != nil || got != c.want {
			t.Errorf("shellCommands(%q) = %s, %v, want %s", c.script, got, err, c.want)
		}
	}
	if _, err := shellCommands(`tracewiki --root "$NOPE" build`, vars); err == nil {
		t.Error("an unknown variable was expanded")
	}
}

func TestCheckInvocation(t *testing.T) {
	for _, c := range []struct {
		args string
		ok   bool
	}{
		{"check --format github --fail-on stale", true},
		{"check --format github --fail-on stale,target_missing", true},
		{"--root base build --frozen --out site", true},
		{"diff --format markdown --preview-url https://x/pr-1/ old new", true},
		{"check --format yaml", false},
		{"check --fail-on broken", false},
		{"build --nope", false},
		{"diff old new --format markdown", false},
		{"--base x build", false},
		{"deploy", false},
	} {
		if err := checkInvocation(strings.Fields(c.args)); (err == nil) != c.ok {
			t.Errorf("checkInvocation(%q) = %v, want ok=%t", c.args, err, c.ok)
		}
	}
}
