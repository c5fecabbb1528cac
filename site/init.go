package site

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors"
)

// starter is what "tracewiki init" writes: a config with every default
// spelled out, and a small wiki that shows each kind of content.
var starter = map[string]string{
	ConfigFile: `# tracewiki configuration. Every key is optional; the values below are the
# defaults (title defaults to the folder's name).
# title    = "My project"
baseURL  = "/"
language = "en"         # "es" for Spanish messages
content  = "content"
output   = "public"
lock     = "tracewiki.lock"

[code]
include = ` + tomlStrings(defaultInclude) + `
exclude = ` + tomlStrings(defaultExclude) + `
`,
	gitignore: `# tracewiki: the generated site and the temporary files of its runs.
/public/
/.public.new-*
/.public.old-*
/tracewiki.lock.lk
/tracewiki.lock.tmp-*
`,
	"content/index.md": `---
title: Home
type: overview
---
# Welcome

This is the wiki's home page. Requirements live in requirements/, decisions
in decisions/, and every other Markdown file is a page.

A sentence with a code link is a claim: write
` + "`([code](code:PATH@Symbol))`" + ` after it, and tracewiki anchors it to that
symbol and tells you when the code changes. Link requirements with
` + "`[REQ-1](req:REQ-1)`" + ` and decisions with ` + "`[ADR-1](dec:ADR-1)`" + `.

Start with [REQ-1](req:REQ-1).
`,
	"content/requirements/REQ-1.md": `---
title: Describe your first requirement
status: proposed
# implements: [path/to/file.go@Function]
# tests: [path/to/file_test.go@TestFunction]
issues: [ADR-1]
---
State what the system must do. Then list the code that implements it and the
tests that check it in the frontmatter above, run "tracewiki capture", and
record a test run with "tracewiki evidence".
`,
	"content/decisions/ADR-1.md": `---
title: Keep a traceability wiki
status: accepted
---
Requirements, decisions and claims about code live next to the code, and
tracewiki checks that they still hold.
`,
}

// Init writes a starter tracewiki.toml, content/ and a .gitignore for the
// output and temporary files into the folder dir. It never overwrites: when
// any of the config and content files exists, it writes nothing and names
// them. An existing .gitignore is the project's own and is kept as it is;
// the note then gives the lines to add.
func Init(dir string) (written []string, note string, err error) {
	names := sortedKeys(starter)
	var exist []string
	for _, name := range names {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(name))); err == nil {
			exist = append(exist, name)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, "", err
		}
	}
	if slices.Contains(exist, gitignore) {
		exist = slices.DeleteFunc(exist, func(n string) bool { return n == gitignore })
		names = slices.DeleteFunc(names, func(n string) bool { return n == gitignore })
		note = "kept the existing " + gitignore + "; tracewiki's output and temporary files are:\n" + starter[gitignore]
	}
	if len(exist) > 0 {
		verb := "exist"
		if len(exist) == 1 {
			verb = "exists"
		}
		return nil, "", fmt.Errorf("init: %s already %s; nothing written", strings.Join(exist, ", "), verb)
	}
	// Every write goes through an os.Root: a content folder that is a
	// symlink out of the folder is refused before anything is written.
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, "", fmt.Errorf("init: %w", err)
	}
	defer root.Close()
	for _, name := range names {
		d := filepath.Dir(filepath.FromSlash(name))
		if _, err := root.Stat(d); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, "", fmt.Errorf("init: %s: %w; nothing written", filepath.ToSlash(d), outsideErr(err))
		}
	}
	include, found := projectInclude(dir)
	if len(found) > 0 {
		note += "found " + strings.Join(found, ", ") + ": [code] includes " + strings.Join(include, ", ") + "\n"
	}
	for _, name := range names {
		p := filepath.FromSlash(name)
		if err := root.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, "", fmt.Errorf("init: %w", outsideErr(err))
		}
		data := starter[name]
		if name == ConfigFile && len(found) > 0 {
			data = strings.Replace(data, "include = "+tomlStrings(defaultInclude), "include = "+tomlStrings(include), 1)
		}
		if err := root.WriteFile(p, []byte(data), 0o644); err != nil {
			return nil, "", fmt.Errorf("init: %w", outsideErr(err))
		}
	}
	return names, note, nil
}

// projectInclude returns the [code] include globs of the languages whose
// project files (pom.xml, *.csproj, Cargo.toml, go.mod, ...: each
// language's ProjectFile) lie in dir or in a folder just below it, and
// those files, slash-separated and sorted. It returns no files when there
// are none: then the config keeps every language's globs.
func projectInclude(dir string) (include, found []string) {
	var langs []codeanchors.Language
	check := func(rel string) {
		for _, l := range codeanchors.Default.Languages() {
			if l.ProjectFile(path.Base(rel)) {
				found = append(found, rel)
				if !slices.Contains(langs, l) {
					langs = append(langs, l)
				}
			}
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		switch {
		case e.Type().IsRegular():
			check(e.Name())
		case e.IsDir() && !strings.HasPrefix(e.Name(), ".") && e.Name() != "node_modules" && e.Name() != "vendor":
			sub, _ := os.ReadDir(filepath.Join(dir, e.Name()))
			for _, f := range sub {
				if f.Type().IsRegular() {
					check(e.Name() + "/" + f.Name())
				}
			}
		}
	}
	for _, l := range langs {
		for _, ext := range l.Extensions() {
			include = append(include, "**/*"+ext)
		}
	}
	slices.Sort(include)
	slices.Sort(found)
	return slices.Compact(include), found
}

// gitignore is the name of the ignore file init writes.
const gitignore = ".gitignore"

// outsideErr names an os.Root escape as [ErrOutside].
func outsideErr(err error) error {
	if strings.Contains(err.Error(), "path escapes from parent") {
		return ErrOutside
	}
	return err
}

// tomlStrings writes a list of strings as a TOML array.
func tomlStrings(list []string) string {
	quoted := make([]string, len(list))
	for i, s := range list {
		quoted[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}
