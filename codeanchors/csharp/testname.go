package csharp

import (
	"path"
	"slices"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// testAttributes are the attributes that make a method a test: xUnit
// ([Fact], [Theory]), NUnit ([Test], [TestCase], [TestCaseSource],
// [Theory]) and MSTest ([TestMethod], [DataTestMethod]), by simple name
// with or without the Attribute suffix.
var testAttributes = []string{"Fact", "Theory", "Test", "TestCase", "TestCaseSource", "TestMethod", "DataTestMethod"}

// isTestMethod reports whether a method with the attributes attrs is a
// test.
func isTestMethod(attrs []string) bool {
	return slices.ContainsFunc(attrs, func(a string) bool { return slices.Contains(testAttributes, a) })
}

// IsTest reports whether the C# file at p (slash-separated) is a test file,
// which makes every symbol in it a test: one in a test project's folder
// (NAME.Tests, NAME.Test, NAME.UnitTests, NAME.IntegrationTests,
// NAME.Specs), or named *Tests.cs or *Test.cs. A test method is known by
// its attributes, which [Extract] reads, not by its name.
func (language) IsTest(p, _ string) bool {
	dir, base := path.Split(p)
	for _, c := range strings.Split(dir, "/") {
		for _, suf := range []string{".Tests", ".Test", ".UnitTests", ".IntegrationTests", ".Specs"} {
			if strings.HasSuffix(c, suf) && c != suf {
				return true
			}
		}
	}
	stem, ok := strings.CutSuffix(base, ".cs")
	return ok && (strings.HasSuffix(stem, "Tests") && stem != "Tests" || strings.HasSuffix(stem, "Test") && stem != "Test")
}

// MatchTests returns the results of a .NET report (TRX, or JUnit XML from a
// JUnit logger) that a tests target stands for. A result's Suite is the
// test class's full name (Acme.Shop.CartTests; a nested class after a '+'
// or a '.'); its Name is the method's, maybe written after the class
// (Acme.Shop.CartTests.Adds) and with a theory's arguments (Sizes(n: 1)),
// which are cut off: the cases of one theory merge into one result, failed
// if any failed, else skipped if any was skipped.
//
// PATH@Class.Method stands for that method's result; PATH@Class for every
// result of the class and the classes nested in it; PATH for every result
// of the file's top-level classes and theirs. A class or file needs at
// least one result. The namespace is the file's first ([lang.File.Package]);
// in.File gives the extracted file, nil when unreadable (then the
// target's class is looked for in any namespace).
func (language) MatchTests(t claims.Target, results []lang.TestResult, in lang.TestInput) []lang.TestResult {
	ns, known := "", false
	var tops []string
	if f := in.File(t.Path); f != nil {
		ns, known = f.Package, true
		for _, s := range f.Symbols {
			if !strings.Contains(s.Name, ".") {
				tops = append(tops, s.Name)
			}
		}
	} else {
		tops = []string{strings.TrimSuffix(path.Base(t.Path), ".cs")}
	}
	type test struct {
		class, method string
		r             lang.TestResult
	}
	var tests []test
	for _, r := range results {
		suite := strings.NewReplacer("+", ".", "/", ".").Replace(r.Suite)
		method := strings.TrimPrefix(r.Name, r.Suite+".")
		if i := strings.IndexAny(method, "(["); i > 0 {
			method = method[:i]
		}
		method = method[strings.LastIndexByte(method, '.')+1:]
		class, ok := suite, true
		switch {
		case known && ns != "":
			class, ok = strings.CutPrefix(suite, ns+".")
		case !known:
			// Without the file, any namespace: the class is the part of
			// the suite that starts with one of the file's top-level names.
			ok = false
			parts := strings.Split(suite, ".")
			for i := range parts {
				if slices.Contains(tops, parts[i]) {
					class, ok = strings.Join(parts[i:], "."), true
					break
				}
			}
		}
		if ok {
			tests = append(tests, test{class, method, r})
		}
	}
	inClass := func(x test, class string) bool { return x.class == class || strings.HasPrefix(x.class, class+".") }
	var keep func(x test) bool
	switch {
	case !t.IsSymbol():
		keep = func(x test) bool { return slices.ContainsFunc(tops, func(top string) bool { return inClass(x, top) }) }
	case slices.ContainsFunc(tests, func(x test) bool { return inClass(x, t.Symbol) }):
		keep = func(x test) bool { return inClass(x, t.Symbol) }
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
