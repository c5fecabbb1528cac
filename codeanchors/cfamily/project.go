package cfamily

import (
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// Project files. compile_commands.json is the compilation database CMake
// (CMAKE_EXPORT_COMPILE_COMMANDS), Bear, Meson and others write: the exact
// flags of each translation unit. compile_flags.txt is clang's flag list
// for every file of its folder and below, one flag a line. CMakeLists.txt
// gives include directories as far as it is declarative.
const (
	compileCommands = "compile_commands.json"
	compileFlags    = "compile_flags.txt"
	cmakeLists      = "CMakeLists.txt"
)

// projectFile reports whether name is one of the files the linker reads.
// .clangd is not one: the relative paths of its CompileFlags resolve
// against each compile command's directory, which only the compilation
// database knows.
func projectFile(name string) bool {
	return name == compileCommands || name == compileFlags || name == cmakeLists
}

// Bounds of the linker's work.
const (
	// maxClosure bounds the files a call is looked up in: the including
	// file and what it includes, transitively, breadth first. A call that
	// is not defined in the file itself is not resolved when the closure
	// is larger: an unseen definition could make it ambiguous.
	maxClosure = 256
	// maxIncludeDirs bounds the include directories of one file.
	maxIncludeDirs = 256
)

// includeDirs are the directories an #include is looked up in, root-relative.
type includeDirs struct {
	quote []string // -iquote: for "x.h" only, before dirs
	dirs  []string // -I, -isystem, -idirafter, CMake's: for both forms
}

func (d *includeDirs) add(quote bool, dir string) {
	list := &d.dirs
	if quote {
		list = &d.quote
	}
	if !slices.Contains(*list, dir) && len(d.quote)+len(d.dirs) < maxIncludeDirs {
		*list = append(*list, dir)
	}
}

func (d *includeDirs) count() int { return len(d.quote) + len(d.dirs) }

// linker resolves #include directives to workspace files and calls to the
// one definition they name, without running cmake or a compiler.
//
// An #include "x.h" is looked up in the including file's folder, then in
// the file's include directories; an #include <x.h> in the include
// directories only. A file's include directories are, in this order:
//
//   - its own entry's -iquote, -I, -isystem and -idirafter flags (also
//     written -Idir, --include-directory=dir and MSVC's /I) in a
//     compile_commands.json, relative to the entry's directory; a file
//     without an entry (a header) borrows those of the entry for the file
//     of the same name stem in its folder, else for the nearest file
//     below the nearest folder holding one (as clangd guesses);
//   - the same flags of the nearest compile_flags.txt at or above its
//     folder, relative to that file's folder;
//   - the include directories every CMakeLists.txt at or above its folder
//     declares (include_directories, target_include_directories), outer
//     folders first, and the PUBLIC and INTERFACE ones of the workspace
//     targets those CMakeLists.txt link (target_link_libraries), with
//     ${CMAKE_CURRENT_SOURCE_DIR}, ${CMAKE_CURRENT_LIST_DIR},
//     ${PROJECT_SOURCE_DIR}, ${CMAKE_SOURCE_DIR} and ${NAME_SOURCE_DIR}
//     (NAME a project()) expanded, as are the variables a set() or
//     list(APPEND) of such values gives (in file order, inherited by the
//     folders below, as if every if() branch ran), and
//     $<BUILD_INTERFACE:...> read as its content. A directory written with
//     any other variable or generator expression needs cmake to evaluate:
//     it is skipped and counted ([linker.skipped]).
//
// Absolute paths in compile_commands.json are mapped to the workspace by
// the longest workspace path that ends the entries' file paths; a
// directory outside the workspace (a system or third-party one) is not
// searched. A quoted include found nowhere is unresolved (it should be in
// the workspace, and says why); an angle include found nowhere is a
// system or third-party header, as is an include whose name is a macro.
type linker struct {
	byPath map[string]*lang.File
	dirs   map[string]*includeDirs // by file path
	// skipped lists, per CMakeLists.txt, the include directories that
	// need cmake to evaluate: "CMakeLists.txt:3: ${FOO}/include".
	skipped []string
	// includes holds each file's resolved includes, in source order
	// without repeats; closure is computed from them.
	includes map[string][]string
	why      map[string][]string // unresolved quoted includes with why, by file
	// defs lists the files that define each symbol name, ambiguous those
	// where it is ambiguous; kinds holds each "path@name"'s kind.
	defs, ambiguous map[string][]string
	kinds           map[string]string
	mu              sync.Mutex // guards closures
	closures        map[string]*closure
}

// newLinker reads the project files and resolves every file's includes.
func newLinker(files []*lang.File, project map[string][]byte) *linker {
	l := &linker{byPath: map[string]*lang.File{}, dirs: map[string]*includeDirs{},
		includes: map[string][]string{}, why: map[string][]string{},
		defs: map[string][]string{}, ambiguous: map[string][]string{}, kinds: map[string]string{},
		closures: map[string]*closure{}}
	paths := make([]string, 0, len(files))
	for _, f := range files {
		l.byPath[f.Path] = f
		paths = append(paths, f.Path)
	}
	slices.Sort(paths)
	keys := slices.Sorted(maps.Keys(project))
	db := readCompileCommands(keys, project, l.byPath)
	flags := map[string]*includeDirs{} // compile_flags.txt by folder
	cm := newCMake()
	for _, p := range keys {
		switch path.Base(p) {
		case compileFlags:
			d := &includeDirs{}
			parseFlags(strings.Fields(string(project[p])), func(quote bool, dir string) {
				if rel, ok := workspacePath(dirOf(p), dir, ""); ok {
					d.add(quote, rel)
				}
			})
			flags[dirOf(p)] = d
		case cmakeLists:
			cm.read(p, project[p])
		}
	}
	cm.eval()
	l.skipped = cm.skipped
	for _, p := range paths {
		d := &includeDirs{}
		if e := db.entryFor(p); e != nil {
			for _, q := range e.quote {
				d.add(true, q)
			}
			for _, x := range e.dirs {
				d.add(false, x)
			}
		}
		for dir := dirOf(p); ; dir = dirOf(dir) {
			if fd := flags[dir]; fd != nil {
				for _, q := range fd.quote {
					d.add(true, q)
				}
				for _, x := range fd.dirs {
					d.add(false, x)
				}
				break
			}
			if dir == "" {
				break
			}
		}
		for _, x := range cm.dirsFor(p) {
			d.add(false, x)
		}
		l.dirs[p] = d
	}
	for _, p := range paths {
		f := l.byPath[p]
		l.includes[p], l.why[p] = l.resolveAll(f, l.dirs[p])
		for _, s := range f.Symbols {
			l.defs[s.Name] = append(l.defs[s.Name], p)
			l.kinds[p+"@"+s.Name] = s.Kind
		}
		for _, a := range f.Ambiguous {
			l.ambiguous[a] = append(l.ambiguous[a], p)
		}
	}
	return l
}

// dirOf returns the folder of a root-relative path, "" at the root.
func dirOf(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

// include splits an #include's operand as the scanner records it: "x.h"
// (quoted) or <x.h> (angle). ok is false for a computed include (a macro).
func include(imp string) (name string, angle, ok bool) {
	switch {
	case len(imp) >= 2 && imp[0] == '"' && imp[len(imp)-1] == '"':
		return imp[1 : len(imp)-1], false, true
	case len(imp) >= 2 && imp[0] == '<' && imp[len(imp)-1] == '>':
		return imp[1 : len(imp)-1], true, true
	}
	return "", false, false
}

// resolveAll resolves f's includes with the include directories d: the
// workspace files, in source order without repeats, and the quoted
// includes found nowhere, with why.
func (l *linker) resolveAll(f *lang.File, d *includeDirs) (files, why []string) {
	for _, imp := range f.Imports {
		name, angle, ok := include(imp)
		if !ok || name == "" {
			continue
		}
		file, reason := l.resolve(f.Path, d, name, angle)
		switch {
		case file != "":
			if file != f.Path && !slices.Contains(files, file) {
				files = append(files, file)
			}
		case reason != "":
			why = append(why, imp+" ("+reason+")")
		}
	}
	return files, why
}

// resolve returns the workspace file an include of the file at from
// names, looked up in d, or for a quoted include found nowhere, why.
func (l *linker) resolve(from string, d *includeDirs, name string, angle bool) (file, why string) {
	name = slashes(name)
	if isAbs(name) {
		if angle {
			return "", ""
		}
		return "", "an absolute path, outside the workspace"
	}
	var search []string
	if !angle {
		search = append(search, dirOf(from))
		search = append(search, d.quote...)
	}
	search = append(search, d.dirs...)
	for _, dir := range search {
		if p, ok := workspacePath(dir, name, ""); ok {
			if _, found := l.byPath[p]; found {
				return p, ""
			}
		}
	}
	if angle {
		return "", ""
	}
	why = fmt.Sprintf("no code file of that name in the including folder or its %d include dirs", d.count())
	if len(l.skipped) > 0 {
		why += fmt.Sprintf("; %d include dirs need cmake to evaluate, such as %s", len(l.skipped), l.skipped[0])
	}
	return "", why
}

// isAbs reports whether p is an absolute path, POSIX or Windows.
func isAbs(p string) bool {
	return strings.HasPrefix(p, "/") || len(p) >= 3 && p[1] == ':' && p[2] == '/' && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z')
}

// workspacePath joins rel to the root-relative folder dir and reports
// whether the result stays in the workspace. An absolute rel is mapped
// through root, the workspace's absolute path ("" when unknown).
func workspacePath(dir, rel, root string) (string, bool) {
	rel = strings.ReplaceAll(rel, `\`, "/")
	if isAbs(rel) {
		if root == "" {
			return "", false
		}
		rest, ok := strings.CutPrefix(path.Clean(rel), root)
		if !ok || rest != "" && rest[0] != '/' {
			return "", false
		}
		rel, dir = strings.TrimPrefix(rest, "/"), ""
	}
	p := path.Join(dir, rel)
	if p == "." {
		return "", true
	}
	return p, p != ".." && !strings.HasPrefix(p, "../")
}

// imports implements [lang.Linker.Imports]. A file the linker was not
// built with is resolved on its own, with no include directories.
func (l *linker) imports(f *lang.File) (files, unresolved []string) {
	if l.byPath[f.Path] != f {
		d := l.dirs[f.Path]
		if d == nil {
			d = &includeDirs{}
		}
		files, unresolved = l.resolveAll(f, d)
		return slices.Sorted(slices.Values(files)), unresolved
	}
	return slices.Sorted(slices.Values(l.includes[f.Path])), slices.Clone(l.why[f.Path])
}

// closure is the set of files a file includes, transitively, itself
// excluded; complete is false when it was cut at maxClosure files.
type closure struct {
	files    map[string]bool
	complete bool
}

// closureOf returns f's closure, computed once per file.
func (l *linker) closureOf(f *lang.File) *closure {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c := l.closures[f.Path]; c != nil && l.byPath[f.Path] == f {
		return c
	}
	c := &closure{files: map[string]bool{}, complete: true}
	seen := map[string]bool{f.Path: true}
	queue := []string{f.Path}
	for len(queue) > 0 && c.complete {
		p := queue[0]
		queue = queue[1:]
		next := l.includes[p]
		if p == f.Path && l.byPath[p] != f {
			next, _ = l.imports(f)
		}
		for _, q := range next {
			if seen[q] {
				continue
			}
			if len(c.files) == maxClosure {
				c.complete = false
				break
			}
			seen[q] = true
			c.files[q] = true
			queue = append(queue, q)
		}
	}
	if l.byPath[f.Path] == f {
		l.closures[f.Path] = c
	}
	return c
}

// resolveCall implements [lang.Linker.ResolveCall]: a lexical hint. The
// call's name is looked up as C++ looks up an unqualified or qualified
// name, scope by scope from the caller's outward: in a method
// ns.Class.m, a call f() is tried as ns.Class.f, ns.f, then f (a
// qualified call Q::f() as ns.Class.Q.f, ns.Q.f, then Q.f; ::f() as f
// only). At the first scope where some file names it, that is the answer
// if exactly one does: the calling file itself first (its definition is
// the one it calls), else the files it includes, transitively. A call
// through an object (a.f(), p->f(), a longer receiver) names no scope and
// is not resolved ([scopeCall]);
// neither is a type (a constructor call), an ambiguous name, nor a name
// looked up in an include closure cut at maxClosure files (an unseen
// header could define it too).
func (l *linker) resolveCall(f *lang.File, c lang.Call) (lang.Ref, bool) {
	if c.Qual == "." || c.Name == "" || c.Qual != "" && !scopeCall(f, c) {
		return lang.Ref{}, false
	}
	name := c.Name
	if q := strings.ReplaceAll(strings.Trim(c.Qual, ":"), "::", "."); q != "" {
		name = q + "." + c.Name
	}
	var scopes []string
	if !strings.HasPrefix(c.Qual, "::") {
		parts := strings.Split(c.From, ".")
		for i := len(parts) - 1; i > 0; i-- {
			scopes = append(scopes, strings.Join(parts[:i], ".")+"."+name)
		}
	}
	scopes = append(scopes, name)
	var cl *closure
	for _, n := range scopes {
		if s, ok, amb := f.Lookup(n); amb {
			return lang.Ref{}, false
		} else if ok {
			if s.Kind == lang.KindType {
				return lang.Ref{}, false
			}
			return lang.Ref{Path: f.Path, Symbol: n}, true
		}
		if cl == nil {
			cl = l.closureOf(f)
		}
		var found []string
		for _, p := range l.defs[n] {
			if cl.files[p] {
				found = append(found, p)
			}
		}
		for _, p := range l.ambiguous[n] {
			if cl.files[p] {
				return lang.Ref{}, false
			}
		}
		switch {
		case len(found) == 1 && cl.complete:
			if l.kinds[found[0]+"@"+n] == lang.KindType {
				return lang.Ref{}, false
			}
			return lang.Ref{Path: found[0], Symbol: n}, true
		case len(found) > 0 || !cl.complete:
			return lang.Ref{}, false
		}
	}
	return lang.Ref{}, false
}

// scopeCall reports whether the qualified call c of f is written through
// a scope (Q::f(), ::f()), not through an object (q.f(), q->f(), which
// the scanner qualifies alike): the tokens on the call's line must show
// the qualifier, "::" and the name.
func scopeCall(f *lang.File, c lang.Call) bool {
	if strings.Contains(c.Qual, "::") {
		return true
	}
	qual := strings.Trim(c.Qual, ":")
	i, _ := slices.BinarySearchFunc(f.Tokens, c.Line, func(t lang.Token, n int) int { return t.Line - n })
	for ; i+1 < len(f.Tokens) && f.Tokens[i].Line == c.Line; i++ {
		if f.Tokens[i].Text != "::" || f.Tokens[i+1].Text != c.Name {
			continue
		}
		if qual == "" || i > 0 && f.Tokens[i-1].Text == qual {
			return true
		}
	}
	return false
}

// linkerAdapter makes a [linker] a [lang.Linker].
type linkerAdapter struct{ l *linker }

func (a linkerAdapter) Imports(f *lang.File) (files, unresolved []string) { return a.l.imports(f) }
func (a linkerAdapter) ResolveCall(f *lang.File, c lang.Call) (lang.Ref, bool) {
	return a.l.resolveCall(f, c)
}

// parseFlags calls add for each include directory of a compiler command
// line, in order: -iquote's with quote set.
func parseFlags(args []string, add func(quote bool, dir string)) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		for _, fl := range []struct {
			name  string
			quote bool
		}{
			{"--include-directory=", false}, {"--include-directory", false},
			{"-iquote", true}, {"-isystem", false}, {"-idirafter", false},
			{"-I", false}, {"/I", false},
		} {
			rest, ok := strings.CutPrefix(a, fl.name)
			if !ok {
				continue
			}
			if rest == "" {
				if i+1 >= len(args) {
					break
				}
				i++
				rest = args[i]
			}
			add(fl.quote, rest)
			break
		}
	}
}

// compileEntry is one translation unit of a compilation database, mapped
// to the workspace.
type compileEntry struct {
	file        string // root-relative
	quote, dirs []string
}

// compileDB is the workspace's compilation databases merged.
type compileDB struct {
	byFile map[string]*compileEntry
	byStem map[string]*compileEntry // "dir/stem" → first entry, sorted by path
	byDir  map[string]*compileEntry // every ancestor folder of an entry → first entry below it
}

// rawEntry is one entry of compile_commands.json as written.
type rawEntry struct {
	Directory string   `json:"directory"`
	File      string   `json:"file"`
	Command   string   `json:"command"`
	Arguments []string `json:"arguments"`
}

// readCompileCommands reads every compile_commands.json of keys. Entries
// whose file lies outside the workspace are ignored; so are include
// directories outside it.
func readCompileCommands(keys []string, project map[string][]byte, byPath map[string]*lang.File) *compileDB {
	db := &compileDB{byFile: map[string]*compileEntry{}, byStem: map[string]*compileEntry{}, byDir: map[string]*compileEntry{}}
	for _, k := range keys {
		if path.Base(k) != compileCommands {
			continue
		}
		var raw []rawEntry
		if json.Unmarshal(project[k], &raw) != nil {
			continue
		}
		root := workspaceRoot(raw, byPath)
		for _, r := range raw {
			dir := slashes(r.Directory)
			// resolve maps a path of the entry to the workspace: an
			// absolute one through root, a relative one against the
			// entry's directory (itself relative to the database's
			// folder when it is not absolute).
			resolve := func(p string) (string, bool) {
				p = slashes(p)
				switch {
				case isAbs(p):
				case isAbs(dir):
					p = path.Join(dir, p)
				default:
					return workspacePath(path.Join(dirOf(k), dir), p, "")
				}
				return workspacePath("", p, root)
			}
			file, ok := resolve(r.File)
			if !ok || file == "" || db.byFile[file] != nil {
				continue
			}
			e := &compileEntry{file: file}
			args := r.Arguments
			if len(args) == 0 {
				args = splitCommand(r.Command)
			}
			parseFlags(args, func(quote bool, d string) {
				if rel, ok := resolve(d); ok {
					if quote {
						e.quote = append(e.quote, rel)
					} else {
						e.dirs = append(e.dirs, rel)
					}
				}
			})
			db.byFile[file] = e
		}
	}
	for _, file := range slices.Sorted(maps.Keys(db.byFile)) {
		e := db.byFile[file]
		stem := strings.TrimSuffix(file, path.Ext(file))
		if db.byStem[stem] == nil {
			db.byStem[stem] = e
		}
		for d := dirOf(file); ; d = dirOf(d) {
			if db.byDir[d] == nil {
				db.byDir[d] = e
			}
			if d == "" {
				break
			}
		}
	}
	return db
}

// slashes turns a Windows path's backslashes into slashes.
func slashes(p string) string { return strings.ReplaceAll(p, `\`, "/") }

// entryFor returns the compile command of the file at p: its own, else
// that of the file of the same stem in its folder, else the first below
// the nearest folder that holds one; nil without any.
func (db *compileDB) entryFor(p string) *compileEntry {
	if e := db.byFile[p]; e != nil {
		return e
	}
	if e := db.byStem[strings.TrimSuffix(p, path.Ext(p))]; e != nil {
		return e
	}
	for d := dirOf(p); ; d = dirOf(d) {
		if e := db.byDir[d]; e != nil {
			return e
		}
		if d == "" {
			return nil
		}
	}
}

// workspaceRoot finds the workspace's absolute path from the absolute
// file paths of a compilation database: the prefix that most entries'
// paths have before the path of a workspace file (the longest such path
// for each entry; ties: the shortest prefix). It is "" when no entry names
// a workspace file.
func workspaceRoot(raw []rawEntry, byPath map[string]*lang.File) string {
	votes := map[string]int{}
	for _, r := range raw {
		f := slashes(r.File)
		if !isAbs(f) {
			d := slashes(r.Directory)
			if !isAbs(d) {
				continue
			}
			f = path.Join(d, f)
		}
		parts := strings.Split(path.Clean(f), "/")
		for i := 1; i < len(parts); i++ {
			if _, ok := byPath[strings.Join(parts[i:], "/")]; ok {
				votes[strings.Join(parts[:i], "/")]++
				break
			}
		}
	}
	best := ""
	for _, root := range slices.Sorted(maps.Keys(votes)) {
		if best == "" || votes[root] > votes[best] || votes[root] == votes[best] && len(root) < len(best) {
			best = root
		}
	}
	return best
}

// splitCommand splits a compile command into words as a POSIX shell would
// (quotes and backslash escapes, no expansion); a Windows command line
// (one that names a drive, C:\...) keeps its backslashes.
func splitCommand(cmd string) []string {
	windows := strings.Contains(cmd, `:\`)
	var args []string
	var cur strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '\\' && !windows && i+1 < len(cmd) && strings.IndexByte("\"\\$`", cmd[i+1]) >= 0:
				i++
				cur.WriteByte(cmd[i])
			default:
				cur.WriteByte(c)
			}
		case c == '"' || c == '\'' && !windows:
			quote, inWord = c, true
		case c == '\\' && !windows && i+1 < len(cmd):
			i++
			cur.WriteByte(cmd[i])
			inWord = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args
}

// cmakeCommand is one command invocation of a CMakeLists.txt.
type cmakeCommand struct {
	name string // lower case: CMake's command names ignore case
	line int
	args []string
}

// parseCMake splits a CMakeLists.txt into its command invocations: the
// CMake language's lexical rules (comments, bracket arguments and
// comments, quoted arguments with escapes, unquoted ones; parentheses
// inside the arguments balance). It never fails: what does not read as a
// command is skipped.
func parseCMake(src []byte) []cmakeCommand {
	var cmds []cmakeCommand
	line := 1
	i, n := 0, len(src)
	// bracket returns the end (after the closing bracket) of a bracket
	// argument or comment opening at i ("[[", "[=[", ...), or -1.
	bracket := func(i int) (content string, end int) {
		j := i + 1
		for j < n && src[j] == '=' {
			j++
		}
		if j >= n || src[j] != '[' {
			return "", -1
		}
		closer := "]" + strings.Repeat("=", j-i-1) + "]"
		k := strings.Index(string(src[j+1:]), closer)
		if k < 0 {
			return string(src[j+1:]), n
		}
		return string(src[j+1 : j+1+k]), j + 1 + k + len(closer)
	}
	skipComment := func() {
		if i+1 < n && src[i+1] == '[' {
			if _, end := bracket(i + 1); end >= 0 {
				line += strings.Count(string(src[i:end]), "\n")
				i = end
				return
			}
		}
		for i < n && src[i] != '\n' {
			i++
		}
	}
	for i < n {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == '#':
			skipComment()
		case isWordByte(c):
			start := i
			for i < n && isWordByte(src[i]) {
				i++
			}
			name := strings.ToLower(string(src[start:i]))
			for i < n && (src[i] == ' ' || src[i] == '\t') {
				i++
			}
			if i >= n || src[i] != '(' {
				continue
			}
			cmd := cmakeCommand{name: name, line: line}
			i++
			depth := 0
			var cur strings.Builder
			inArg := false
			flush := func() {
				if inArg {
					cmd.args = append(cmd.args, cur.String())
					cur.Reset()
					inArg = false
				}
			}
		args:
			for i < n {
				c := src[i]
				switch {
				case c == '\n':
					flush()
					line++
					i++
				case c == ' ' || c == '\t' || c == '\r':
					flush()
					i++
				case c == '#' && !inArg:
					skipComment()
				case c == '(':
					flush()
					depth++
					i++
				case c == ')':
					flush()
					i++
					if depth == 0 {
						break args
					}
					depth--
				case c == '[' && !inArg:
					if content, end := bracket(i); end >= 0 {
						cmd.args = append(cmd.args, content)
						line += strings.Count(string(src[i:end]), "\n")
						i = end
						continue
					}
					cur.WriteByte(c)
					inArg = true
					i++
				case c == '"':
					// A quoted argument, or quotes inside an unquoted one.
					inArg = true
					i++
					for i < n && src[i] != '"' {
						if src[i] == '\\' && i+1 < n {
							i++
							if src[i] == '\n' { // a line continuation
								line++
								i++
								continue
							}
						}
						if src[i] == '\n' {
							line++
						}
						cur.WriteByte(src[i])
						i++
					}
					i++
				case c == '\\' && i+1 < n:
					cur.WriteByte(src[i+1])
					inArg = true
					i += 2
				default:
					cur.WriteByte(c)
					inArg = true
					i++
				}
			}
			cmds = append(cmds, cmd)
		default:
			i++
		}
	}
	return cmds
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// cmakeFile is what the linker keeps of one CMakeLists.txt.
type cmakeFile struct {
	path, dir string
	cmds      []cmakeCommand
	project   string // the project() name, "" without one
	// vars holds the variables set(...) so far, inherited from the
	// nearest CMakeLists.txt above; a value that needs cmake is absent
	// and its name in unknown.
	vars    map[string]string
	unknown []string
}

// cmakeTarget is a target's include directories and links.
type cmakeTarget struct {
	dir     string   // the folder of the CMakeLists.txt that defines it
	private []string // PRIVATE: its own sources only
	public  []string // PUBLIC and INTERFACE: also every target linking it
	links   []string
}

// cmake holds the include directories CMakeLists.txt files declare.
type cmake struct {
	files   map[string]*cmakeFile // by folder
	dirDirs map[string][]string   // include_directories, by folder
	targets map[string]*cmakeTarget
	byDir   map[string][]string // the targets each folder defines, sorted
	skipped []string
}

func newCMake() *cmake {
	return &cmake{files: map[string]*cmakeFile{}, dirDirs: map[string][]string{},
		targets: map[string]*cmakeTarget{}, byDir: map[string][]string{}}
}

// read records the CMakeLists.txt at root-relative path p. The commands
// are evaluated by [cmake.eval] once every file is read, since
// ${PROJECT_SOURCE_DIR} depends on the files above.
func (cm *cmake) read(p string, src []byte) {
	f := &cmakeFile{path: p, dir: dirOf(p), cmds: parseCMake(src)}
	for _, c := range f.cmds {
		if c.name == "project" && len(c.args) > 0 && f.project == "" {
			f.project = c.args[0]
		}
	}
	cm.files[f.dir] = f
}

// eval evaluates every file's commands, outer folders first.
func (cm *cmake) eval() {
	dirs := slices.Sorted(maps.Keys(cm.files))
	for _, d := range dirs {
		f := cm.files[d]
		for _, c := range f.cmds {
			switch c.name {
			case "add_library", "add_executable":
				if len(c.args) > 0 && cm.targets[c.args[0]] == nil {
					cm.targets[c.args[0]] = &cmakeTarget{dir: d}
					cm.byDir[d] = append(cm.byDir[d], c.args[0])
				}
			}
		}
	}
	for _, d := range dirs {
		f := cm.files[d]
		f.vars = map[string]string{}
		for up := d; up != ""; {
			up = dirOf(up)
			if g := cm.files[up]; g != nil {
				f.vars, f.unknown = maps.Clone(g.vars), slices.Clone(g.unknown)
				break
			}
		}
		for _, c := range f.cmds {
			switch c.name {
			case "set", "list", "unset":
				cm.setVar(f, c)
			case "include_directories":
				for _, a := range c.args {
					if a == "AFTER" || a == "BEFORE" || a == "SYSTEM" {
						continue
					}
					cm.dirDirs[d] = append(cm.dirDirs[d], cm.expand(f, c, a)...)
				}
			case "target_include_directories":
				if len(c.args) == 0 {
					continue
				}
				t := cm.target(c.args[0], d)
				public := true // no scope keyword: the command requires one; read as PUBLIC
				for _, a := range c.args[1:] {
					switch a {
					case "SYSTEM", "BEFORE", "AFTER":
					case "PRIVATE":
						public = false
					case "PUBLIC", "INTERFACE":
						public = true
					default:
						if public {
							t.public = append(t.public, cm.expand(f, c, a)...)
						} else {
							t.private = append(t.private, cm.expand(f, c, a)...)
						}
					}
				}
			case "target_link_libraries":
				if len(c.args) == 0 {
					continue
				}
				t := cm.target(c.args[0], d)
				for _, a := range c.args[1:] {
					switch a {
					case "PRIVATE", "PUBLIC", "INTERFACE", "LINK_PRIVATE", "LINK_PUBLIC", "LINK_INTERFACE_LIBRARIES", "debug", "optimized", "general":
					default:
						t.links = append(t.links, a)
					}
				}
			}
		}
	}
	for _, d := range dirs {
		slices.Sort(cm.byDir[d])
	}
}

// setVar evaluates set(V values...), list(APPEND V values...) and
// unset(V) in f, in file order, as if every if() branch ran: V gets the
// values joined as a CMake list when each is declarative (literals and
// the variables [cmake.vars] knows), else V becomes unknown.
func (cm *cmake) setVar(f *cmakeFile, c cmakeCommand) {
	args := c.args
	appendTo := false
	switch c.name {
	case "unset":
		if len(args) > 0 {
			delete(f.vars, args[0])
		}
		return
	case "list":
		if len(args) < 2 || args[0] != "APPEND" {
			if len(args) > 1 {
				delete(f.vars, args[1]) // another list operation: unknown now
			}
			return
		}
		args, appendTo = args[1:], true
	}
	if len(args) == 0 {
		return
	}
	name, values := args[0], args[1:]
	if slices.Contains(values, "PARENT_SCOPE") {
		return
	}
	if i := slices.Index(values, "CACHE"); i >= 0 && !appendTo {
		values = values[:i]
	}
	var parts []string
	if old, ok := f.vars[name]; ok && appendTo && old != "" {
		parts = append(parts, old)
	} else if appendTo && !ok && hasVar(f, name) {
		delete(f.vars, name)
		return
	}
	for _, v := range values {
		x, ok := cm.vars(f, v)
		if !ok {
			delete(f.vars, name)
			f.unknown = append(f.unknown, name)
			return
		}
		parts = append(parts, x)
	}
	f.vars[name] = strings.Join(parts, ";")
}

// hasVar reports whether name was set in f to a value that needs cmake.
func hasVar(f *cmakeFile, name string) bool { return slices.Contains(f.unknown, name) }

// target returns the target named name, creating it for a target defined
// where tracewiki does not see it (in folder d).
func (cm *cmake) target(name, d string) *cmakeTarget {
	t := cm.targets[name]
	if t == nil {
		t = &cmakeTarget{dir: d}
		cm.targets[name] = t
	}
	return t
}

// expand returns the root-relative folders an include-directory argument
// a of command c in f names: a CMake list (';'-separated), each item with
// the source-dir variables expanded and $<BUILD_INTERFACE:...> unwrapped,
// relative to f's folder. An item that needs cmake to evaluate is
// recorded in cm.skipped; one outside the workspace is dropped.
func (cm *cmake) expand(f *cmakeFile, c cmakeCommand, a string) []string {
	var out []string
	for _, item := range splitCMakeList(a) {
		if item == "" {
			continue
		}
		if inner, ok := strings.CutPrefix(item, "$<BUILD_INTERFACE:"); ok && strings.HasSuffix(inner, ">") && !strings.Contains(inner, "$<") {
			item = strings.TrimSuffix(inner, ">")
		} else if strings.HasPrefix(item, "$<INSTALL_INTERFACE:") {
			continue // the installed tree: not the sources
		}
		v, ok := cm.vars(f, item)
		if !ok {
			cm.skipped = append(cm.skipped, fmt.Sprintf("%s:%d: %s", f.path, c.line, item))
			continue
		}
		for _, dir := range splitCMakeList(v) {
			if rel, ok := workspacePath(f.dir, dir, "/\x00"); ok && dir != "" {
				out = append(out, rel)
			}
		}
	}
	return out
}

// vars expands the variables of s in f: the source-dir ones, an absolute
// result under "/\x00" (the workspace root), and those f set to a
// declarative value; false when s has any other variable or a generator
// expression.
func (cm *cmake) vars(f *cmakeFile, s string) (string, bool) {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '$')
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		rest := s[i:]
		if !strings.HasPrefix(rest, "${") {
			if strings.HasPrefix(rest, "$<") || strings.HasPrefix(rest, "$ENV{") || strings.HasPrefix(rest, "$CACHE{") {
				return "", false
			}
			b.WriteByte('$')
			s = rest[1:]
			continue
		}
		j := strings.IndexByte(rest, '}')
		if j < 0 || strings.Contains(rest[2:j], "$") {
			return "", false
		}
		if v, ok := f.vars[rest[2:j]]; ok {
			b.WriteString(v)
		} else if dir, ok := cm.sourceDir(f, rest[2:j]); ok {
			b.WriteString(path.Join("/\x00", dir))
		} else {
			return "", false
		}
		s = rest[j+1:]
	}
	return b.String(), true
}

// sourceDir returns the root-relative folder a source-dir variable names
// in f.
func (cm *cmake) sourceDir(f *cmakeFile, v string) (string, bool) {
	switch v {
	case "CMAKE_CURRENT_SOURCE_DIR", "CMAKE_CURRENT_LIST_DIR":
		return f.dir, true
	case "CMAKE_SOURCE_DIR":
		top := f.dir
		for d := f.dir; ; d = dirOf(d) {
			if cm.files[d] != nil {
				top = d
			}
			if d == "" {
				return top, true
			}
		}
	case "PROJECT_SOURCE_DIR":
		for d := f.dir; ; d = dirOf(d) {
			if g := cm.files[d]; g != nil && g.project != "" {
				return d, true
			}
			if d == "" {
				return "", false
			}
		}
	}
	if name, ok := strings.CutSuffix(v, "_SOURCE_DIR"); ok {
		// A project's source dir is global (a cache variable): the one
		// folder whose CMakeLists.txt declares that project.
		found, n := "", 0
		for _, d := range slices.Sorted(maps.Keys(cm.files)) {
			if cm.files[d].project == name {
				found, n = d, n+1
			}
		}
		if n == 1 {
			return found, true
		}
	}
	return "", false
}

// splitCMakeList splits a CMake list on its unescaped ';' outside
// brackets ([...]) and generator expressions ($<...>).
func splitCMakeList(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '<':
			depth++
		case ']', '>':
			depth = max(depth-1, 0)
		case ';':
			if depth == 0 && (i == 0 || s[i-1] != '\\') {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// dirsFor returns the include directories CMake gives the file at p: for
// each folder from the root down to p's that has a CMakeLists.txt, its
// include_directories, then the PRIVATE, PUBLIC and INTERFACE directories
// of the targets it defines and the PUBLIC and INTERFACE ones of the
// targets they link, transitively.
func (cm *cmake) dirsFor(p string) []string {
	var chain []string
	for d := dirOf(p); ; d = dirOf(d) {
		if cm.files[d] != nil {
			chain = append(chain, d)
		}
		if d == "" {
			break
		}
	}
	slices.Reverse(chain)
	var out []string
	for _, d := range chain {
		out = append(out, cm.dirDirs[d]...)
		for _, name := range cm.byDir[d] {
			t := cm.targets[name]
			out = append(out, t.private...)
			out = append(out, t.public...)
			seen := map[string]bool{name: true}
			queue := slices.Clone(t.links)
			for len(queue) > 0 && len(seen) < maxClosure {
				l := queue[0]
				queue = queue[1:]
				if seen[l] {
					continue
				}
				seen[l] = true
				if lt := cm.targets[l]; lt != nil {
					out = append(out, lt.public...)
					queue = append(queue, lt.links...)
				}
			}
		}
	}
	return out
}
