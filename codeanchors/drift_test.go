package codeanchors

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// textSource is a Source with no symbol parser: whole files and ranges.
func textSource(src string) *Source {
	return NewSource(NewRegistry(), "notes.txt", []byte(src))
}

func TestJudge(t *testing.T) {
	a := &Anchor{Start: 3, End: 5, Hash: "sha256:a", TokenHash: "sha256:t", Parser: "go/ast@1"}
	tests := []struct {
		name string
		a    *Anchor
		r    Resolution
		want Verdict
	}{
		{"same", a, Resolution{Start: 3, End: 5, Hash: "sha256:a", TokenHash: "sha256:t", Parser: "go/ast@1"},
			Verdict{State: Linked, Start: 3, End: 5}},
		{"moved", a, Resolution{Start: 7, End: 9, Hash: "sha256:a", TokenHash: "sha256:t", Parser: "go/ast@1"},
			Verdict{State: Linked, Moved: true, Start: 7, End: 9}},
		{"reformatted", a, Resolution{Start: 3, End: 6, Hash: "sha256:b", TokenHash: "sha256:t", Parser: "go/ast@1"},
			Verdict{State: Linked, Reformatted: true, Start: 3, End: 6}},
		{"reformatted and moved", a, Resolution{Start: 4, End: 6, Hash: "sha256:b", TokenHash: "sha256:t", Parser: "go/ast@1"},
			Verdict{State: Linked, Reformatted: true, Moved: true, Start: 4, End: 6}},
		{"changed", a, Resolution{Start: 3, End: 5, Hash: "sha256:b", TokenHash: "sha256:u", Parser: "go/ast@1"},
			Verdict{State: Stale, Reason: ContentChanged, Start: 3, End: 5}},
		{"vanished", a, Resolution{Reason: SymbolNotFound}, Verdict{State: Stale, Reason: SymbolNotFound}},
		{"outside", a, Outside(), Verdict{State: Stale, Reason: PathOutsideWorkspace}},
		{"deleted", a, Missing(), Verdict{State: Unknown, Reason: TargetMissing}},
		{"ambiguous", a, Resolution{Reason: Ambiguous}, Verdict{State: Unknown, Reason: Ambiguous}},
		{"uncaptured", nil, Resolution{Start: 1, End: 2, Hash: "sha256:a"}, Verdict{State: Unknown, Reason: Uncaptured, Start: 1, End: 2}},
		{"uncaptured and deleted", nil, Missing(), Verdict{State: Unknown, Reason: TargetMissing, NeverExisted: true}},
		{"newer parser, same range", a, Resolution{Start: 3, End: 5, Hash: "sha256:a", TokenHash: "sha256:t", Parser: "go/ast@2"},
			Verdict{State: Linked, Start: 3, End: 5, Note: "captured with go/ast@1, re-resolved with go/ast@2"}},
		{"newer parser, other range", a, Resolution{Start: 2, End: 5, Hash: "sha256:c", TokenHash: "sha256:v", Parser: "go/ast@2"},
			Verdict{State: Stale, Reason: ContentChanged, Start: 2, End: 5,
				Note: "captured with go/ast@1, re-resolved with go/ast@2: the range is now lines 2-5, was 3-5"}},
	}
	for _, tt := range tests {
		if got := Judge(tt.a, tt.r); got != tt.want {
			t.Errorf("%s: Judge = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestJudgeEvidence(t *testing.T) {
	pass := Evidence{Req: "REQ-1", Run: "r1", Revision: "sha256:1", Tests: []EvidenceTest{{Target: "a_test.go@TestA", Outcome: OutcomePass}}}
	fail := pass
	fail.Tests = []EvidenceTest{{Target: "a_test.go@TestA", Outcome: OutcomeFail}}
	withCode := pass
	withCode.TokenHashes = map[string]string{"a.go@A": "sha256:a", "a_test.go@TestA": "sha256:t"}
	failChanged := fail
	failChanged.TokenHashes = map[string]string{"a.go@A": "sha256:old"}
	now := map[string]string{"a.go@A": "sha256:a", "a_test.go@TestA": "sha256:t"}
	edited := map[string]string{"a.go@A": "sha256:b", "a_test.go@TestA": "sha256:t"}
	gone := map[string]string{"a_test.go@TestA": "sha256:t"}
	cur := func(rev string) claims.Revisions { return claims.Revisions{Current: rev, Legacy: rev + "-legacy"} }
	tests := []struct {
		name   string
		e      Evidence
		rev    claims.Revisions
		exists bool
		code   map[string]string
		want   State
		reason Reason
	}{
		{"current", pass, cur("sha256:1"), true, now, Linked, ""},
		{"current code", withCode, cur("sha256:1"), true, now, Linked, ""},
		{"requirement changed", pass, cur("sha256:2"), true, now, Stale, RequirementChanged},
		{"requirement deleted", pass, cur(""), false, now, Unknown, TargetMissing},
		{"failed run", fail, cur("sha256:1"), true, now, Stale, TestsFailed},
		{"code changed", withCode, cur("sha256:1"), true, edited, Stale, CodeChanged},
		{"code deleted", withCode, cur("sha256:1"), true, gone, Stale, CodeChanged},
		{"requirement and code changed", withCode, cur("sha256:2"), true, edited, Stale, RequirementChanged},
		{"failed, requirement and code changed", failChanged, cur("sha256:2"), true, edited, Stale, TestsFailed},
		// Recorded by the legacy form, which the current text still gives.
		{"legacy form", pass, claims.Revisions{Current: "sha256:new", Legacy: "sha256:1"}, true, now, Linked, ""},
		{"neither form", pass, claims.Revisions{Current: "sha256:new", Legacy: "sha256:old"}, true, now, Stale, RequirementChanged},
	}
	for _, tt := range tests {
		v := JudgeEvidence(tt.e, tt.rev, tt.exists, func(ref string) (string, bool) { h, ok := tt.code[ref]; return h, ok })
		if v.State != tt.want || v.Reason != tt.reason {
			t.Errorf("%s: JudgeEvidence = %+v, want %s %s", tt.name, v, tt.want, tt.reason)
		}
	}
	if (Evidence{}).Passed() {
		t.Error("evidence without tests passed; want not")
	}
}

func TestReasonsTable(t *testing.T) {
	// The Spanish texts are exactly those of SPEC 2.
	es := map[Reason]string{
		ContentChanged:       "el fichero cambió desde que se enlazó",
		SymbolNotFound:       "el símbolo ya no está en el fichero",
		PathOutsideWorkspace: "el objetivo queda fuera del workspace",
		RequirementChanged:   "evidencia caducada: el requisito cambió desde que se verificó",
		CodeChanged:          "evidencia caducada: el código cambió desde que se verificó",
		TestsFailed:          "las pruebas enlazadas fallaron en esta ejecución",
		ParentChanged:        "sospechoso: el requisito padre cambió desde que se revisó este",
		TargetMissing:        "el objetivo del enlace ya no existe",
		Ambiguous:            "el símbolo está definido más de una vez en el fichero",
		Uncaptured:           "el enlace aún no se ha capturado",
		NotIncluded:          "el objetivo queda fuera del código incluido en la configuración",
		ExternalChanged:      "el paquete del otro repositorio cambió desde que se fijó",
	}
	for _, r := range Reasons {
		if got := r.Why("es"); got != es[r] {
			t.Errorf("%s.Why(es) = %q, want %q", r, got, es[r])
		}
		if r.Why("en") == "" || r.Why("fr") != r.Why("en") {
			t.Errorf("%s: English why missing or not the fallback", r)
		}
		if r.State() == Linked {
			t.Errorf("%s.State() = linked", r)
		}
		if r.ToDo("en") == "" || r.ToDo("es") == "" {
			t.Errorf("%s: no one-line what to do in en and es", r)
		}
	}
	if !strings.Contains(RequirementChanged.Why("en"), "evidence expired") {
		t.Errorf("RequirementChanged.Why(en) = %q, want it to say evidence expired", RequirementChanged.Why("en"))
	}
	// A target that never existed keeps its reason; its why says so (SPEC 2).
	never := map[Reason][2]string{
		SymbolNotFound: {"the symbol does not exist in the file", "el símbolo no existe en el fichero"},
		TargetMissing:  {"the link's target does not exist", "el objetivo del enlace no existe"},
	}
	for _, r := range Reasons {
		want, ok := never[r]
		if !ok {
			want = [2]string{r.Why("en"), r.Why("es")}
		}
		if got := [2]string{r.WhyNever("en"), r.WhyNever("es")}; got != want {
			t.Errorf("%s.WhyNever = %q, want %q", r, got, want)
		}
	}
	if !strings.Contains(ParentChanged.Why("en"), "suspect") || ParentChanged.State() != Stale {
		t.Errorf("ParentChanged = %s %q, want stale and suspect", ParentChanged.State(), ParentChanged.Why("en"))
	}
	if Reason("").State() != Linked || Reason("").Why("en") != "" {
		t.Error("the empty reason is not linked with an empty why")
	}
}

func TestResolveRangeMoved(t *testing.T) {
	src := "a\nb\nc\nd\n"
	target, _ := claims.ParseTarget("notes.txt#L2-L3")
	s := textSource(src)
	r := Resolve(target, nil, s)
	a, err := Capture(target, r, s, "t", "me")
	if err != nil {
		t.Fatal(err)
	}
	if a.CapturedText != "b\nc\n" || a.Start != 2 || a.End != 3 || a.Parser != TextParser {
		t.Fatalf("Capture = %+v", a)
	}
	moved := textSource("new\nlines\na\nb\nc\nd\n")
	v := Judge(&a, Resolve(target, &a, moved))
	if v.State != Linked || !v.Moved || v.Start != 4 || v.End != 5 {
		t.Errorf("moved range: %+v, want linked, moved to 4-5", v)
	}
	changed := textSource("a\nB\nc\nd\n")
	if v := Judge(&a, Resolve(target, &a, changed)); v.Reason != ContentChanged {
		t.Errorf("changed range: %+v, want content_changed", v)
	}
	short := textSource("a\n")
	if v := Judge(&a, Resolve(target, &a, short)); v.Reason != ContentChanged || v.Note == "" {
		t.Errorf("range past the end: %+v, want content_changed with a note", v)
	}
	reflowed := textSource("a\nb   c\nd\n")
	whole, _ := claims.ParseTarget("notes.txt")
	wa, _ := Capture(whole, Resolve(whole, nil, s), s, "t", "me")
	if v := Judge(&wa, Resolve(whole, &wa, reflowed)); v.State != Linked || !v.Reformatted {
		t.Errorf("reflowed text file: %+v, want linked and reformatted", v)
	}
}

func TestCaptureCapsText(t *testing.T) {
	var b strings.Builder
	for range MaxCapturedLines + 10 {
		b.WriteString("x\n")
	}
	s := textSource(b.String())
	target, _ := claims.ParseTarget("notes.txt")
	a, err := Capture(target, Resolve(target, nil, s), s, "t", "")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(a.CapturedText, "\n"); n != MaxCapturedLines || !a.TextCapped || a.End != MaxCapturedLines+10 {
		t.Errorf("captured %d lines (capped %t, end %d), want %d, capped, end %d", n, a.TextCapped, a.End, MaxCapturedLines, MaxCapturedLines+10)
	}
}

func TestHashLinesNormalizes(t *testing.T) {
	a := lang.Lines([]byte("x := 1  \r\n\ty()\t\r\n"))
	b := lang.Lines([]byte("x := 1\n\ty()\n"))
	if lang.HashLines(a, 1, 2) != lang.HashLines(b, 1, 2) {
		t.Error("CRLF or trailing blanks changed the hash")
	}
	c := lang.Lines([]byte("x := 1\n  y()\n"))
	if lang.HashLines(b, 1, 2) == lang.HashLines(c, 1, 2) {
		t.Error("indentation did not change the hash")
	}
	// sha256 of "a\nb", computed by sha256sum: the definition of SPEC 1.3.
	if got, want := lang.HashLines(lang.Lines([]byte("a\nb\n")), 1, 2), "sha256:7e18f737311b2dc3b2f269dd78396b0351f14fb66efa879f768cb23181883c78"; got != want {
		t.Errorf("HashLines = %s, want %s", got, want)
	}
}

// TestResolveInNotIncluded: a symbol target on a file the configuration
// does not include is not_included (unknown), never resolved, while a
// whole-file or line-range target on it is judged by hash as any file;
// outside the workspace wins over it and it wins over a missing file
// (SPEC 2).
func TestResolveInNotIncluded(t *testing.T) {
	src := NewSource(Default, "scripts/tool.py", []byte("def helper():\n    return 1\n"))
	src.NotIncluded = true
	missing := &Source{Path: "scripts/gone.py", Absent: TargetMissing, NotIncluded: true}
	outside := &Source{Path: "../x.py", Absent: PathOutsideWorkspace, NotIncluded: true}
	tests := []struct {
		ref  string
		s    *Source
		want Reason
	}{
		{"scripts/tool.py@helper", src, NotIncluded},
		{"scripts/tool.py", src, ""},
		{"scripts/tool.py#L1-L2", src, ""},
		{"scripts/gone.py@x", missing, NotIncluded},
		{"scripts/gone.py", missing, TargetMissing},
		{"../x.py@y", outside, PathOutsideWorkspace},
	}
	for _, tt := range tests {
		target, err := claims.ParseTarget(tt.ref)
		if err != nil {
			t.Fatal(err)
		}
		r := ResolveIn(target, nil, tt.s)
		if r.Reason != tt.want {
			t.Errorf("ResolveIn(%s) = %q, want %q", tt.ref, r.Reason, tt.want)
		}
		v := Judge(nil, r)
		if tt.want == NotIncluded && (v.State != Unknown || v.Why("en") != "the target lies outside the code the configuration includes") {
			t.Errorf("%s: verdict %s %q, want unknown, outside the included code", tt.ref, v.State, v.Why("en"))
		}
	}
	if _, err := Capture(claims.Target{Path: "scripts/tool.py", Symbol: "helper"}, ResolveIn(claims.Target{Path: "scripts/tool.py", Symbol: "helper"}, nil, src), src, "t", "me"); err == nil || !strings.Contains(err.Error(), "not_included") {
		t.Errorf("capture of a not-included symbol: err = %v, want not_included", err)
	}
	// Included, the same file's symbol resolves.
	src.NotIncluded = false
	if r := ResolveIn(claims.Target{Path: "scripts/tool.py", Symbol: "helper"}, nil, src); r.Reason != "" {
		t.Errorf("included: ResolveIn = %q, want found", r.Reason)
	}
}

// TestCheckParentsLegacy checks that a parent link stamped by either form
// of the parent's revision is linked while that form still gives the
// stamp, and parent_changed once the parent's words change.
func TestCheckParentsLegacy(t *testing.T) {
	oldBody := []byte("Brakes stop\nthe car.\n")
	model := func(body []byte) *claims.Model {
		return &claims.Model{Requirements: []*claims.Requirement{
			{ID: "SYS-1", Title: "Brakes", Revision: claims.Revision("Brakes", body), LegacyRevision: claims.LegacyRevision("Brakes", body)},
			{ID: "SW-1", Title: "ABS", Parents: []claims.IDRef{{ID: "SYS-1"}}},
		}}
	}
	tests := []struct {
		name    string
		stamped string
		body    string
		want    Reason
	}{
		{"legacy stamp, same text", claims.LegacyRevision("Brakes", oldBody), "Brakes stop\nthe car.\n", ""},
		{"new stamp, re-wrapped", claims.Revision("Brakes", oldBody), "Brakes stop the car.\n", ""},
		{"legacy stamp, re-wrapped", claims.LegacyRevision("Brakes", oldBody), "Brakes stop the car.\n", ParentChanged},
		{"new stamp, a word changed", claims.Revision("Brakes", oldBody), "Brakes halt\nthe car.\n", ParentChanged},
		{"legacy stamp, a word changed", claims.LegacyRevision("Brakes", oldBody), "Brakes halt\nthe car.\n", ParentChanged},
	}
	for _, tt := range tests {
		l := NewLock()
		l.StampParent("SW-1", "SYS-1", ParentLink{Revision: tt.stamped, ReviewedAt: "2026-01-01T00:00:00Z"})
		got := CheckParents(model([]byte(tt.body)), l)
		if len(got) != 1 || got[0].Verdict.Reason != tt.want {
			t.Errorf("%s: CheckParents = %+v, want reason %q", tt.name, got, tt.want)
		}
	}
}

// TestKeepSpans checks that a source that keeps its spans resolves each
// target as a fresh source does, again and again, and remembers a span
// once resolved.
func TestKeepSpans(t *testing.T) {
	src := []byte("package a\n\n// F is f.\nfunc F() int {\n\treturn 1\n}\n\nfunc G() {}\n")
	kept := NewSource(Default, "a.go", src)
	kept.KeepSpans()
	for _, target := range []string{"a.go@F", "a.go@G", "a.go#L4-L6", "a.go"} {
		tg, err := claims.ParseTarget(target)
		if err != nil {
			t.Fatal(err)
		}
		want := Resolve(tg, nil, NewSource(Default, "a.go", src))
		for range 2 {
			if got := Resolve(tg, nil, kept); got != want {
				t.Errorf("%s: kept source resolves %+v, a fresh one %+v", target, got, want)
			}
		}
		if _, ok := kept.spans.m[[2]int{want.Start, want.End}]; !ok {
			t.Errorf("%s: span %d-%d not kept", target, want.Start, want.End)
		}
	}
}
