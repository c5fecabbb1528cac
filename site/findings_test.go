package site

import (
	"encoding/json"

	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/synth"
)

// TestFindingViews checks that every view of a build's findings lists the
// same links, with the same refs and reasons, on a fixture with every
// reason of SPEC 2: check's JSON and text, SARIF, GitHub annotations,
// api/drift.json, the drift page and the PR diff against a build with no
// drift. The views for people name a parent link as its child's
// (synth.LinkName: "requirement:REQ-4 -> requirement:REQ-5").
func TestFindingViews(t *testing.T) {
	dir := fixture(t, "reasons")
	s := buildSite(t, dir, BuildOptions{}, 0)
	var want, named []string
	reasons := map[codeanchors.Reason]bool{}
	for _, l := range s.Findings.Problems() {
		want = append(want, l.Ref+" "+string(l.Verdict.Reason))
		named = append(named, synth.LinkName(l.Ref, l.ClaimedBy)+" "+string(l.Verdict.Reason))
		reasons[l.Verdict.Reason] = true
	}
	if !slices.Contains(named, "requirement:REQ-4 -> requirement:REQ-5 parent_changed") {
		t.Errorf("the parent link is not named as its child's: %q", named)
	}
	for _, r := range codeanchors.Reasons {
		if !reasons[r] {
			t.Errorf("the fixture has no %s link", r)
		}
	}
	if len(want) != 12 {
		t.Errorf("%d findings, want 12:\n%s", len(want), strings.Join(want, "\n"))
	}
	same := func(view string, got []string, sorted bool) {
		t.Helper()
		w := want
		if slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g, " -> ") }) {
			w = named // a view for people
		}
		if sorted {
			w = slices.Sorted(slices.Values(w))
			got = slices.Sorted(slices.Values(got))
		}
		if !slices.Equal(got, w) {
			t.Errorf("%s lists:\n%s\nwant the findings:\n%s", view, strings.Join(got, "\n"), strings.Join(w, "\n"))
		}
	}

	var got []string
	for _, c := range s.Check.Targets {
		if c.State != string(codeanchors.Linked) {
			got = append(got, c.Ref+" "+c.Reason)
		}
	}
	same("check --format json", got, false)

	// The text lists stale links, then unknown ones, each as "STATE REF",
	// then "REASON: why" on the next line.
	got = nil
	for _, m := range regexp.MustCompile(`(?m)^(?:stale|unknown) +(\S+(?: -> \S+)?).*\n +(\w+): `).FindAllStringSubmatch(s.Check.Text(false), -1) {
		got = append(got, m[1]+" "+m[2])
	}
	same("check --format text", got, true)

	data, err := synth.MarshalJSON(synth.NewSARIF(s.Findings))
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID  string `json:"ruleId"`
				Message struct{ Text string }
			}
		}
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, r := range log.Runs[0].Results {
		ref, _, _ := strings.Cut(r.Message.Text, " is ")
		got = append(got, ref+" "+r.RuleID)
	}
	same("check --format sarif", got, false)

	got = nil
	for _, m := range regexp.MustCompile(`(?m)title=tracewiki%3A (\w+)::(\S+(?: -> \S+)?) is `).FindAllStringSubmatch(synth.GitHubAnnotations(s.Findings), -1) {
		got = append(got, m[2]+" "+m[1])
	}
	same("check --format github", got, false)

	var drift synth.DriftJSON
	if err := json.Unmarshal(s.Files["api/drift.json"], &drift); err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, l := range drift.Links {
		got = append(got, l.Ref+" "+l.Reason)
	}
	same("api/drift.json", got, false)

	got = nil
	page := string(s.Files["drift/index.html"])
	for _, sec := range regexp.MustCompile(`(?s)<section class="drift-group" id="(\w+)">(.*?)</section>`).FindAllStringSubmatch(page, -1) {
		for _, m := range regexp.MustCompile(`<h3>(?:<a [^>]*>)?<code>([^<]*)</code>`).FindAllStringSubmatch(sec[2], -1) {
			got = append(got, unescapeHTML(m[1])+" "+sec[1])
		}
	}
	same("the drift page", got, true)

	newSnap, err := synth.ReadSnapshot(fstest.MapFS(mapFS(s.Files)), "new")
	if err != nil {
		t.Fatal(err)
	}
	clean := *newSnap
	clean.Drift = synth.DriftJSON{SchemaVersion: synth.SchemaVersion}
	d := synth.Diff(&clean, newSnap, "")
	got = nil
	for _, c := range d.Broken {
		got = append(got, c.Ref+" "+c.After.Reason)
	}
	same("the PR diff's broken links", got, false)
}

func unescapeHTML(s string) string {
	return strings.NewReplacer("&#43;", "+", "&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'").Replace(s)
}

func mapFS(files map[string][]byte) map[string]*fstest.MapFile {
	m := make(map[string]*fstest.MapFile, len(files))
	for name, data := range files {
		m[name] = &fstest.MapFile{Data: data}
	}
	return m
}
