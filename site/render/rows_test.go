package render

import (
	"bytes"
	"fmt"
	"html/template"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/synth"
)

// The templates the row functions replaced, as they were, each executed
// where they stood: inside a table body.
const (
	neighborRowsTemplate = `{{range .}}<tr{{if or .Node.Stale .Edge.Stale}} class="stale"{{end}}>
<td><a href="{{.URL}}">{{.Node.Label}}</a></td>
<td>{{.Node.Type}}</td>
<td>{{.Dir}} {{.Edge.Kind}}{{if .Via}} <code>{{.Via}}</code>{{end}}</td>
<td>{{.Edge.Relation}}</td>
<td>{{if .Edge.Stale}}<span class="badge badge-stale" title="{{.Edge.Why}}">stale</span> {{.Edge.Why}}{{else if eq .Edge.State "unknown"}}<span class="badge badge-unknown">unknown</span> {{.Edge.Why}}{{else if .Node.Stale}}<span class="badge badge-stale" title="{{.Node.Why}}">stale</span> {{.Node.Why}}{{else if .Edge.Why}}<span class="hint">{{.Edge.Why}}</span>{{end}}</td>
</tr>
{{end}}`
	claimRowsTemplate = `{{range .}}<tr class="state-{{.State}}">
<td>{{.Text}}</td>
<td>{{if .URL}}<a href="{{.URL}}" title="{{.URI}}"><code>{{.Ref}}</code></a>{{else}}<span class="hint">no code target</span>{{end}}</td>
<td>{{.Captured}}</td>
<td>{{if .State}}<span class="badge badge-{{.State}}" title="{{.Why}}">{{.State}}</span>{{end}} {{.Detail}}</td>
</tr>
{{end}}`
	matrixRowsTemplate = `{{range .}}<tr id="{{.Node.Label}}" data-order="{{.Order}}" data-status="{{.Node.Status}}" data-stale="{{.Node.Stale}}" data-implemented="{{.Implemented}}" data-tested="{{.Tested}}" data-verified="{{.Verified}}" data-tags="{{.Tags}}"{{if .Node.Stale}} class="stale"{{end}}>
<td><a href="{{.URL}}">{{.Node.Label}}</a></td>
<td>{{.Node.Title}}</td>
<td>{{if .Implemented}}<span class="badge badge-yes" title="implemented">yes</span>{{else}}<span class="badge badge-warn" title="no implements link is linked">no</span>{{end}}</td>
<td>{{if .Tested}}<span class="badge badge-yes" title="tested">yes</span>{{else}}<span class="badge badge-no" title="no tests link is linked">no</span>{{end}}</td>
<td>{{if .Verified}}<span class="badge badge-yes" title="verified">yes</span>{{else}}<span class="badge badge-no" title="not verified">no</span>{{end}}</td>
<td>{{if .Node.Stale}}<span class="badge badge-stale" title="{{.Node.Why}}">stale</span>{{else}}<span class="hint">–</span>{{end}}</td>
<td>{{.Node.Status}}</td>
<td>{{if .Document.Text}}{{if .Document.URL}}<a href="{{.Document.URL}}">{{.Document.Text}}</a>{{else}}{{.Document.Text}}{{end}}{{else}}<span class="hint">–</span>{{end}}</td>
<td>{{range $i, $p := .Parents}}{{if $i}}, {{end}}{{if $p.URL}}<a href="{{$p.URL}}">{{$p.Text}}</a>{{else}}{{$p.Text}}{{end}}{{else}}<span class="hint">–</span>{{end}}</td>
<td>{{if or .Tags .Fields}}{{with .Node.Tags}}<span class="tags">{{range .}}<span class="badge tag">{{.}}</span> {{end}}</span>{{end}}{{range .Fields}}<div class="field"><span class="hint">{{.Name}}:</span> {{.Value}}</div>{{end}}{{else}}<span class="hint">–</span>{{end}}</td>
<td>{{template "refs" .Code}}</td>
<td>{{template "refs" .Tests}}</td>
</tr>
{{end}}` + `{{define "refs"}}{{if .}}{{template "refList" shown .}}{{with folded .}}<details class="refs-more"><summary>{{len .}} more</summary>{{template "refList" .}}</details>{{end}}{{else}}<span class="hint">none</span>{{end}}{{end}}` +
		`{{define "refList"}}<ul class="refs">{{range .}}<li>{{if .URL}}<a href="{{.URL}}"><code>{{template "ref" .Ref}}</code></a>{{else}}<code>{{template "ref" .Ref}}</code>{{end}} <span class="badge badge-{{.State}}" title="{{.Why}}">{{.State}}</span></li>{{end}}</ul>{{end}}` +
		`{{define "ref"}}{{range $i, $p := refParts .}}{{if $i}}<wbr>{{end}}{{$p}}{{end}}{{end}}`
	tableRowsTemplate = `{{range .}}<tr{{if .ID}} id="{{.ID}}"{{end}}{{if .Stale}} class="stale"{{else if .Superseded}} class="superseded"{{end}}>{{range .Cells}}<td>{{if .URL}}<a href="{{.URL}}">{{if .Code}}<code>{{.Text}}</code>{{else}}{{.Text}}{{end}}</a>{{else if .Badge}}<span class="badge badge-{{.Badge}}" title="{{.Title}}">{{.Text}}</span>{{else if .Code}}<code>{{.Text}}</code>{{else}}{{.Text}}{{end}}</td>{{end}}</tr>
{{end}}`
)

// viaTemplate renders rows with the template text, in a table body.
func viaTemplate(t testing.TB, text string, rows any) string {
	t.Helper()
	const head, tail = "<table><tbody>", "</tbody></table>"
	tm, err := template.New("").Funcs(template.FuncMap{
		"shown":    func(r []refState) []refState { s, _ := foldRefs(r); return s },
		"folded":   func(r []refState) []refState { _, f := foldRefs(r); return f },
		"refParts": refParts,
	}).Parse(head + text + tail)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tm.Execute(&b, rows); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(strings.TrimPrefix(b.String(), head), tail)
}

// awkward are values html/template escapes each its own way: markup,
// quotes, '+', NUL, bytes that are not UTF-8, noncharacters, schemes a URL
// may not have and some it may, percent signs, spaces and parentheses.
var awkward = []string{
	"", "plain", "REQ-12", `<script>alert("x")</script>`, `a&b+c'd"e>`, "\x00nul",
	"café ☃ 日本", "\xff\xfe not UTF-8", "\ufdd0\ufffe\uffff", "\t\n\r line",
	"javascript:alert(1)", "JavaScript:x", " javascript:x", "vbscript:x", "data:text/html,<b>",
	"http://x.example/y?a=1&b=2+3", "HTTPS://x", "mailto:a@b.example", "a:b/c", "/a:b", "?a:b",
	"../../code/a b/(c)'d\"e.go/index.html#sym-F_1", "%zz%41%", "#frag", "~!$*,;=@[]-._",
}

func pick(r *rand.Rand) string { return awkward[r.IntN(len(awkward))] }

func TestRowsAsTemplates(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 7))
	var neighbors []neighborRow
	var crows []ClaimRow
	var rows []row
	var matrix []matrixRow
	for i := range 400 {
		state := []string{"", "linked", "stale", "unknown", pick(r)}[i%5]
		neighbors = append(neighbors, neighborRow{
			Node: &synth.Node{Label: pick(r), Type: claims.NodeSymbol, Stale: i%3 == 0, Why: pick(r)},
			Edge: synth.Edge{Kind: pick(r), Relation: pick(r), Stale: i%4 == 0, State: state, Why: pick(r)},
			Dir:  "→", Via: pick(r), URL: pick(r),
		})
		crows = append(crows, ClaimRow{Text: pick(r), Ref: pick(r), URI: pick(r), URL: pick(r), Captured: pick(r), State: state, Why: pick(r), Detail: pick(r)})
		var cells []cell
		for range i % 4 {
			cells = append(cells, cell{Text: pick(r), URL: pick(r), Badge: pick(r), Title: pick(r), Code: r.IntN(2) == 0})
		}
		rows = append(rows, row{ID: pick(r), Stale: i%2 == 0, Superseded: i%3 == 0, Cells: cells})
		matrix = append(matrix, matrixRandomRow(r, i))
	}
	check := func(kind, want string, got template.HTML) {
		t.Helper()
		if string(got) != want {
			t.Errorf("%s rows differ from the template's:\n got %q\nwant %q", kind, firstDifference(string(got), want), firstDifference(want, string(got)))
		}
	}
	check("neighbor", viaTemplate(t, neighborRowsTemplate, neighbors), neighborRows(neighbors))
	check("claim", viaTemplate(t, claimRowsTemplate, crows), claimRows(crows))
	check("table", viaTemplate(t, tableRowsTemplate, rows), tableRows(rows))
	check("matrix", viaTemplate(t, matrixRowsTemplate, matrix), matrixRows(matrix))
	if strings.Contains(string(neighborRows(neighbors)), "<script>") || !strings.Contains(string(tableRows(rows)), "#ZgotmplZ") {
		t.Error("the corpus did not exercise escaping and URL filtering")
	}
}

// TestMatrixRefs checks how a matrix cell lists many links: a ref wraps at
// its joints, the links not linked come first, and those past
// matrixRefsShown fold into a <details>.
func TestMatrixRefs(t *testing.T) {
	for ref, want := range map[string]string{
		"a/b.go@T.M":        "a/|b.go@|T.M",
		"cmd/x/main.go":     "cmd/|x/|main.go",
		"docs/a.md#L3-L9":   "docs/|a.md|#L3-L9",
		"Dockerfile":        "Dockerfile",
		"#L1-L2":            "#L1-L2",
		"dir/":              "dir/",
		"a@b@c":             "a@|b@|c",
		"x.py@C.method#odd": "x.py@|C.method|#odd",
	} {
		parts := refParts(ref)
		if got := strings.Join(parts, "|"); got != want {
			t.Errorf("refParts(%q) = %s, want %s", ref, got, want)
		}
		if strings.Join(parts, "") != ref {
			t.Errorf("refParts(%q) joined is not the ref", ref)
		}
	}

	var refs []refState
	for i, state := range []string{"linked", "linked", "stale", "linked", "unknown", "linked", "stale"} {
		refs = append(refs, refState{Ref: fmt.Sprintf("p/f%d.go@F", i), State: state})
	}
	problemsFirst(refs)
	var order []string
	for _, r := range refs {
		order = append(order, r.Ref[2:4]+" "+r.State)
	}
	if got, want := strings.Join(order, ", "), "f2 stale, f4 unknown, f6 stale, f0 linked, f1 linked, f3 linked, f5 linked"; got != want {
		t.Errorf("problemsFirst: %s\nwant %s", got, want)
	}
	cell := string(matrixRows([]matrixRow{{Tests: refs}}))
	shown, more, ok := strings.Cut(cell, `<details class="refs-more"><summary>3 more</summary>`)
	if !ok {
		t.Fatalf("a cell of %d links does not fold the last %d:\n%s", len(refs), len(refs)-matrixRefsShown, cell)
	}
	if n := strings.Count(shown, "<li>"); n != matrixRefsShown || !strings.Contains(shown, "f6.go") || strings.Contains(shown, "f1.go") {
		t.Errorf("shown: %d links (want %d, the problems first): %s", n, matrixRefsShown, shown)
	}
	if !strings.Contains(more, "<code>p/<wbr>f5.go@<wbr>F</code>") {
		t.Errorf("folded links lack f5 written breakable: %s", more)
	}
	if few := string(matrixRows([]matrixRow{{Tests: refs[:matrixRefsShown]}})); strings.Contains(few, "<details") {
		t.Errorf("a cell of %d links folds: %s", matrixRefsShown, few)
	}
}

// matrixRandomRow is a matrix row of awkward values, its lists and flags
// varying with i.
func matrixRandomRow(r *rand.Rand, i int) matrixRow {
	m := matrixRow{
		Node:        synth.Node{Label: pick(r), Title: pick(r), Status: pick(r), Stale: i%3 == 0, Why: pick(r)},
		URL:         pick(r),
		Order:       i * 7,
		Implemented: i%2 == 0, Tested: i%3 == 1, Verified: i%5 == 0,
		Document: link{Text: []string{"", pick(r)}[i%2], URL: []string{"", pick(r)}[i/2%2]},
		Tags:     []string{"", pick(r)}[i/3%2],
	}
	for range i % 3 {
		m.Parents = append(m.Parents, link{Text: pick(r), URL: []string{"", pick(r)}[r.IntN(2)]})
		m.Node.Tags = append(m.Node.Tags, pick(r))
	}
	for range i % (matrixRefsShown + 3) { // some past matrixRefsShown, folded
		m.Code = append(m.Code, refState{Ref: pick(r), URL: []string{"", pick(r)}[r.IntN(2)], State: pick(r), Why: pick(r)})
	}
	for range i % 4 / 2 {
		m.Fields = append(m.Fields, field{Name: pick(r), Value: pick(r)})
		m.Tests = append(m.Tests, refState{Ref: pick(r), URL: pick(r), State: pick(r), Why: pick(r)})
	}
	return m
}

// FuzzRowsAsTemplates looks for values the row functions write otherwise
// than the templates did.
func FuzzRowsAsTemplates(f *testing.F) {
	for i, s := range awkward {
		f.Add(s, awkward[(i+1)%len(awkward)], awkward[(i+7)%len(awkward)], uint8(i))
	}
	f.Fuzz(func(t *testing.T, a, b, c string, flags uint8) {
		on := func(bit uint8) bool { return flags&(1<<bit) != 0 }
		state := ""
		if on(0) {
			state = "unknown"
		}
		neighbors := []neighborRow{{
			Node: &synth.Node{Label: a, Type: claims.NodeTest, Stale: on(1), Why: b},
			Edge: synth.Edge{Kind: b, Relation: c, Stale: on(2), State: state, Why: c},
			Dir:  a, Via: c, URL: b,
		}}
		if got, want := string(neighborRows(neighbors)), viaTemplate(t, neighborRowsTemplate, neighbors); got != want {
			t.Fatalf("neighbor row %q, template %q", got, want)
		}
		if !on(3) {
			state = a
		}
		crows := []ClaimRow{{Text: a, Ref: b, URI: c, URL: a, Captured: b, State: state, Why: c, Detail: a}}
		if got, want := string(claimRows(crows)), viaTemplate(t, claimRowsTemplate, crows); got != want {
			t.Fatalf("claim row %q, template %q", got, want)
		}
		cells := []cell{{Text: a, URL: b, Code: on(4)}, {Text: b, Badge: c, Title: a}, {Text: c, Code: on(5)}}
		if on(6) {
			cells[1].URL = c
		}
		rows := []row{{ID: c, Stale: on(7), Superseded: on(0), Cells: cells}}
		if got, want := string(tableRows(rows)), viaTemplate(t, tableRowsTemplate, rows); got != want {
			t.Fatalf("table row %q, template %q", got, want)
		}
		m := []matrixRow{{
			Node: synth.Node{Label: a, Title: b, Status: c, Stale: on(1), Why: a, Tags: []string{b, c}[:flags%3]},
			URL:  c, Order: int(flags), Implemented: on(2), Tested: on(3), Verified: on(4),
			Document: link{Text: b, URL: a}, Parents: []link{{Text: a, URL: b}, {Text: c}}[:flags%3], Tags: a,
			Fields: []field{{Name: a, Value: b}}[:flags%2], Code: []refState{{Ref: a, URL: b, State: c, Why: a}}[:flags%2],
		}}
		if got, want := string(matrixRows(m)), viaTemplate(t, matrixRowsTemplate, m); got != want {
			t.Fatalf("matrix row %q, template %q", got, want)
		}
	})
}
