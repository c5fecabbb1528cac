package interchange

import (
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
)

// TestImportOpenFastTrace reads the sample project: each construct of
// OpenFastTrace's Markdown grammar lands where the import documents it.
func TestImportOpenFastTrace(t *testing.T) {
	r := ImportOpenFastTrace(fixture(t, "openfasttrace"))
	want := `document spec-design "Design" prefix=""
document spec-system-requirements "Login System Requirements" prefix=""
arch~lockout~1 doc=spec-design level=3 title="" status= normative=true derived=false parents=req~lockout~1 implements= tags= fields=forwards=true,needs=dsn,type=arch text=""
dsn~audit~1 doc=spec-design level=4 title="Audit" status=rejected normative=true derived=false parents=req~password-check~2 implements= tags= fields=needs=impl,type=dsn text="Log every check."
dsn~hash-compare~1 doc=spec-design level=1 title="Hash Comparison" status= normative=true derived=false parents=req~password-check~2 implements= tags= fields=needs=impl, utest,type=dsn text="Compare in constant time."
dsn~lock-counter~1 doc=spec-design level=2 title="Lock Counter" status= normative=true derived=false parents=arch~lockout~1 implements= tags=storage fields=needs=impl, itest,type=dsn text="Count failures per account."
feat~login~1 doc=spec-system-requirements level=1 title="Login" status= normative=true derived=false parents= implements= tags= fields=needs=req,type=feat text="Users log in with a name and a password."
req~lockout~1 doc=spec-system-requirements level=3 title="Lockout" status=proposed normative=true derived=false parents=feat~login~1 implements= tags= fields=depends=req~password-check~2,needs=arch,type=req text="After three failed attempts the account is locked."
req~password-check~2 doc=spec-system-requirements level=2 title="Password Check" status=accepted normative=true derived=false parents=feat~login~1 implements= tags=Security,Login fields=needs=dsn,type=req text="The system checks the password against its stored hash.\n\nRationale:\n\nPasswords are never stored in clear.\n\nComment:\n\nSee also [the feature](../spec-system-requirements/feat~login~1.md) and the glossary."
unmapped spec/README.md: file: has no specification item (a line starting with a type~name~revision id)
unmapped spec/design.md:14: covers req~missing~1: no imported item has this id (OpenFastTrace: orphaned); no parent link
unmapped spec/design.md:14: covers req~password-check~1: the import has req~password-check~2 instead (OpenFastTrace: outdated); no parent link
unmapped spec/notes.txt: file: not a Markdown file (.md, .markdown): OpenFastTrace's Markdown importer does not read it
unmapped spec/system_requirements.md:19: link #glossary: leads to no item of the import (only items are imported, not the sections between them); kept as text
`
	if got := summary(r); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestOpenFastTraceCoverage applies OpenFastTrace's documented coverage
// rule to the sample by hand, and checks that the import keeps what the
// rule needs (types, Needs, Covers) so that tracewiki's policy can give
// the same answer. The user guide's rule ("Coverage"): an item is covered
// when, for each artifact type it needs, at least one item of that type
// covers it; a tag impl->dsn~x~1 in square brackets in code is an item
// of type impl that covers dsn~x~1 (the brackets are left out here: this
// comment would declare the tag itself). A forward "arch --> dsn : req~lockout~1" is an item
// arch~lockout~1 that covers req~lockout~1 and needs dsn. The code of this
// sample is taken to carry three tags (each in square brackets):
//
//	impl->dsn~hash-compare~1  utest->dsn~hash-compare~1  impl->dsn~lock-counter~1
//
// By hand:
//
//	feat~login~1          needs req:         req~password-check~2, req~lockout~1 cover it  -> covered
//	req~password-check~2  needs dsn:         dsn~hash-compare~1 (and dsn~audit~1)          -> covered
//	req~lockout~1         needs arch:        the forward arch~lockout~1                    -> covered
//	arch~lockout~1        needs dsn:         dsn~lock-counter~1                            -> covered
//	dsn~hash-compare~1    needs impl, utest: both tags                                     -> covered
//	dsn~lock-counter~1    needs impl, itest: no itest tag                                  -> not covered
//	dsn~audit~1           needs impl:        no tag                                        -> not covered
//
// OFT counts only approved items as coverage; here no answer turns on it
// (the draft req~lockout~1 and the rejected dsn~audit~1 are never the only
// cover of a need). The orphaned and outdated Covers of dsn~lock-counter~1
// cover nothing, in OFT as in the import.
func TestOpenFastTraceCoverage(t *testing.T) {
	r := ImportOpenFastTrace(fixture(t, "openfasttrace"))
	want := map[string]bool{
		"feat~login~1": true, "req~password-check~2": true, "req~lockout~1": true, "arch~lockout~1": true,
		"dsn~hash-compare~1": true, "dsn~lock-counter~1": false, "dsn~audit~1": false,
	}
	tags := [][2]string{{"impl", "dsn~hash-compare~1"}, {"utest", "dsn~hash-compare~1"}, {"impl", "dsn~lock-counter~1"}}
	// covering[id] = the artifact types of the items (and tags) that cover id.
	covering := map[string][]string{}
	for _, it := range r.Items {
		for _, p := range it.Parents {
			covering[p.ID] = append(covering[p.ID], it.Fields["type"])
		}
	}
	for _, tg := range tags {
		covering[tg[1]] = append(covering[tg[1]], tg[0])
	}
	got := map[string]bool{}
	for _, it := range r.Items {
		covered := true
		for need := range strings.SplitSeq(it.Fields["needs"], ",") {
			if need = strings.TrimSpace(need); need != "" && !slices.Contains(covering[it.ID], need) {
				covered = false
			}
		}
		got[it.ID] = covered
	}
	for id, w := range want {
		if g, ok := got[id]; !ok || g != w {
			t.Errorf("%s: covered=%v (imported %v), OpenFastTrace's rule gives %v", id, g, ok, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("imported %d items, the hand count has %d", len(got), len(want))
	}
}

// TestParseOFTGrammar pins the quirks of OpenFastTrace's line parser that
// the import keeps, each from its transition table.
func TestParseOFTGrammar(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      string // id|title|status|description|needs|covers|tags per item, ";"-joined
	}{
		{"bare id, no title", "`req~a~1`\nText.\n", "req~a~1|||Text.|||"},
		{"id without backticks", "req~a~1 trailing words\nText.", "req~a~1|||Text.|||"},
		{"title above, blank lines allowed", "### T\n\n`req~a~1`\nText.", "req~a~1|T||Text.|||"},
		{"underlined title", "My Title\n--------\n`req~a~1`", "req~a~1|My Title|||||"},
		{"text between title and id drops the title", "### T\nIntro.\n`req~a~1`", "req~a~1||||||"},
		{"status only right after the id", "`req~a~1`\nText.\nStatus: draft", "req~a~1|||Text.\nStatus: draft|||"},
		{"status right after the id", "`req~a~1`\nStatus: draft\nText.", "req~a~1||draft|Text.|||"},
		{"needs inline and as a list", "`req~a~1`\nNeeds: dsn, impl\n\n`req~b~1`\nNeeds:\n* utest\n- itest", "req~a~1||||dsn,impl||;req~b~1||||utest,itest||"},
		{"covers bullets need an id; other lines are dropped", "`req~a~1`\nCovers:\n* feat~x~1 and text\nnot a bullet\n+ `feat~y~2`", "req~a~1|||||feat~x~1,feat~y~2|"},
		{"a heading ends the item", "`req~a~1`\nText.\n## Next\nMore.", "req~a~1|||Text.|||"},
		{"a code block is skipped between items", "```\n`req~a~1`\n```\n`req~b~1`", "req~b~1||||||"},
		{"oft:off until oft:on", "<!-- oft:off -->\n`req~a~1`\n<!-- oft:on -->\n`req~b~1`", "req~b~1||||||"},
		{"tags inline and as a list", "`req~a~1`\nTags: x, y\n\n`req~b~1`\nTags:\n- z, w", "req~a~1||||||x,y;req~b~1||||||z,w"},
		{"a forward", "arch --> dsn, itest : req~a~3", "arch~a~3||||dsn,itest|req~a~3|"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			items, _ := parseOFT([]byte(tc.src))
			var got []string
			for _, o := range items {
				got = append(got, strings.Join([]string{o.id, strings.TrimSpace(o.title), o.status,
					strings.TrimSpace(strings.Join(o.desc, "\n")), strings.Join(o.needs, ","), strings.Join(o.covers, ","), strings.Join(o.tags, ",")}, "|"))
			}
			if g := strings.Join(got, ";"); g != tc.want {
				t.Errorf("got  %q\nwant %q", g, tc.want)
			}
		})
	}
}

// TestOFTTildeIDsRoundTrip: an imported file with a '~' id loads back
// through claims with the same id and parent, and a ReqIF export of such
// ids imports back to the same ids.
func TestOFTTildeIDsRoundTrip(t *testing.T) {
	r := ImportOpenFastTrace(fixture(t, "openfasttrace"))
	var files []claims.File
	for _, it := range r.Items {
		files = append(files, claims.File{Name: "content/requirements/" + it.Document + "/" + it.ID + ".md", Data: Render(it)})
	}
	var parser *claims.Parser
	m, diags := parser.Parse("content", files)
	if len(diags) > 0 {
		t.Fatalf("the imported files do not load: %v", diags)
	}
	loaded := map[string][]string{}
	for _, req := range m.Requirements {
		for _, p := range req.Parents {
			loaded[req.ID] = append(loaded[req.ID], p.ID)
		}
		if _, ok := loaded[req.ID]; !ok {
			loaded[req.ID] = nil
		}
	}
	for _, it := range r.Items {
		var ps []string
		for _, p := range it.Parents {
			ps = append(ps, p.ID)
		}
		if got, ok := loaded[it.ID]; !ok || !slices.Equal(got, ps) {
			t.Errorf("%s: loaded back as %v (found %v), want parents %v", it.ID, got, ok, ps)
		}
	}

	e := &Export{SchemaVersion: 1, ProjectID: "oft", Documents: []ExportDocument{{Path: "design", Title: "Design"}},
		Requirements: []Row{
			{ID: "req~login~1", Document: "design", Level: "1", Title: "Login", Normative: true, Text: "Log in.", Parents: []Link{}, Implements: []Link{}, Tests: []Link{}, Tags: []string{}, Fields: map[string]string{}, Reasons: []string{}},
			{ID: "dsn~login~2", Document: "design", Level: "2", Title: "Form", Normative: true, Text: "A form.", Parents: []Link{{Ref: "requirement:req~login~1", State: "linked"}}, Implements: []Link{}, Tests: []Link{}, Tags: []string{}, Fields: map[string]string{}, Reasons: []string{}},
		}}
	data, err := e.ReqIF("2026-01-01T00:00:00Z")
	if err != nil {
		t.Fatal(err)
	}
	back, err := ImportReqIF([]File{{Name: "x.reqif", Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(back); !strings.Contains(got, "dsn~login~2 doc=") || !strings.Contains(got, "parents=req~login~1 ") || len(back.Unmapped) > 0 {
		t.Errorf("ReqIF round trip of '~' ids:\n%s", got)
	}
}

// FuzzImportOpenFastTrace: any Markdown imports without a panic, with
// valid, unique ids whose parents are among the items (checkResult).
func FuzzImportOpenFastTrace(f *testing.F) {
	seed(f, "openfasttrace")
	f.Add("x.md", []byte("### T\n`req~a~1`\nCovers:\n* `req~a~1`\narch --> dsn : req~a~1\n[x](#t) [y](a.md#t)"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		checkResult(t, ImportOpenFastTrace([]File{{Name: "a.md", Data: data}, {Name: "b/c.markdown", Data: data}}))
	})
}
