package site

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"path"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/tracewiki/tracewiki/assets"
	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/synth"
)

// schemaBase is the $id prefix of every tracewiki schema.
const schemaBase = "https://tracewiki.dev/schemas/"

// schemaNames are the schemas shipped in assets/schemas, without
// ".schema.json".
var schemaNames = []string{"bundle", "changelog", "check", "coverage", "diff", "drift", "export", "graph", "impact", "list", "manifest", "neighborhood", "node", "search", "searchindex"}

// compileSchemas compiles the schemas embedded in assets.FS, the copies the
// build ships, after checking that each has its $id, the 2020-12 dialect
// and a description.
func compileSchemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	files, err := fs.Glob(assets.FS, "schemas/*.json")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		data, err := fs.ReadFile(assets.FS, f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		m, _ := doc.(map[string]any)
		base := path.Base(f)
		if id := m["$id"]; id != schemaBase+base {
			t.Errorf("%s: $id %v, want %s", f, id, schemaBase+base)
		}
		if d := m["$schema"]; d != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s: $schema %v, want draft 2020-12", f, d)
		}
		if d, _ := m["description"].(string); len(d) < 20 {
			t.Errorf("%s: no description", f)
		}
		if err := c.AddResource(schemaBase+base, doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		names = append(names, strings.TrimSuffix(base, ".schema.json"))
	}
	if strings.Join(names, " ") != strings.Join(schemaNames, " ") {
		t.Fatalf("assets/schemas holds %q, want %q", names, schemaNames)
	}
	out := map[string]*jsonschema.Schema{}
	for _, n := range schemaNames {
		s, err := c.Compile(schemaBase + n + ".schema.json")
		if err != nil {
			t.Fatalf("compile %s: %v", n, err)
		}
		out[n] = s
	}
	return out
}

// schemaOf names the schema of an output file, "" for one that is not a
// JSON artifact or is a schema itself.
func schemaOf(name string) string {
	switch {
	case !strings.HasSuffix(name, ".json"), strings.HasPrefix(name, "api/schemas/"):
		return ""
	case name == "api/graph.json":
		return "graph"
	case name == synth.BundleFile:
		return "bundle"
	case name == synth.CoverageFile, name == "coverage/index.json":
		return "coverage"
	case name == "api/drift.json", name == "drift/index.json":
		return "drift"
	case name == "api/search.json", name == "search/index.json":
		return "search"
	case name == "api/manifest.json", name == "index.json":
		return "manifest"
	case strings.HasPrefix(name, "requirements/filter/"), name == "requirements/index.json",
		name == "decisions/index.json", name == "pages/index.json", name == "code/index.json":
		return "list"
	}
	return "node"
}

// validate checks data against the named schema, failing with the file
// name and every error.
func validate(t *testing.T, schemas map[string]*jsonschema.Schema, schema, name string, data []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	if err := schemas[schema].Validate(v); err != nil {
		t.Errorf("%s does not match %s.schema.json: %v", name, schema, err)
	}
}

// TestSchemas validates every JSON file of the built shop fixture and of
// tracewiki's own wiki against its schema, and the check report and
// neighborhoods of the fixture against theirs.
func TestSchemas(t *testing.T) {
	schemas := compileSchemas(t)
	for _, c := range []struct {
		name string
		dir  func(t *testing.T) string
	}{
		{"shop", func(t *testing.T) string { return fixture(t, "shop") }},
		{"reqs", func(t *testing.T) string { return fixture(t, "reqs") }},
		{"own", func(t *testing.T) string { return ".." }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := c.dir(t)
			s := buildSite(t, dir, BuildOptions{BaseURL: "/pr-42/"}, 0)
			count := map[string]int{}
			var names []string
			for _, name := range sortedKeys(s.Files) {
				if schema := schemaOf(name); schema != "" {
					count[schema]++
					names = append(names, name)
				}
			}
			// Validated on every core: the own wiki has over a thousand
			// JSON files, api/graph.json alone megabytes.
			var next atomic.Int64
			var wg sync.WaitGroup
			for range runtime.GOMAXPROCS(0) {
				wg.Go(func() {
					for i := int(next.Add(1)) - 1; i < len(names); i = int(next.Add(1)) - 1 {
						validate(t, schemas, schemaOf(names[i]), names[i], s.Files[names[i]])
					}
				})
			}
			wg.Wait()
			for _, n := range []string{"graph", "drift", "search", "manifest", "list", "node", "coverage", "bundle"} {
				if count[n] == 0 {
					t.Errorf("no output file checked against %s.schema.json", n)
				}
			}
			// api/search.js is the ranking index as a script.
			js, ok := bytes.CutPrefix(s.Files["api/search.js"], []byte("window.TRACEWIKI_SEARCH = "))
			js, ok2 := bytes.CutSuffix(js, []byte(";\n"))
			if !ok || !ok2 {
				t.Errorf("api/search.js does not assign window.TRACEWIKI_SEARCH")
			} else {
				validate(t, schemas, "searchindex", "api/search.js", js)
			}
			// The shipped schemas are the embedded ones.
			for _, n := range schemaNames {
				want, _ := fs.ReadFile(assets.FS, "schemas/"+n+".schema.json")
				if got := s.Files["api/schemas/"+n+".schema.json"]; !bytes.Equal(got, want) {
					t.Errorf("api/schemas/%s.schema.json is not the embedded schema", n)
				}
			}
			checkJSON, err := synth.MarshalJSON(s.Check)
			if err != nil {
				t.Fatal(err)
			}
			validate(t, schemas, "check", "the build's check report", checkJSON)

			p, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			rep, err := p.Check()
			if err != nil {
				t.Fatal(err)
			}
			for _, lang := range []string{"en", "es"} {
				data, err := synth.MarshalJSON(synth.NewCheckReport(synth.NewFindings(rep, p.Model, lang, p.Config.Lock)))
				if err != nil {
					t.Fatal(err)
				}
				validate(t, schemas, "check", "check --format json --lang "+lang, data)
			}
			g, _, err := p.Graph()
			if err != nil {
				t.Fatal(err)
			}
			var queries []synth.Query
			for _, n := range g.Nodes {
				switch n.Type {
				case claims.NodeRequirement:
					queries = append(queries, synth.Query{ReqKey: n.Label, Depth: 2})
				case claims.NodeDecision:
					queries = append(queries, synth.Query{IssueKey: n.Label, Depth: 3})
				case claims.NodeFile:
					if len(queries) < 40 {
						queries = append(queries, synth.Query{Path: n.Path})
					}
				}
			}
			queries = append(queries,
				synth.Query{}, // nothing asked
				synth.Query{ReqKey: "NOPE", Path: "no.go"}, // unknown keys
				synth.Query{Path: "./cart/cart.go", ReqKey: "REQ-3", IssueKey: "DEC-1", Depth: 9},
				synth.Query{Path: "pay/refund_test.go", Depth: -1}, // a deleted file
			)
			for _, q := range queries {
				data, err := synth.MarshalJSON(g.Neighborhood(q))
				if err != nil {
					t.Fatal(err)
				}
				validate(t, schemas, "neighborhood", "neighborhood "+strings.TrimSpace(strings.Join([]string{q.Path, q.ReqKey, q.IssueKey}, " ")), data)
			}
		})
	}
}

// TestSchemasReject checks that the schemas are not vacuous: valid
// documents made wrong in one place are refused.
func TestSchemasReject(t *testing.T) {
	schemas := compileSchemas(t)
	s := buildSite(t, fixture(t, "shop"), BuildOptions{}, 0)
	checkJSON, err := synth.MarshalJSON(s.Check)
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string][]byte{
		"node":     s.Files["requirements/REQ-1/index.json"],
		"list":     s.Files["requirements/index.json"],
		"graph":    s.Files["api/graph.json"],
		"drift":    s.Files["api/drift.json"],
		"search":   s.Files["api/search.json"],
		"manifest": s.Files["api/manifest.json"],
		"check":    checkJSON,
	}
	for _, c := range []struct {
		schema, what string
		change       func(doc map[string]any)
	}{
		{"node", "a wrong node type", func(d map[string]any) { obj(d, "node")["type"] = "widget" }},
		{"node", "a requirement without its revision", func(d map[string]any) { delete(obj(d, "node"), "revision") }},
		{"node", "a missing schemaVersion", func(d map[string]any) { delete(d, "schemaVersion") }},
		{"node", "another schemaVersion", func(d map[string]any) { d["schemaVersion"] = 2.0 }},
		{"node", "an unknown field", func(d map[string]any) { d["extra"] = true }},
		{"node", "an unknown node field", func(d map[string]any) { obj(d, "node")["color"] = "red" }},
		{"node", "a decision field on a run", func(d map[string]any) {
			n := obj(d, "node")
			n["type"], n["id"] = "run", "run:x"
			delete(n, "implemented")
			delete(n, "tested")
			delete(n, "verified")
			delete(n, "revision")
		}},
		{"node", "an id of another type", func(d map[string]any) { obj(d, "node")["id"] = "decision:REQ-1" }},
		{"node", "a wrong relation", func(d map[string]any) { edge(d, 0)["relation"] = "inferred" }},
		{"node", "a wrong edge kind", func(d map[string]any) { edge(d, 0)["kind"] = "owns" }},
		{"node", "a depth of 4", func(d map[string]any) { obj(d, "neighborhood")["depth"] = 4.0 }},
		{"node", "a neighborhood without stale_refs", func(d map[string]any) { delete(obj(d, "neighborhood"), "stale_refs") }},
		{"list", "a decision in the matrix", func(d map[string]any) { arr(d, "nodes")[0].(map[string]any)["type"] = "decision" }},
		{"list", "a wrong kind", func(d map[string]any) { d["kind"] = "requirements" }},
		{"graph", "a node without a label", func(d map[string]any) { delete(arr(d, "nodes")[0].(map[string]any), "label") }},
		{"graph", "a verified edge that is not evidence", func(d map[string]any) { arr(d, "edges")[0].(map[string]any)["relation"] = "verified" }},
		{"drift", "a linked link", func(d map[string]any) { arr(d, "links")[0].(map[string]any)["state"] = "linked" }},
		{"drift", "a wrong reason", func(d map[string]any) { arr(d, "links")[0].(map[string]any)["reason"] = "changed" }},
		{"drift", "a stale link with an unknown reason", func(d map[string]any) {
			arr(d, "links")[0].(map[string]any)["reason"] = "target_missing"
		}},
		{"drift", "a link without claimed_by", func(d map[string]any) { delete(arr(d, "links")[0].(map[string]any), "claimed_by") }},
		{"search", "an entry of an unknown node type", func(d map[string]any) { arr(d, "entries")[0].(map[string]any)["type"] = "widget" }},
		{"search", "an entry without a path", func(d map[string]any) { delete(arr(d, "entries")[0].(map[string]any), "path") }},
		{"search", "an absolute URL", func(d map[string]any) { arr(d, "entries")[0].(map[string]any)["url"] = "/requirements/REQ-1/" }},
		{"manifest", "a missing reason count", func(d map[string]any) { delete(obj(d, "reasons"), "uncaptured") }},
		{"manifest", "an unknown node type", func(d map[string]any) { obj(d, "nodes")["widget"] = 1.0 }},
		{"manifest", "artifacts null", func(d map[string]any) { d["artifacts"] = nil }},
		{"check", "a wrong state", func(d map[string]any) { arr(d, "targets")[0].(map[string]any)["state"] = "fresh" }},
		{"check", "a linked target with a reason", func(d map[string]any) {
			for _, x := range arr(d, "targets") {
				if x := x.(map[string]any); x["state"] == "linked" {
					x["reason"] = "content_changed"
					return
				}
			}
			panic("no linked target")
		}},
		{"check", "a missing total", func(d map[string]any) { delete(obj(d, "totals"), "unknown") }},
		{"check", "evidence without passed", func(d map[string]any) {
			for _, x := range arr(d, "targets") {
				if x := x.(map[string]any); strings.HasPrefix(x["ref"].(string), "run:") {
					delete(x, "passed")
					return
				}
			}
			panic("no evidence")
		}},
		{"check", "a superseded entry without superseded_by", func(d map[string]any) {
			e := evidenceTarget(d)
			e["state"], e["reason"], e["why"] = "superseded", "", "superseded by run:x"
		}},
		{"check", "a superseded entry with a reason", func(d map[string]any) {
			e := evidenceTarget(d)
			e["state"], e["why"], e["superseded_by"] = "superseded", "superseded by run:x", "run:x"
		}},
		{"check", "superseded_by on a live entry", func(d map[string]any) { evidenceTarget(d)["superseded_by"] = "run:x" }},
		{"check", "a missing superseded total", func(d map[string]any) { delete(obj(d, "totals"), "superseded") }},
		{"manifest", "no superseded count", func(d map[string]any) { delete(d, "superseded") }},
	} {
		var doc map[string]any
		if err := json.Unmarshal(docs[c.schema], &doc); err != nil {
			t.Fatal(err)
		}
		if err := schemas[c.schema].Validate(doc); err != nil {
			t.Fatalf("%s: the unchanged document is refused: %v", c.schema, err)
		}
		c.change(doc)
		if err := schemas[c.schema].Validate(doc); err == nil {
			t.Errorf("%s.schema.json accepts %s", c.schema, c.what)
		}
	}
}

func obj(d map[string]any, key string) map[string]any { return d[key].(map[string]any) }

// evidenceTarget is the first evidence entry (run:ID) of a check report.
func evidenceTarget(d map[string]any) map[string]any {
	for _, x := range arr(d, "targets") {
		if x := x.(map[string]any); strings.HasPrefix(x["ref"].(string), "run:") {
			return x
		}
	}
	panic("no evidence")
}

func arr(d map[string]any, key string) []any { return d[key].([]any) }

// edge returns edge i of a node twin's neighborhood.
func edge(d map[string]any, i int) map[string]any {
	return arr(obj(d, "neighborhood"), "edges")[i].(map[string]any)
}
