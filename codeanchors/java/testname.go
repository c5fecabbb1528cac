package java

import (
	"path"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// testAnnotations are the annotations that make a method a test: JUnit 4
// and 5 (@Test, @ParameterizedTest, @RepeatedTest, @TestFactory,
// @TestTemplate, JUnit 4's @Theory) and TestNG (@Test). They are matched by
// simple name, as written (org.junit.jupiter.api.Test reads Test).
var testAnnotations = []string{"Test", "ParameterizedTest", "RepeatedTest", "TestFactory", "TestTemplate", "Theory"}

// isTestMethod reports whether a method annotated annots is a test by its
// annotations. The other rules are in [parser.method]: in a class that
// extends TestCase (JUnit 3) a public method named test... ([isJUnit3Name]),
// and in a class annotated @Test (TestNG) every public method.
func isTestMethod(annots []string) bool {
	for _, a := range annots {
		if slices.Contains(testAnnotations, a) {
			return true
		}
	}
	return false
}

// isJUnit3Name reports whether name is a JUnit 3 test method name: one
// that starts with test, as JUnit 3's TestSuite decides.
func isJUnit3Name(name string) bool {
	return strings.HasPrefix(name, "test")
}

// IsTest reports whether the Java file at p (slash-separated) is a test
// file, which makes every symbol in it a test: a file of a test source set
// (below src/test/, or src/NAMETest/ as Gradle's integrationTest and
// Android's androidTest), or one that Maven runs as tests by default
// (Surefire: Test*.java, *Test.java, *Tests.java, *TestCase.java; Failsafe:
// IT*.java, *IT.java, *ITCase.java). The symbol does not matter: a test
// method is known by its annotations, which [Extract] reads, not by its
// name.
func (language) IsTest(p, _ string) bool {
	dir, base := path.Split(p)
	parts := strings.Split(dir, "/")
	for i := 0; i+1 < len(parts); i++ {
		if parts[i] == "src" && (parts[i+1] == "test" || strings.HasSuffix(parts[i+1], "Test")) {
			return true
		}
	}
	stem, ok := strings.CutSuffix(base, ".java")
	if !ok {
		return false
	}
	for _, pre := range []string{"Test", "IT"} {
		if rest, ok := strings.CutPrefix(stem, pre); ok && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z' {
			return true
		}
	}
	for _, suf := range []string{"Test", "Tests", "TestCase", "IT", "ITCase"} {
		if strings.HasSuffix(stem, suf) && stem != suf {
			return true
		}
	}
	return false
}

// MatchTests returns the results of a Maven Surefire, Failsafe or Gradle
// JUnit XML report that a tests target stands for. A result's classname
// (Suite) is the test class's fully qualified name, a nested class after a
// '$' (shop.CartTest$WhenEmpty) or a '.'; its name is the method's, maybe
// with its parameter types and invocation (addsItems(), sizes(int)[2]),
// which are cut off: the invocations of one method merge into one result,
// failed if any failed, else skipped if any was skipped.
//
// PATH@Class.method stands for that method's result; PATH@Class for every
// result of the class and the classes nested in it; PATH for every result
// of the file's top-level classes and theirs. A class or file needs at least
// one result. The package is the file's package declaration (file gives
// the extracted file, nil when unreadable), else the path below src/*/java/.
func (language) MatchTests(t claims.Target, results []lang.TestResult, in lang.TestInput) []lang.TestResult {
	pkg := ""
	var tops []string
	if f := in.File(t.Path); f != nil {
		pkg = f.Package
		for _, s := range f.Symbols {
			if !strings.Contains(s.Name, ".") {
				tops = append(tops, s.Name)
			}
		}
		for _, a := range f.Ambiguous {
			if !strings.Contains(a, ".") {
				tops = append(tops, a)
			}
		}
	} else {
		pkg = pathPackage(t.Path)
		tops = []string{strings.TrimSuffix(path.Base(t.Path), ".java")}
	}
	// Each result as class (dotted below the package) and method.
	type test struct {
		class, method string
		r             lang.TestResult
	}
	var tests []test
	for _, r := range results {
		suite := strings.ReplaceAll(r.Suite, "$", ".")
		class, ok := strings.CutPrefix(suite, pkg+".")
		if pkg == "" {
			class, ok = suite, true
		}
		if !ok {
			continue
		}
		method := r.Name
		if i := strings.IndexAny(method, "(["); i > 0 {
			method = method[:i]
		}
		tests = append(tests, test{class, method, r})
	}
	var keep func(x test) bool
	switch {
	case !t.IsSymbol():
		keep = func(x test) bool {
			return slices.ContainsFunc(tops, func(top string) bool { return x.class == top || strings.HasPrefix(x.class, top+".") })
		}
	case slices.ContainsFunc(tests, func(x test) bool { return x.class == t.Symbol || strings.HasPrefix(x.class, t.Symbol+".") }):
		keep = func(x test) bool { return x.class == t.Symbol || strings.HasPrefix(x.class, t.Symbol+".") }
	default:
		keep = func(x test) bool { return x.class+"."+x.method == t.Symbol }
	}
	var out []lang.TestResult
	index := map[[2]string]int{}
	for _, x := range tests {
		if !keep(x) {
			continue
		}
		key := [2]string{x.class, x.method}
		i, seen := index[key]
		if !seen {
			index[key] = len(out)
			r := x.r
			r.Name = x.method
			out = append(out, r)
			continue
		}
		if o := x.r.Outcome; o == lang.OutcomeFail || o == lang.OutcomeSkip && out[i].Outcome == lang.OutcomePass {
			out[i].Outcome = o
		}
	}
	return out
}

// pathPackage returns the package a path below src/NAME/java/ stands for,
// "" when the path has no such folder.
func pathPackage(p string) string {
	parts := strings.Split(path.Dir(p), "/")
	for i := 0; i+2 < len(parts); i++ {
		if parts[i] == "src" && parts[i+2] == "java" {
			return strings.Join(parts[i+3:], ".")
		}
	}
	return ""
}
