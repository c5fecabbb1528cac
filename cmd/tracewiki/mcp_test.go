package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpWorkspace is a small workspace: code with confusable names, a
// requirement that implements and tests it, a decision and a page in a
// subfolder that claim it.
var mcpWorkspace = map[string]string{
	"tracewiki.toml": "title = \"Walk\"\n",
	"go.mod":         "module example.com/walk\n\ngo 1.26\n",
	"walk/names.go": "package walk\n\ntype Blocklist struct{}\n\nfunc unlockAll() {}\n\n// LockFile writes the lock.\n" +
		"func LockFile() error {\n\treturn nil\n}\n",
	"walk/names_test.go": "package walk\n\nimport \"testing\"\n\nfunc TestLockFile(t *testing.T) {\n\tif LockFile() != nil {\n\t\tt.Fatal(\"no\")\n\t}\n}\n",
	"content/requirements/REQ-1.md": "---\ntitle: The lock file is never damaged\nstatus: accepted\n" +
		"implements: [walk/names.go@LockFile]\ntests: [walk/names_test.go@TestLockFile]\nissues: [ADR-1]\n---\nA failed build leaves the lock as it was.\n",
	"content/decisions/ADR-1.md": "---\ntitle: Write the lock atomically\nstatus: accepted\n---\nRename a temporary file over it.\n",
	"content/guides/walk.md":     "# Walking\n\nLockFile writes the lock ([code](code:walk/names.go@LockFile)). See [REQ-1](req:REQ-1).\n",
}

// TestMCP runs "tracewiki mcp" as a subprocess and speaks the protocol to
// it through the Go SDK's client: it initializes, lists the tools,
// resources and templates, calls every tool (each result is the command's
// JSON, byte for byte), reads a code:// resource and the lookup templates,
// then edits a file and sees the answers change. The lock and the output
// folder are never written.
func TestMCP(t *testing.T) {
	bin, err := exec.LookPath("tracewiki")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, data := range mcpWorkspace {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644))
	}
	cli(t, bin, dir, "capture", "--by", "test@example.com")
	lock, err := os.ReadFile(filepath.Join(dir, "tracewiki.lock"))
	must(t, err)

	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "--root", dir, "mcp")
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "tracewiki-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v; stderr:\n%s", err, stderr.String())
	}
	defer cs.Close()
	if info := cs.InitializeResult(); info.ServerInfo.Name != "tracewiki" || info.Capabilities.Tools == nil || info.Capabilities.Resources == nil {
		t.Errorf("initialize: %+v", info)
	}
	// The instructions end with the guide init --agents writes to AGENTS.md.
	agentsDir := t.TempDir()
	cli(t, bin, agentsDir, "init", "--agents")
	section, err := os.ReadFile(filepath.Join(agentsDir, "AGENTS.md"))
	must(t, err)
	guide := strings.TrimSuffix(strings.TrimPrefix(string(section), "<!-- tracewiki:begin -->\n"), "<!-- tracewiki:end -->\n")
	if instr := cs.InitializeResult().Instructions; !strings.Contains(guide, "tracewiki impact") || !strings.HasSuffix(instr, "\n\n"+guide) {
		t.Errorf("the instructions do not end with the AGENTS.md guide:\n%s\nguide:\n%s", instr, guide)
	}

	// Tools, with the commands' flags as arguments.
	tools, err := cs.ListTools(ctx, nil)
	must(t, err)
	var names []string
	props := map[string][]string{}
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		var schema struct{ Properties map[string]any }
		data, _ := json.Marshal(tool.InputSchema)
		must(t, json.Unmarshal(data, &schema))
		for p := range schema.Properties {
			props[tool.Name] = append(props[tool.Name], p)
		}
		slices.Sort(props[tool.Name])
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"check", "impact", "lookup", "neighborhood", "search"}) {
		t.Errorf("tools %q", names)
	}
	for tool, want := range map[string][]string{
		"search": {"budget-tokens", "explain", "kind", "limit", "query"}, "lookup": {"budget-tokens", "depth", "id"},
		"neighborhood": {"depth", "issue", "path", "req"}, "impact": {"base", "budget-tokens", "paths"},
	} {
		if !slices.Equal(props[tool], want) {
			t.Errorf("tool %s takes %q, want %q", tool, props[tool], want)
		}
	}

	// Every tool answers exactly what the command prints.
	for _, c := range []struct {
		tool string
		args map[string]any
		cli  []string
	}{
		{"search", map[string]any{"query": "lock", "limit": 3, "explain": true}, []string{"search", "--limit", "3", "--explain", "lock"}},
		{"search", map[string]any{"query": "lock", "kind": "symbol", "budget-tokens": 60}, []string{"search", "--kind", "symbol", "--budget-tokens", "60", "lock"}},
		{"lookup", map[string]any{"id": "REQ-1", "depth": 2}, []string{"lookup", "--depth", "2", "REQ-1"}},
		{"lookup", map[string]any{"id": "walk/names.go@LockFile", "budget-tokens": 200}, []string{"lookup", "--budget-tokens", "200", "walk/names.go@LockFile"}},
		{"neighborhood", map[string]any{"req": "REQ-1", "depth": 2}, []string{"neighborhood", "--req", "REQ-1", "--depth", "2"}},
		{"check", map[string]any{}, []string{"check", "--format", "json"}},
		{"impact", map[string]any{"paths": []string{"walk/names.go"}}, []string{"impact", "--format", "json", "walk/names.go"}},
		{"impact", map[string]any{"paths": []string{"walk/names.go"}, "budget-tokens": 80}, []string{"impact", "--format", "json", "--budget-tokens", "80", "walk/names.go"}},
	} {
		got := callTool(ctx, t, cs, c.tool, c.args)
		if want := cli(t, bin, dir, c.cli...); got != want {
			t.Errorf("tool %s %v:\n%s\ntracewiki %s:\n%s", c.tool, c.args, got, strings.Join(c.cli, " "), want)
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "lock", "kind": "widget"}})
	if err != nil || !res.IsError {
		t.Errorf("search with a bad kind: %v, %+v; want a tool error", err, res)
	}

	// Resources: every code target, by its code:// URI.
	resources, err := cs.ListResources(ctx, nil)
	must(t, err)
	var uris []string
	for _, r := range resources.Resources {
		uris = append(uris, r.URI)
	}
	slices.Sort(uris)
	const lockFileURI = "code://walk/walk/names.go#symbol-LockFile"
	if !slices.Equal(uris, []string{lockFileURI, "code://walk/walk/names_test.go#symbol-TestLockFile"}) {
		t.Errorf("resources %q", uris)
	}
	templates, err := cs.ListResourceTemplates(ctx, nil)
	must(t, err)
	var tmpls []string
	for _, r := range templates.ResourceTemplates {
		tmpls = append(tmpls, r.URITemplate)
	}
	slices.Sort(tmpls)
	if !slices.Equal(tmpls, []string{"tracewiki://decision/{id}", "tracewiki://page/{+path}", "tracewiki://requirement/{id}"}) {
		t.Errorf("resource templates %q", tmpls)
	}
	var code struct {
		Ref, State, Text  string
		Captured, Current []int
	}
	must(t, json.Unmarshal([]byte(readResource(ctx, t, cs, lockFileURI)), &code))
	if code.Ref != "walk/names.go@LockFile" || code.State != "linked" || !slices.Equal(code.Captured, []int{8, 10}) ||
		!slices.Equal(code.Current, []int{8, 10}) || !strings.HasPrefix(code.Text, "func LockFile() error {") {
		t.Errorf("resource %s: %+v", lockFileURI, code)
	}
	if got, want := readResource(ctx, t, cs, "tracewiki://requirement/REQ-1"), cli(t, bin, dir, "lookup", "requirement:REQ-1"); got != want {
		t.Errorf("tracewiki://requirement/REQ-1:\n%s\nwant the lookup:\n%s", got, want)
	}
	if got, want := readResource(ctx, t, cs, "tracewiki://page/guides/walk"), cli(t, bin, dir, "lookup", "page:guides/walk"); got != want {
		t.Errorf("tracewiki://page/guides/walk:\n%s\nwant the lookup:\n%s", got, want)
	}
	if !strings.Contains(readResource(ctx, t, cs, "tracewiki://decision/ADR-1"), `"id":"decision:ADR-1"`) {
		t.Error("tracewiki://decision/ADR-1 is not ADR-1's lookup")
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "tracewiki://requirement/REQ-404"}); err == nil {
		t.Error("tracewiki://requirement/REQ-404: read, want not found")
	}

	// An edit changes the answers: LockFile's body changes, so its link
	// goes stale; the requirement's new title is found.
	edited := strings.Replace(mcpWorkspace["walk/names.go"], "return nil", "return os.ErrExist", 1)
	must(t, os.WriteFile(filepath.Join(dir, "walk/names.go"), []byte(edited), 0o644))
	req := strings.Replace(mcpWorkspace["content/requirements/REQ-1.md"], "The lock file is never damaged", "The lock file survives a crash", 1)
	must(t, os.WriteFile(filepath.Join(dir, "content/requirements/REQ-1.md"), []byte(req), 0o644))
	deadline := time.Now().Add(15 * time.Second)
	for {
		must(t, json.Unmarshal([]byte(readResource(ctx, t, cs, lockFileURI)), &code))
		found := strings.Contains(callTool(ctx, t, cs, "search", map[string]any{"query": "survives"}), `"id":"requirement:REQ-1"`)
		if code.State == "stale" && found {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("15 s after the edit: LockFile is %s, REQ-1's new title found %t; stderr:\n%s", code.State, found, stderr.String())
		}
		select {
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
	if !strings.Contains(code.Text, "return os.ErrExist") {
		t.Errorf("after the edit, the resource shows %q; want the current code", code.Text)
	}

	must(t, cs.Close())
	if after, _ := os.ReadFile(filepath.Join(dir, "tracewiki.lock")); !bytes.Equal(after, lock) {
		t.Error("mcp wrote the lock")
	}
	if _, err := os.Stat(filepath.Join(dir, "public")); err == nil {
		t.Error("mcp wrote the output folder")
	}
	if !strings.Contains(stderr.String(), "tracewiki: mcp: ") {
		t.Errorf("stderr %q; want the server's log there", stderr.String())
	}
}

// cli runs the command in the workspace and returns its standard output.
func cli(t *testing.T, bin, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--root", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tracewiki %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

func callTool(ctx context.Context, t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("tool %s: %v", name, err)
	}
	if res.IsError || len(res.Content) != 1 {
		t.Fatalf("tool %s %v: %+v", name, args, res.Content)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

func readResource(ctx context.Context, t *testing.T, cs *mcp.ClientSession, uri string) string {
	t.Helper()
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	if len(res.Contents) != 1 {
		t.Fatalf("read %s: %d contents", uri, len(res.Contents))
	}
	return res.Contents[0].Text
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
