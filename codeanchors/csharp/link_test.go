package csharp_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/csharp"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// linkWorkspace is a solution of three projects: App references Core; Other
// references nothing.
var linkWorkspace = map[string]string{
	"src/Core/Core.csproj": `<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><RootNamespace>Acme.Core</RootNamespace></PropertyGroup></Project>`,
	"src/App/App.csproj": `<Project Sdk="Microsoft.NET.Sdk"><ItemGroup>
    <ProjectReference Include="..\Core\Core.csproj" />
  </ItemGroup></Project>`,
	"src/Other/Other.csproj": `<Project Sdk="Microsoft.NET.Sdk"></Project>`,
	"src/Core/Cart.cs": `namespace Acme.Core
{
    public class Cart
    {
        public void Add() { Log("add"); }
        public static Cart Empty() => new Cart();
        void Log(string s) { }
    }
}
`,
	"src/Core/Util.cs": `namespace Acme.Core;
public static class Util { public static void Trace(string s) { } }
`,
	"src/App/Program.cs": `using System;
using Acme.Core;
using static Acme.Core.Util;
using Acme.Missing;
using Newtonsoft.Json;
using Acme.Secret;

namespace Acme.App
{
    class Program
    {
        static void Main()
        {
            var c = Cart.Empty();
            new Cart().Add();
            Trace("x");
            Console.WriteLine("y");
        }
    }
}
`,
	"src/Other/Secret.cs": `namespace Acme.Secret { class Hidden { } }
`,
}

func extractAll(t *testing.T, ws map[string]string) ([]*codeanchors.File, map[string][]byte) {
	t.Helper()
	var files []*codeanchors.File
	project := map[string][]byte{}
	for p, src := range ws {
		if !strings.HasSuffix(p, ".cs") {
			project[p] = []byte(src)
			continue
		}
		f, err := csharp.Extract(p, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files, project
}

func TestLink(t *testing.T) {
	files, project := extractAll(t, linkWorkspace)
	l := csharp.Language.Link(files, project)
	var got []string
	for _, f := range files {
		imp, unres := l.Imports(f)
		got = append(got, fmt.Sprintf("%s imports %v unresolved %v", f.Path, imp, unres))
		for _, c := range f.Calls {
			if r, ok := l.ResolveCall(f, c); ok {
				got = append(got, fmt.Sprintf("%s@%s -> %s", f.Path, c.From, r))
			}
		}
	}
	slices.Sort(got)
	want := []string{
		"src/App/Program.cs imports [src/Core/Cart.cs src/Core/Util.cs] unresolved [Acme.Missing Acme.Secret]",
		"src/App/Program.cs@Program.Main -> src/Core/Cart.cs@Cart",
		"src/App/Program.cs@Program.Main -> src/Core/Cart.cs@Cart.Empty",
		"src/App/Program.cs@Program.Main -> src/Core/Util.cs@Util.Trace",
		"src/Core/Cart.cs imports [] unresolved []",
		"src/Core/Cart.cs@Cart.Add -> src/Core/Cart.cs@Cart.Log",
		"src/Core/Cart.cs@Cart.Empty -> src/Core/Cart.cs@Cart",
		"src/Core/Util.cs imports [] unresolved []",
		"src/Other/Secret.cs imports [] unresolved []",
	}
	if !slices.Equal(got, want) {
		t.Errorf("links:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestMatchTests(t *testing.T) {
	results := []codeanchors.TestResult{
		{Suite: "Acme.Shop.CartTests", Name: "Adds", Outcome: codeanchors.OutcomePass},
		{Suite: "Acme.Shop.CartTests", Name: "Acme.Shop.CartTests.Sizes(n: 1)", Outcome: codeanchors.OutcomePass},
		{Suite: "Acme.Shop.CartTests", Name: "Acme.Shop.CartTests.Sizes(n: 2)", Outcome: codeanchors.OutcomeFail},
		{Suite: "Acme.Shop.CartTests+WhenEmpty", Name: "IsEmpty", Outcome: codeanchors.OutcomePass},
		{Suite: "Other.CartTests", Name: "Adds", Outcome: codeanchors.OutcomePass},
	}
	src := `namespace Acme.Shop;
public class CartTests {
    [Fact] public void Adds() { }
    [Theory] public void Sizes(int n) { }
    public class WhenEmpty { [Fact] public void IsEmpty() { } }
}
`
	const p = "tests/Acme.Shop.Tests/CartTests.cs"
	f, err := csharp.Extract(p, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	file := func(q string) *codeanchors.File {
		if q == p {
			return f
		}
		return nil
	}
	for _, tt := range []struct{ target, want string }{
		{p + "@CartTests.Adds", "Acme.Shop.CartTests Adds pass"},
		{p + "@CartTests.Sizes", "Acme.Shop.CartTests Sizes fail"},
		{p + "@CartTests.WhenEmpty.IsEmpty", "Acme.Shop.CartTests+WhenEmpty IsEmpty pass"},
		{p + "@CartTests", "Acme.Shop.CartTests Adds pass; Acme.Shop.CartTests Sizes fail; Acme.Shop.CartTests+WhenEmpty IsEmpty pass"},
		{p, "Acme.Shop.CartTests Adds pass; Acme.Shop.CartTests Sizes fail; Acme.Shop.CartTests+WhenEmpty IsEmpty pass"},
		{p + "@CartTests.Missing", ""},
	} {
		tg, err := claims.ParseTarget(tt.target)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range csharp.Language.MatchTests(tg, results, lang.TestInput{File: file}) {
			got = append(got, r.Suite+" "+r.Name+" "+r.Outcome)
		}
		if g := strings.Join(got, "; "); g != tt.want {
			t.Errorf("MatchTests(%s) = %q, want %q", tt.target, g, tt.want)
		}
	}
}

func TestIsTest(t *testing.T) {
	for p, want := range map[string]bool{
		"src/Acme.Shop.Tests/Cart.cs":    true,
		"test/Acme.UnitTests/X.cs":       true,
		"src/Acme/CartTests.cs":          true,
		"src/Acme/CartTest.cs":           true,
		"src/Acme/Cart.cs":               false,
		"src/Acme/Tests.cs":              false,
		"src/Acme.Testing/Cart.cs":       false,
		"src/Acme.Tests.Helpers/Cart.cs": false,
	} {
		if got := csharp.Language.IsTest(p, ""); got != want {
			t.Errorf("IsTest(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestMatchTRX matches the results of a TRX file, read by
// codeanchors.ParseReport, to a test class's targets.
func TestMatchTRX(t *testing.T) {
	const trx = `<TestRun xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">
  <Results>
    <UnitTestResult testId="a" testName="Acme.Shop.CartTests.Adds" outcome="Passed" />
    <UnitTestResult testId="b" testName="Acme.Shop.CartTests.Sizes(n: 1)" outcome="Passed" />
    <UnitTestResult testId="c" testName="Acme.Shop.CartTests.Sizes(n: 2)" outcome="Passed" />
  </Results>
  <TestDefinitions>
    <UnitTest id="a"><TestMethod className="Acme.Shop.CartTests" name="Adds" /></UnitTest>
    <UnitTest id="b"><TestMethod className="Acme.Shop.CartTests" name="Sizes" /></UnitTest>
    <UnitTest id="c"><TestMethod className="Acme.Shop.CartTests" name="Sizes" /></UnitTest>
  </TestDefinitions>
</TestRun>`
	results, err := codeanchors.ParseReport("run.trx", []byte(trx))
	if err != nil {
		t.Fatal(err)
	}
	const p = "tests/Acme.Shop.Tests/CartTests.cs"
	f, err := csharp.Extract(p, []byte("namespace Acme.Shop;\npublic class CartTests {\n    [Fact] public void Adds() { }\n    [Theory] public void Sizes(int n) { }\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	tg, err := claims.ParseTarget(p)
	if err != nil {
		t.Fatal(err)
	}
	got := csharp.Language.MatchTests(tg, results, lang.TestInput{File: func(string) *lang.File { return f }})
	if len(got) != 2 || got[0].Name != "Adds" || got[1].Name != "Sizes" || got[1].Outcome != codeanchors.OutcomePass {
		t.Errorf("MatchTests(%s) = %+v, want Adds and Sizes, passed", p, got)
	}
}
