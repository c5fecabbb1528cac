package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// TestLegacyRevisions checks that a lock written before revisions ignored
// paragraph wrapping keeps working (SPEC 1.2): its evidence entry and
// parent link, recorded by the legacy form, are linked while that form of
// the current text gives the recorded value; capture re-stamps them in the
// current form and says so; after that a re-wrap keeps them, where the
// legacy stamps would have expired.
func TestLegacyRevisions(t *testing.T) {
	const title, body = "Brakes", "The car stops\nwithin forty metres.\n"
	const rewrapped = "The car stops within\nforty metres.\n"
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		name = filepath.Join(dir, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(name), 0o755))
		must(t, os.WriteFile(name, []byte(text), 0o644))
	}
	write("content/requirements/SYS-1.md", "---\ntitle: "+title+"\n---\n"+body)
	write("content/requirements/SW-1.md", "---\ntitle: ABS\nparent: [SYS-1]\n---\nWheels never lock.\n")
	legacy := claims.LegacyRevision(title, []byte(body))
	if legacy == claims.Revision(title, []byte(body)) {
		t.Fatal("the two forms agree on a wrapped paragraph; the test needs them to differ")
	}
	writeLegacyLock := func() {
		l := codeanchors.NewLock()
		l.StampParent("SW-1", "SYS-1", codeanchors.ParentLink{Revision: legacy, ReviewedAt: "2026-01-01T00:00:00Z"})
		l.RecordEvidence(codeanchors.Evidence{Req: "SYS-1", Run: "r1", Revision: legacy, RecordedAt: "2026-01-01T00:00:00Z",
			Tests: []codeanchors.EvidenceTest{{Name: "TestStop", Outcome: codeanchors.OutcomePass, Target: "stop_test.go@TestStop"}}})
		data, err := l.Marshal()
		must(t, err)
		write("tracewiki.lock", string(data))
	}
	// state is SYS-1's evidence reason and SW-1's parent link reason.
	state := func() string {
		t.Helper()
		p, err := Load(dir)
		must(t, err)
		defer p.Close()
		rep, err := p.Check()
		must(t, err)
		return string(rep.Evidence[0].Verdict.Reason) + "|" + string(rep.Parents[0].Verdict.Reason)
	}

	writeLegacyLock()
	if got := state(); got != "|" {
		t.Errorf("legacy-recorded lock, same text: %s, want both linked", got)
	}
	// Without a re-stamp, a re-wrap expires the legacy stamps: that form
	// kept every line as written.
	write("content/requirements/SYS-1.md", "---\ntitle: "+title+"\n---\n"+rewrapped)
	if got, want := state(), string(codeanchors.RequirementChanged)+"|"+string(codeanchors.ParentChanged); got != want {
		t.Errorf("legacy-recorded lock, re-wrapped: %s, want %s", got, want)
	}

	// capture re-stamps them in the current form; then a re-wrap keeps them.
	write("content/requirements/SYS-1.md", "---\ntitle: "+title+"\n---\n"+body)
	p, err := Load(dir)
	must(t, err)
	var notes strings.Builder
	_, err = p.Capture(CaptureOptions{}, &notes)
	p.Close()
	must(t, err)
	if !strings.Contains(notes.String(), "re-stamped 2 revision(s)") {
		t.Errorf("capture's notes = %q, want it to say it re-stamped 2 revisions", notes.String())
	}
	data, err := os.ReadFile(filepath.Join(dir, "tracewiki.lock"))
	must(t, err)
	if strings.Contains(string(data), legacy) || !strings.Contains(string(data), claims.Revision(title, []byte(body))) {
		t.Errorf("the lock after capture still holds the legacy revision or lacks the current one:\n%s", data)
	}
	write("content/requirements/SYS-1.md", "---\ntitle: "+title+"\n---\n"+rewrapped)
	if got := state(); got != "|" {
		t.Errorf("re-stamped lock, re-wrapped: %s, want both linked", got)
	}
	write("content/requirements/SYS-1.md", "---\ntitle: "+title+"\n---\nThe car stops\nwithin fifty metres.\n")
	if got, want := state(), string(codeanchors.RequirementChanged)+"|"+string(codeanchors.ParentChanged); got != want {
		t.Errorf("re-stamped lock, a word changed: %s, want %s", got, want)
	}
}
