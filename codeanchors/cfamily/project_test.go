package cfamily

import (
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

func TestProjectFile(t *testing.T) {
	for name, want := range map[string]bool{
		"compile_commands.json": true, "CMakeLists.txt": true, "compile_flags.txt": true,
		".clangd": false, "cmakelists.txt": false, "Makefile": false, "meson.build": false,
	} {
		if got := projectFile(name); got != want {
			t.Errorf("projectFile(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestSplitCommand(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		want []string
	}{
		{`/usr/bin/c++ -DX=1 -I/w/include -o a.o -c /w/src/a.cc`, []string{"/usr/bin/c++", "-DX=1", "-I/w/include", "-o", "a.o", "-c", "/w/src/a.cc"}},
		{`cc -I"/w/my dir" '-I/w/it'\''s' -DMSG=\"hi\" a\ b.c`, []string{"cc", "-I/w/my dir", "-I/w/it's", `-DMSG="hi"`, "a b.c"}},
		{`cc "-DQ=\"x\\y\""  x.c`, []string{"cc", `-DQ="x\y"`, "x.c"}},
		{`C:\llvm\bin\clang-cl.exe /nologo /IC:\w\include /I "C:\w\my dir" -c C:\w\a.c`, []string{`C:\llvm\bin\clang-cl.exe`, "/nologo", `/IC:\w\include`, "/I", `C:\w\my dir`, "-c", `C:\w\a.c`}},
		{"", nil},
	} {
		if got := splitCommand(tt.cmd); !slices.Equal(got, tt.want) {
			t.Errorf("splitCommand(%q) = %q, want %q", tt.cmd, got, tt.want)
		}
	}
}

func TestParseFlags(t *testing.T) {
	var got []string
	parseFlags([]string{"cc", "-Ia", "-I", "b", "-iquote", "q", "-iquoteq2", "-isystem", "s", "-isystems2",
		"-idirafter", "d", "--include-directory=e", "--include-directory", "f", "/Ig", "/I", "h", "-include", "x.h", "-DI=1", "-I"},
		func(quote bool, dir string) {
			if quote {
				dir = "quote:" + dir
			}
			got = append(got, dir)
		})
	want := []string{"a", "b", "quote:q", "quote:q2", "s", "s2", "d", "e", "f", "g", "h"}
	if !slices.Equal(got, want) {
		t.Errorf("parseFlags = %q, want %q", got, want)
	}
}

func TestParseCMake(t *testing.T) {
	src := `# comment (not a command)
cmake_minimum_required(VERSION 3.20)
project(shop C CXX)
#[[ a bracket
comment(x) ]]
include_directories(include "quoted dir" [=[bracket]=])
target_include_directories(cart
  PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>  # trailing comment
    $<INSTALL_INTERFACE:include>
  PRIVATE src\;more "line\
continued")
IF(WIN32 AND (A OR B))
  Include_Directories(win)
ENDIF()
`
	var got []string
	for _, c := range parseCMake([]byte(src)) {
		got = append(got, strings.Join(append([]string{c.name + "@" + itoa(c.line)}, c.args...), "|"))
	}
	want := []string{
		"cmake_minimum_required@2|VERSION|3.20",
		"project@3|shop|C|CXX",
		"include_directories@6|include|quoted dir|bracket",
		"target_include_directories@7|cart|PUBLIC|$<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>|$<INSTALL_INTERFACE:include>|PRIVATE|src;more|linecontinued",
		"if@13|WIN32|AND|A|OR|B",
		"include_directories@14|win",
		"endif@15",
	}
	if !slices.Equal(got, want) {
		t.Errorf("parseCMake =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Never a panic on a truncated file.
	for i := range src {
		parseCMake([]byte(src[:i]))
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// cfile builds an extracted file by hand: its includes as written, and
// symbols "kind name".
func cfile(path string, imports []string, syms ...string) *lang.File {
	f := &lang.File{Path: path, Parser: "hand@1", Imports: imports, ImportNames: make([]string, len(imports))}
	for i, s := range syms {
		kind, name, _ := strings.Cut(s, " ")
		f.Symbols = append(f.Symbols, lang.Symbol{Name: name, Kind: kind, Start: 10 * (i + 1), End: 10*(i+1) + 5})
	}
	f.SortSymbols()
	return f
}

// checkImports checks the linker's Imports for the file at p.
func checkImports(t *testing.T, l *linker, p string, wantFiles, wantUnresolved []string) {
	t.Helper()
	files, unresolved := l.imports(l.byPath[p])
	if !slices.Equal(files, wantFiles) || !slices.Equal(unresolved, wantUnresolved) {
		t.Errorf("Imports(%s) = %q, %q\nwant %q, %q", p, files, unresolved, wantFiles, wantUnresolved)
	}
}

func TestIncludesCompileCommands(t *testing.T) {
	files := []*lang.File{
		cfile("src/cart.cc", []string{`"cart.h"`, `"shop/money.h"`, `<shop/money.h>`, `<vector>`, `"gen/config.h"`, `"../include/shop/money.h"`, `MACRO_INCLUDE`}),
		cfile("src/cart.h", []string{`"shop/money.h"`}),
		cfile("src/util/strings.cc", []string{`<shop/money.h>`, `"cart.h"`}),
		cfile("include/shop/money.h", nil),
		cfile("quoted/shop/money.h", nil),
		cfile("tools/gen.c", []string{`<shop/money.h>`}),
	}
	// Paths written every way a compilation database writes them:
	// absolute file and include dirs, a relative file against the build
	// directory, arguments or a command line; an entry outside the
	// workspace and an include dir outside it are ignored.
	db := `[
  {"directory": "/home/ci/shop/build", "file": "/home/ci/shop/src/cart.cc",
   "arguments": ["c++", "-I/home/ci/shop/include", "-iquote", "../quoted", "-isystem", "/usr/include/x", "-c", "/home/ci/shop/src/cart.cc"]},
  {"directory": "/home/ci/shop/build", "file": "../src/util/strings.cc",
   "command": "c++ -I ../include -o x.o -c ../src/util/strings.cc"},
  {"directory": "/home/ci/elsewhere", "file": "/home/ci/elsewhere/x.c", "command": "cc -I/home/ci/shop/include -c x.c"}
]`
	l := newLinker(files, map[string][]byte{"build/compile_commands.json": []byte(db)})
	// -iquote wins over -I for "shop/money.h"; <shop/money.h> skips it.
	checkImports(t, l, "src/cart.cc", []string{"include/shop/money.h", "quoted/shop/money.h", "src/cart.h"},
		[]string{`"gen/config.h" (no code file of that name in the including folder or its 2 include dirs)`})
	// A header borrows the command of the file of its stem.
	checkImports(t, l, "src/cart.h", []string{"quoted/shop/money.h"}, nil)
	// strings.cc's own command: -I ../include against the build folder.
	checkImports(t, l, "src/util/strings.cc", []string{"include/shop/money.h"}, []string{`"cart.h" (no code file of that name in the including folder or its 1 include dirs)`})
	// tools/gen.c has no entry: the nearest folder with one is the root's (src/cart.cc).
	checkImports(t, l, "tools/gen.c", []string{"include/shop/money.h"}, nil)
}

func TestIncludesCMake(t *testing.T) {
	files := []*lang.File{
		cfile("app/main.cc", []string{`"cart/cart.h"`, `<fmt/core.h>`, `"config.h"`, `"version.h"`}),
		cfile("app/version.h", nil),
		cfile("libs/cart/include/cart/cart.h", []string{`"detail/impl.h"`, `<money/money.h>`}),
		cfile("libs/cart/src/detail/impl.h", nil),
		cfile("libs/cart/src/cart.cc", []string{`"cart/cart.h"`, `"detail/impl.h"`}),
		cfile("libs/money/api/money/money.h", nil),
		cfile("common/log.h", nil),
		cfile("tests/cart_test.cc", []string{`"cart/cart.h"`, `"money/money.h"`, `"log.h"`}),
	}
	project := map[string][]byte{
		"CMakeLists.txt": []byte(`cmake_minimum_required(VERSION 3.20)
project(shop CXX)
set(COMMON_DIRS ${PROJECT_SOURCE_DIR}/common)
list(APPEND COMMON_DIRS "${shop_SOURCE_DIR}/missing")
set(GEN_DIR ${CMAKE_BINARY_DIR}/gen)
include_directories(${COMMON_DIRS})
add_subdirectory(libs/cart)
add_subdirectory(app)
`),
		"app/CMakeLists.txt": []byte(`add_executable(shop_app main.cc)
target_link_libraries(shop_app PRIVATE shop::cart cart fmt::fmt)
target_include_directories(shop_app PRIVATE ${CMAKE_CURRENT_BINARY_DIR} $<$<CONFIG:Debug>:debug> ${GEN_DIR})
`),
		"libs/cart/CMakeLists.txt": []byte(`add_library(cart src/cart.cc)
target_include_directories(cart
  PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:include>
  PRIVATE src)
target_link_libraries(cart PUBLIC money)
add_library(money INTERFACE)
target_include_directories(money INTERFACE ${CMAKE_SOURCE_DIR}/libs/money/api /usr/include/money)
`),
		"tests/CMakeLists.txt": []byte(`add_executable(cart_test cart_test.cc)
target_link_libraries(cart_test cart GTest::gtest_main)
`),
	}
	l := newLinker(files, project)
	skipped := []string{
		"app/CMakeLists.txt:3: ${CMAKE_CURRENT_BINARY_DIR}",
		"app/CMakeLists.txt:3: $<$<CONFIG:Debug>:debug>",
		"app/CMakeLists.txt:3: ${GEN_DIR}",
	}
	if !slices.Equal(l.skipped, skipped) {
		t.Errorf("skipped = %q, want %q", l.skipped, skipped)
	}
	why := "; 3 include dirs need cmake to evaluate, such as app/CMakeLists.txt:3: ${CMAKE_CURRENT_BINARY_DIR}"
	// cart's PUBLIC include dir reaches the app through the link; fmt is
	// third-party; config.h is generated in the build folder.
	checkImports(t, l, "app/main.cc", []string{"app/version.h", "libs/cart/include/cart/cart.h"},
		[]string{`"config.h" (no code file of that name in the including folder or its 4 include dirs` + why + ")"})
	// PRIVATE src serves cart's own files; money's INTERFACE dir comes
	// through cart's PUBLIC link.
	checkImports(t, l, "libs/cart/src/cart.cc", []string{"libs/cart/include/cart/cart.h", "libs/cart/src/detail/impl.h"}, nil)
	checkImports(t, l, "libs/cart/include/cart/cart.h", []string{"libs/cart/src/detail/impl.h", "libs/money/api/money/money.h"}, nil)
	// The test links cart, so it sees cart's and money's public dirs but
	// not cart's private one; the root's include_directories hold for all.
	checkImports(t, l, "tests/cart_test.cc", []string{"common/log.h", "libs/cart/include/cart/cart.h", "libs/money/api/money/money.h"}, nil)
}

func TestIncludesCompileFlags(t *testing.T) {
	files := []*lang.File{
		cfile("fw/src/main.c", []string{`"board.h"`, `<hal/gpio.h>`}),
		cfile("fw/bsp/board.h", nil),
		cfile("fw/hal/include/hal/gpio.h", nil),
		cfile("other/x.c", []string{`"board.h"`}),
	}
	l := newLinker(files, map[string][]byte{"fw/compile_flags.txt": []byte("-xc\n-Ibsp\n-I\nhal/include\n-I../../outside\n")})
	checkImports(t, l, "fw/src/main.c", []string{"fw/bsp/board.h", "fw/hal/include/hal/gpio.h"}, nil)
	checkImports(t, l, "other/x.c", nil, []string{`"board.h" (no code file of that name in the including folder or its 0 include dirs)`})
}

func TestIncludesRelative(t *testing.T) {
	files := []*lang.File{
		cfile("a/b/x.c", []string{`"../y.h"`, `"../../../escape.h"`, `"/abs/z.h"`, `<../y.h>`, `"b/w.h"`}),
		cfile("a/y.h", []string{`"y.h"`}), // includes itself: no edge
		cfile("a/b/w.h", nil),
	}
	l := newLinker(files, nil)
	checkImports(t, l, "a/b/x.c", []string{"a/y.h"}, []string{
		`"../../../escape.h" (no code file of that name in the including folder or its 0 include dirs)`,
		`"/abs/z.h" (an absolute path, outside the workspace)`,
		`"b/w.h" (no code file of that name in the including folder or its 0 include dirs)`,
	})
	checkImports(t, l, "a/y.h", nil, nil)
	// A file the linker was not built with resolves on its own.
	extra := cfile("a/new.c", []string{`"y.h"`, `"nope.h"`})
	files2, unresolved := l.imports(extra)
	if !slices.Equal(files2, []string{"a/y.h"}) || len(unresolved) != 1 {
		t.Errorf("Imports(a/new.c) = %q, %q", files2, unresolved)
	}
}

func TestResolveCall(t *testing.T) {
	files := []*lang.File{
		cfile("src/cart.cc", []string{`"cart.h"`},
			"method Cart.add", "method Cart.total", "func helper", "func shop.detail.round"),
		cfile("src/cart.h", []string{`"money.h"`},
			"type Cart", "method Cart.add", "method Cart.total", "func make_cart"),
		cfile("src/money.h", nil, "type Money", "func round", "func format", "func shop.format"),
		cfile("src/other.h", nil, "func format"),
		cfile("src/main.cc", []string{`"cart.h"`, `"other.h"`}, "func main", "func shop.run"),
	}
	// The tokens of the qualified calls: Cart::add( on line 100 of
	// main.cc, cart.add( on 101, ::round( on 100 of cart.cc.
	files[4].Tokens = []lang.Token{{Line: 100, Text: "Cart"}, {Line: 100, Text: "::"}, {Line: 100, Text: "add"}, {Line: 100, Text: "("},
		{Line: 101, Text: "Cart"}, {Line: 101, Text: "."}, {Line: 101, Text: "add"}, {Line: 101, Text: "("}}
	files[0].Tokens = []lang.Token{{Line: 100, Text: "::"}, {Line: 100, Text: "round"}, {Line: 100, Text: "("}}
	l := newLinker(files, nil)
	byPath := l.byPath
	for _, tt := range []struct {
		file string
		call lang.Call
		want string // "" when unresolved
	}{
		// In the file itself first: its definition of Cart.total, not
		// the header's declaration.
		{"src/cart.cc", lang.Call{From: "Cart.add", Name: "total"}, "src/cart.cc@Cart.total"},
		{"src/cart.cc", lang.Call{From: "Cart.add", Name: "helper"}, "src/cart.cc@helper"},
		// Through the includes, transitively: make_cart in cart.h, round in money.h.
		{"src/cart.cc", lang.Call{From: "Cart.add", Name: "make_cart"}, "src/cart.h@make_cart"},
		{"src/cart.cc", lang.Call{From: "helper", Name: "round"}, "src/money.h@round"},
		// A qualified call, and one from inside a namespace, scope by scope.
		{"src/main.cc", lang.Call{From: "main", Qual: "Cart", Name: "add", Line: 100}, "src/cart.h@Cart.add"},
		// Cart.add() through a variable named like the class: the scanner
		// qualifies it alike, the tokens tell them apart.
		{"src/main.cc", lang.Call{From: "main", Qual: "Cart", Name: "add", Line: 101}, ""},
		{"src/main.cc", lang.Call{From: "main", Qual: "Cart", Name: "add", Line: 7}, ""},
		{"src/main.cc", lang.Call{From: "shop.run", Name: "format"}, "src/money.h@shop.format"},
		{"src/cart.cc", lang.Call{From: "shop.detail.round", Qual: "::", Name: "round", Line: 100}, "src/money.h@round"},
		// format is in money.h and other.h: ambiguous.
		{"src/main.cc", lang.Call{From: "main", Name: "format"}, ""},
		// A constructor (a type), a call through an object, an unknown name.
		{"src/main.cc", lang.Call{From: "main", Name: "Money"}, ""},
		{"src/main.cc", lang.Call{From: "main", Qual: ".", Name: "add"}, ""},
		{"src/main.cc", lang.Call{From: "main", Name: "printf"}, ""},
		// round: not seen from main.cc's includes? money.h comes through cart.h.
		{"src/main.cc", lang.Call{From: "main", Name: "round"}, "src/money.h@round"},
	} {
		got := ""
		if ref, ok := l.resolveCall(byPath[tt.file], tt.call); ok {
			got = ref.String()
		}
		if got != tt.want {
			t.Errorf("ResolveCall(%s, %+v) = %q, want %q", tt.file, tt.call, got, tt.want)
		}
	}
}

// TestResolveCallBounded checks that a call found nowhere near is not
// resolved when the include closure was cut at maxClosure: an unseen
// header could define it too.
func TestResolveCallBounded(t *testing.T) {
	var files []*lang.File
	var chain []string
	for i := range maxClosure + 2 {
		chain = append(chain, `"h`+itoa(i)+`.h"`)
	}
	files = append(files, cfile("main.c", chain, "func main"))
	for i := range maxClosure + 2 {
		var syms []string
		if i == maxClosure+1 {
			syms = []string{"func far"}
		}
		if i == 0 {
			syms = []string{"func near"}
		}
		files = append(files, cfile("h"+itoa(i)+".h", nil, syms...))
	}
	l := newLinker(files, nil)
	main := l.byPath["main.c"]
	if _, ok := l.resolveCall(main, lang.Call{From: "main", Name: "far"}); ok {
		t.Error("resolved far beyond the bound")
	}
	if _, ok := l.resolveCall(main, lang.Call{From: "main", Name: "near"}); ok {
		t.Error("resolved near although the closure is incomplete")
	}
	if ref, ok := l.resolveCall(main, lang.Call{From: "main", Name: "main"}); !ok || ref.String() != "main.c@main" {
		t.Errorf("main = %v, %v; the file's own definition needs no closure", ref, ok)
	}
}

func TestLinkerAdapter(t *testing.T) {
	files := []*lang.File{cfile("a.c", []string{`"a.h"`}, "func f"), cfile("a.h", nil, "func g")}
	var ln lang.Linker = linkerAdapter{newLinker(files, nil)}
	if got, _ := ln.Imports(files[0]); !slices.Equal(got, []string{"a.h"}) {
		t.Errorf("Imports = %q", got)
	}
	if ref, ok := ln.ResolveCall(files[0], lang.Call{From: "f", Name: "g"}); !ok || ref.String() != "a.h@g" {
		t.Errorf("ResolveCall = %v, %v", ref, ok)
	}
}

// TestIncludesCMakeSiblingProject checks the googletest layout: googlemock
// builds against ${gtest_SOURCE_DIR}, a sibling folder's project.
func TestIncludesCMakeSiblingProject(t *testing.T) {
	files := []*lang.File{
		cfile("googletest/include/gtest/gtest.h", nil),
		cfile("googlemock/src/gmock.cc", []string{`"gtest/gtest.h"`, `"gmock/gmock.h"`, `"absl/flags/flag.h"`}),
		cfile("googlemock/include/gmock/gmock.h", []string{`"gtest/gtest.h"`}),
	}
	project := map[string][]byte{
		"CMakeLists.txt":            []byte("project(googletest-distribution)\nadd_subdirectory(googlemock)\n"),
		"googletest/CMakeLists.txt": []byte("project(gtest)\n"),
		"googlemock/CMakeLists.txt": []byte(`project(gmock)
set(gmock_build_include_dirs
  "${gmock_SOURCE_DIR}/include"
  "${gmock_SOURCE_DIR}"
  "${gtest_SOURCE_DIR}/include"
  "${gtest_SOURCE_DIR}")
include_directories(${gmock_build_include_dirs})
`),
	}
	l := newLinker(files, project)
	checkImports(t, l, "googlemock/src/gmock.cc", []string{"googlemock/include/gmock/gmock.h", "googletest/include/gtest/gtest.h"},
		[]string{`"absl/flags/flag.h" (no code file of that name in the including folder or its 4 include dirs)`})
	checkImports(t, l, "googlemock/include/gmock/gmock.h", []string{"googletest/include/gtest/gtest.h"}, nil)
}
