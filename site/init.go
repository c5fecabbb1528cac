package site

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/site/workspace"
)

// starter is what "tracewiki init" writes: a config with every default
// spelled out, and a small wiki that shows each kind of content.
var starter = map[string]string{
	workspace.ConfigFile: starterConfig(nil),
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

// starterConfig is the tracewiki.toml init writes: every default spelled
// out, but [code] include only when include names the languages init found
// in the repository. Without them the key is left out, so the default
// applies: every registered language's files, including a language a later
// tracewiki registers.
func starterConfig(include []string) string {
	code := `# include: not set, so the files of every registered language are indexed
# (the default; init found none in this folder). To index only some, list
# them: include = ["**/*.go", "**/*.py"]
`
	if len(include) > 0 {
		code = `# The languages init found in this repository; remove the line to index
# the files of every registered language (the default).
include = ` + tomlStrings(include) + "\n"
	}
	return `# tracewiki configuration. Every key is optional; the values below are the
# defaults (title defaults to the folder's name).
# title    = "My project"
baseURL  = "/"
language = "en"         # "es" for Spanish messages
content  = "content"
output   = "public"
lock     = "tracewiki.lock"

[code]
` + code + `exclude = ` + tomlStrings(workspace.DefaultExclude()) + "\n"
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
		if name == workspace.ConfigFile {
			data = starterConfig(include)
		}
		if err := root.WriteFile(p, []byte(data), 0o644); err != nil {
			return nil, "", fmt.Errorf("init: %w", outsideErr(err))
		}
	}
	return names, note, nil
}

// maxInitScan bounds the files init looks at to find the repository's
// languages: a huge monorepo is not walked to its end for a starter config.
const maxInitScan = 200_000

// projectInclude returns the [code] include globs of the languages found
// in dir (every extension of each), sorted, and what found them, for the
// note: the project files (pom.xml, *.csproj, Cargo.toml, go.mod, ...:
// each language's ProjectFile) in dir or in a folder just below it, then
// the number of code files per extension (a registered language's files
// anywhere under dir, outside hidden folders and the default excludes).
// A repository with go.mod and Python scripts is a Go and a Python
// project: every language found is included, so a moved Python file is
// still found again. It returns no include when it finds nothing: then
// the config keeps the default, every registered language.
func projectInclude(dir string) (include, found []string) {
	var langs []codeanchors.Language
	use := func(l codeanchors.Language) {
		if !slices.Contains(langs, l) {
			langs = append(langs, l)
		}
	}
	var projects []string
	check := func(rel string) {
		for _, l := range codeanchors.Default.Languages() {
			if l.ProjectFile(path.Base(rel)) {
				projects = append(projects, rel)
				use(l)
			}
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		switch {
		case e.Type().IsRegular():
			check(e.Name())
		case e.IsDir() && !skipInitDir(e.Name(), e.Name()):
			sub, _ := os.ReadDir(filepath.Join(dir, e.Name()))
			for _, f := range sub {
				if f.Type().IsRegular() {
					check(e.Name() + "/" + f.Name())
				}
			}
		}
	}
	perExt := map[string]int{}
	byExt, complete := codeFilesByExt(dir)
	for ext, l := range byExt {
		perExt[ext] = l.n
		use(l.lang)
	}
	for _, l := range langs {
		for _, ext := range l.Extensions() {
			include = append(include, "**/*"+ext)
		}
	}
	slices.Sort(include)
	slices.Sort(projects)
	found = projects
	for _, ext := range slices.Sorted(maps.Keys(perExt)) {
		noun := "files"
		if perExt[ext] == 1 {
			noun = "file"
		}
		found = append(found, fmt.Sprintf("%d %s %s", perExt[ext], ext, noun))
	}
	if !complete {
		found = append(found, fmt.Sprintf("(in the first %d files)", maxInitScan))
	}
	return slices.Compact(include), found
}

// extCount is how many code files of one extension init found, and their
// language.
type extCount struct {
	lang codeanchors.Language
	n    int
}

// codeFilesByExt counts the regular files under dir that a registered
// language claims, by lower-case extension, looking at no more than
// [maxInitScan] files; complete is false when it stopped there. Symlinks
// are not followed, and the folders [skipInitDir] names are not entered.
func codeFilesByExt(dir string) (out map[string]extCount, complete bool) {
	out, complete = map[string]extCount{}, true
	seen := 0
	_ = fs.WalkDir(os.DirFS(dir), ".", func(name string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil // an unreadable folder only hides its languages
		case d.IsDir():
			if name != "." && skipInitDir(d.Name(), name) {
				return fs.SkipDir
			}
			return nil
		case !d.Type().IsRegular():
			return nil
		}
		if seen++; seen > maxInitScan {
			complete = false
			return fs.SkipAll
		}
		if l := codeanchors.Default.Language(name); l != nil {
			ext := strings.ToLower(path.Ext(name))
			out[ext] = extCount{lang: l, n: out[ext].n + 1}
		}
		return nil
	})
	return out, complete
}

// skipInitDir reports whether init looks for languages outside the folder
// (base name base, slash path rel below the repository): hidden folders
// (.git) and those the default code exclude covers (vendor, node_modules,
// testdata, public, Cargo's target), whose files the index would not read.
func skipInitDir(base, rel string) bool {
	if strings.HasPrefix(base, ".") {
		return true
	}
	for _, x := range workspace.DefaultExclude() {
		if dir, ok := strings.CutSuffix(x, "/**"); ok && workspace.MatchAny([]string{dir}, rel) {
			return true
		}
	}
	return false
}

// gitignore is the name of the ignore file init writes.
const gitignore = ".gitignore"

// outsideErr names an os.Root escape as [workspace.ErrOutside].
func outsideErr(err error) error {
	if strings.Contains(err.Error(), "path escapes from parent") {
		return workspace.ErrOutside
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
