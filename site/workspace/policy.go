package workspace

import (
	"bufio"
	"bytes"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/tracewiki/tracewiki/claims"
)

// PolicyConfig is the [policy] table: its rules, in the order written.
type PolicyConfig struct {
	Rules []claims.Rule `toml:"rules"`
}

// CoverageWaiver is one [[coverage.waivers]]: a code path (a file,
// relative to the root) whose violation of rule is justified.
type CoverageWaiver struct {
	Path   string `toml:"path"`
	Rule   string `toml:"rule"`
	Reason string `toml:"reason"`
	By     string `toml:"by"`
	Date   string `toml:"date"`
}

// ruleName is what a rule's name may be: it keys waivers in the lock
// (REQ-1#RULE), so no '#', and it is typed in front matter.
var ruleName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// RuleNames lists the names of the policy's rules, as written, then the
// built-in [claims.NeedsRule]: the rules a requirement's waiver may name.
func (c Config) RuleNames() []string {
	var out []string
	for _, r := range c.Policy.Rules {
		out = append(out, r.Name)
	}
	return append(out, claims.NeedsRule)
}

// checkPolicy checks [fields.NAME], [[policy.rules]] and
// [[coverage.waivers]]: each error at its own table's line.
func (c *Config) checkPolicy(name string, data []byte) []error {
	var errs []error
	at := func(line int, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...)))
	}
	for _, f := range sortedNames(c.Fields) {
		if msg := c.Fields[f].Invalid(); msg != "" {
			at(keyLine(data, toml.Key{"fields", f}), "fields.%s: %s", f, msg)
		}
	}
	seen := map[string]bool{}
	for i, r := range c.Policy.Rules {
		line := tableLine(data, "policy.rules", i)
		switch {
		case !ruleName.MatchString(r.Name):
			at(line, "policy rule %q: a rule's name is letters, digits, '.', '_' and '-' (at most 64)", r.Name)
		case r.Name == claims.NeedsRule:
			at(line, "policy rule %q: the name is the built-in rule's, which reads OpenFastTrace's needs field", r.Name)
		case seen[r.Name]:
			at(line, "policy rule %q is declared twice", r.Name)
		}
		seen[r.Name] = true
		if _, err := claims.ParseSelector(r.Applies); err != nil {
			at(line, "policy rule %q: %v", r.Name, err)
		}
		if r.MinChildren < 0 {
			at(line, "policy rule %q: min_children = %d: want a count", r.Name, r.MinChildren)
		}
		if r.Empty() {
			at(line, "policy rule %q requires nothing: give parent_type, implements, tests, verified, fields or min_children", r.Name)
		}
	}
	for i, w := range c.Coverage.Waivers {
		line := tableLine(data, "coverage.waivers", i)
		switch {
		case !Local(w.Path) || w.Path != cleanSlash(w.Path):
			at(line, "coverage waiver: path %q must be a clean relative path inside the workspace", w.Path)
		case !ruleName.MatchString(w.Rule):
			at(line, "coverage waiver of %s: rule %q is not a rule's name", w.Path, w.Rule)
		case strings.TrimSpace(w.Reason) == "":
			at(line, "coverage waiver of %s: give its reason", w.Path)
		case w.Date != "" && !isDate(w.Date):
			at(line, "coverage waiver of %s: date %q is not a date (YYYY-MM-DD)", w.Path, w.Date)
		}
	}
	return errs
}

// WaivedPaths lists the paths of the coverage waivers, sorted, once each.
func (c Config) WaivedPaths() []string {
	var out []string
	for _, w := range c.Coverage.Waivers {
		out = append(out, w.Path)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func isDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

// cleanSlash is p cleaned as a slash path.
func cleanSlash(p string) string {
	if p == "" {
		return ""
	}
	return path.Clean(p)
}

// tableLine is the line of the n-th (0-based) [[name]] header, or 1.
func tableLine(data []byte, name string, n int) int {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		t := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(t, "[[") && strings.TrimSpace(strings.Trim(t, "[]")) == name {
			if n == 0 {
				return line
			}
			n--
		}
	}
	return 1
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
