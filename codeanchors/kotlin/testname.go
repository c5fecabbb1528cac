package kotlin

import (
	"path"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// testAnnotations are the annotations that make a function a test: JUnit 4
// and 5 (@Test, @ParameterizedTest, @RepeatedTest, @TestFactory,
// @TestTemplate, JUnit 4's @Theory) and kotlin.test (@Test). They are
// matched by simple name, as written (org.junit.Test and kotlin.test.Test
// both read Test).
var testAnnotations = []string{"Test", "ParameterizedTest", "RepeatedTest", "TestFactory", "TestTemplate", "Theory"}

// isTestFunction reports whether a function annotated annots is a test.
func isTestFunction(annots []string) bool {
	for _, a := range annots {
		if slices.Contains(testAnnotations, a) {
			return true
		}
	}
	return false
}

// IsTest reports whether the Kotlin file at p (slash-separated) is a test
// file, which makes every symbol in it a test: a file of a test source set
// (below src/test/, or src/NAMETest/ as Gradle's integrationTest, Android's
// androidTest and Kotlin Multiplatform's commonTest and jvmTest), or one
// named as Gradle and Maven pick test classes (*Test.kt, *Tests.kt,
// *TestCase.kt, Test*.kt, *IT.kt). Scripts (.kts) are never test files by
// name. A test function is known by its annotations, which [Extract] reads.
func (language) IsTest(p, _ string) bool {
	dir, base := path.Split(p)
	parts := strings.Split(dir, "/")
	for i := 0; i+1 < len(parts); i++ {
		if parts[i] == "src" && (parts[i+1] == "test" || strings.HasSuffix(parts[i+1], "Test")) {
			return true
		}
	}
	stem, ok := strings.CutSuffix(base, ".kt")
	if !ok {
		return false
	}
	if rest, ok := strings.CutPrefix(stem, "Test"); ok && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z' {
		return true
	}
	for _, suf := range []string{"Test", "Tests", "TestCase", "IT"} {
		if strings.HasSuffix(stem, suf) && stem != suf {
			return true
		}
	}
	return false
}

// MatchTests returns the results of a Gradle (or Maven Surefire) JUnit XML
// report that a tests target stands for. A result's classname (Suite) is
// the test class's fully qualified name, package.Class, a nested class
// after a '$' or a '.'; its name is the function's, as JUnit 5 writes it
// with its parameter list and invocation (adds an item(), sizes(int)[2]),
// which are cut off, and a backtick name read as [BacktickName] reads it.
// The invocations of one function merge into one result, failed if any
// failed, else skipped if any was skipped.
//
// PATH@Class.f stands for that function's result; PATH@Class for every
// result of the class and the classes nested in it; PATH for every result
// of the file's top-level classes and theirs. A class or file needs at
// least one result. The package is the file's package header (in.File
// gives the extracted file), else the path below src/NAME/kotlin/ or
// src/NAME/java/.
func (language) MatchTests(t claims.Target, results []lang.TestResult, in lang.TestInput) []lang.TestResult {
	pkg, tops := "", []string{}
	if f := in.File(t.Path); f != nil {
		pkg = f.Package
		for _, n := range append(symbolNames(f), f.Ambiguous...) {
			if !strings.Contains(n, ".") {
				tops = append(tops, n)
			}
		}
	} else {
		pkg = pathPackage(t.Path)
		tops = append(tops, strings.TrimSuffix(path.Base(t.Path), ".kt"))
	}
	within := func(class, scope string) bool { return class == scope || strings.HasPrefix(class, scope+".") }
	var out []lang.TestResult
	at := map[string]int{}
	for _, r := range results {
		class := strings.ReplaceAll(r.Suite, "$", ".")
		if pkg != "" {
			var ok bool
			if class, ok = strings.CutPrefix(class, pkg+"."); !ok {
				continue
			}
		}
		fn := testFunctionName(r.Name)
		var keep bool
		switch {
		case !t.IsSymbol():
			keep = slices.ContainsFunc(tops, func(top string) bool { return within(class, top) })
		case within(class, t.Symbol):
			keep = true
		default:
			keep = class+"."+fn == t.Symbol
		}
		if !keep {
			continue
		}
		key := class + "." + fn
		if i, seen := at[key]; seen {
			if o := r.Outcome; o == lang.OutcomeFail || o == lang.OutcomeSkip && out[i].Outcome == lang.OutcomePass {
				out[i].Outcome = o
			}
			continue
		}
		at[key] = len(out)
		r.Name = fn
		out = append(out, r)
	}
	return out
}

func symbolNames(f *lang.File) []string {
	names := make([]string, len(f.Symbols))
	for i, s := range f.Symbols {
		names[i] = s.Name
	}
	return names
}

// testFunctionName returns the function name of a report's test name: the
// invocation ([2]) and parameter list cut off, read as a backtick name.
func testFunctionName(name string) string {
	if strings.HasSuffix(name, "]") {
		if i := strings.LastIndexByte(name, '['); i > 0 {
			name = name[:i]
		}
	}
	if strings.HasSuffix(name, ")") {
		if i := strings.LastIndexByte(name, '('); i > 0 {
			name = name[:i]
		}
	}
	return BacktickName(name)
}

// pathPackage returns the package a path below src/NAME/kotlin/ or
// src/NAME/java/ stands for, "" when the path has no such folder.
func pathPackage(p string) string {
	parts := strings.Split(path.Dir(p), "/")
	for i := 0; i+2 < len(parts); i++ {
		if parts[i] == "src" && (parts[i+2] == "kotlin" || parts[i+2] == "java") {
			return strings.Join(parts[i+3:], ".")
		}
	}
	return ""
}
