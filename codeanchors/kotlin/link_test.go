package kotlin_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/kotlin"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// gradleWorkspace is a Gradle build with two modules: the root project
// (src/main/kotlin, and a generated root by srcDir) and app, included by
// settings.gradle.kts. A package spans files whose folders do not match
// it, as Kotlin allows.
var gradleWorkspace = map[string]string{
	"settings.gradle.kts": `rootProject.name = "shop"
include(":app", ":libs:core")
`,
	"build.gradle.kts": `kotlin {
    sourceSets["main"].kotlin.srcDir("build/generated/src")
}
`,
	"src/main/kotlin/com/acme/shop/Cart.kt": `package com.acme.shop

class Cart(val id: Int) {
    fun add() {
        log("add")
        helper()
        Cart.of()
    }
    fun helper() {}
    companion object {
        fun of() = Cart(0)
    }
}

fun String.words() = split(" ")
`,
	"src/main/kotlin/util/Log.kt": `package com.acme.shop

const val LEVEL = 1

fun log(s: String) = println(s)

object Registry {
    fun register(c: Cart) {}
}
`,
	"app/src/main/kotlin/Billing.kt": `package com.acme.billing

import com.acme.shop.Cart
import com.acme.shop.Cart.Companion.of
import com.acme.shop.words
import com.acme.shop.LEVEL
import com.acme.shop.Registry as Reg
import com.acme.gen.*
import com.acme.missing.Thing
import kotlinx.coroutines.flow.Flow
import java.util.UUID

class Invoice {
    fun bill() {
        val c = Cart(1)
        Reg.register(c)
        Generated.make()
        "a b".words()
        local()
    }
    private fun local() {}
}
`,
	"build/generated/src/Gen.kt": `package com.acme.gen

object Generated { fun make() {} }
`,
	"samples/Sample.kt": `package com.acme.sample

import com.acme.shop.Cart
`,
	"app/src/main/kotlin/Sample2.kt": `package com.acme.billing

import com.acme.sample.Thing
`,
	"src/test/kotlin/com/acme/shop/CartTest.kt": `package com.acme.shop

class CartTest { @Test fun adds() { Cart(1).add() } }
`,
}

func extractAll(t *testing.T, ws map[string]string) ([]*lang.File, map[string][]byte) {
	t.Helper()
	var files []*lang.File
	project := map[string][]byte{}
	for p, src := range ws {
		if kotlin.Language.ProjectFile(p[strings.LastIndexByte(p, '/')+1:]) {
			project[p] = []byte(src)
			continue
		}
		f, err := kotlin.Extract(p, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files, project
}

func TestLinkImports(t *testing.T) {
	files, project := extractAll(t, gradleWorkspace)
	l := kotlin.Language.Link(files, project)
	got := map[string]string{}
	for _, f := range files {
		imp, unres := l.Imports(f)
		got[f.Path] = fmt.Sprintf("%v %v", imp, unres)
	}
	want := map[string]string{
		// Cart by name (its companion's member too), the extension
		// function and the constant by the package (a constant is no
		// symbol: the package's files), Registry under an alias, the
		// generated root's package by a star; com.acme.missing looks like
		// the workspace's code and is unresolved; kotlinx and java are not.
		"app/src/main/kotlin/Billing.kt": "[build/generated/src/Gen.kt src/main/kotlin/com/acme/shop/Cart.kt src/main/kotlin/util/Log.kt] [com.acme.missing.Thing]",
		// samples/ is below no source root: its package is not importable.
		"app/src/main/kotlin/Sample2.kt":        "[] [com.acme.sample.Thing]",
		"samples/Sample.kt":                     "[src/main/kotlin/com/acme/shop/Cart.kt] []",
		"src/main/kotlin/com/acme/shop/Cart.kt": "[] []",
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("imports(%s) = %s, want %s", p, got[p], w)
		}
	}
}

func TestLinkCalls(t *testing.T) {
	files, project := extractAll(t, gradleWorkspace)
	l := kotlin.Language.Link(files, project)
	var got []string
	for _, f := range files {
		for _, c := range f.Calls {
			if r, ok := l.ResolveCall(f, c); ok {
				got = append(got, fmt.Sprintf("%s@%s -> %s", f.Path, c.From, r))
			}
		}
	}
	slices.Sort(got)
	want := []string{
		"app/src/main/kotlin/Billing.kt@Invoice.bill -> app/src/main/kotlin/Billing.kt@Invoice.local",
		"app/src/main/kotlin/Billing.kt@Invoice.bill -> build/generated/src/Gen.kt@Generated.make",
		"app/src/main/kotlin/Billing.kt@Invoice.bill -> src/main/kotlin/com/acme/shop/Cart.kt@Cart.Cart",
		"app/src/main/kotlin/Billing.kt@Invoice.bill -> src/main/kotlin/util/Log.kt@Registry.register",
		"src/main/kotlin/com/acme/shop/Cart.kt@Cart.Companion.of -> src/main/kotlin/com/acme/shop/Cart.kt@Cart.Cart",
		"src/main/kotlin/com/acme/shop/Cart.kt@Cart.add -> src/main/kotlin/com/acme/shop/Cart.kt@Cart.Companion.of",
		"src/main/kotlin/com/acme/shop/Cart.kt@Cart.add -> src/main/kotlin/com/acme/shop/Cart.kt@Cart.helper",
		"src/main/kotlin/com/acme/shop/Cart.kt@Cart.add -> src/main/kotlin/util/Log.kt@log",
		"src/test/kotlin/com/acme/shop/CartTest.kt@CartTest.adds -> src/main/kotlin/com/acme/shop/Cart.kt@Cart.Cart",
	}
	if !slices.Equal(got, want) {
		t.Errorf("resolved calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

const gradleReport = `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="com.acme.shop.CartTest" tests="7" failures="1">
  <testcase name="adds an item()" classname="com.acme.shop.CartTest" time="0.01"/>
  <testcase name="sizes(int)[1]" classname="com.acme.shop.CartTest" time="0.01"/>
  <testcase name="sizes(int)[2]" classname="com.acme.shop.CartTest" time="0.01"><failure message="boom"/></testcase>
  <testcase name="isEmpty()" classname="com.acme.shop.CartTest$WhenEmpty" time="0.01"/>
  <testcase name="adds an item()" classname="com.acme.other.CartTest" time="0.01"/>
  <testcase name="other" classname="com.acme.shop.CartTestHelper" time="0.01"/>
  <testcase name="legacy" classname="com.acme.shop.CartTest" time="0.01"><skipped/></testcase>
</testsuite>
`

func TestMatchTests(t *testing.T) {
	results, err := codeanchors.ParseReport("TEST-com.acme.shop.CartTest.xml", []byte(gradleReport))
	if err != nil {
		t.Fatal(err)
	}
	src := "package com.acme.shop\n" +
		"class CartTest {\n" +
		"    @Test fun `adds an item`() {}\n" +
		"    @ParameterizedTest fun sizes(n: Int) {}\n" +
		"    @Test fun legacy() {}\n" +
		"    @Nested inner class WhenEmpty { @Test fun isEmpty() {} }\n" +
		"}\n"
	const p = "src/test/kotlin/com/acme/shop/CartTest.kt"
	f, err := kotlin.Extract(p, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	file := func(q string) *lang.File {
		if q == p {
			return f
		}
		return nil
	}
	all := "com.acme.shop.CartTest adds_an_item pass; com.acme.shop.CartTest legacy skip; com.acme.shop.CartTest sizes fail; com.acme.shop.CartTest$WhenEmpty isEmpty pass"
	for _, tt := range []struct{ target, want string }{
		{p + "@CartTest.adds_an_item", "com.acme.shop.CartTest adds_an_item pass"},
		{p + "@CartTest.sizes", "com.acme.shop.CartTest sizes fail"},
		{p + "@CartTest.legacy", "com.acme.shop.CartTest legacy skip"},
		{p + "@CartTest.WhenEmpty.isEmpty", "com.acme.shop.CartTest$WhenEmpty isEmpty pass"},
		{p + "@CartTest.WhenEmpty", "com.acme.shop.CartTest$WhenEmpty isEmpty pass"},
		{p + "@CartTest", all},
		{p, all},
		{p + "@CartTest.missing", ""},
		// Without the file, the package comes from the path.
		{"src/test/kotlin/com/acme/shop/Gone.kt@CartTest.adds_an_item", "com.acme.shop.CartTest adds_an_item pass"},
	} {
		tg, err := claims.ParseTarget(tt.target)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range kotlin.Language.MatchTests(tg, results, lang.TestInput{File: file}) {
			got = append(got, r.Suite+" "+r.Name+" "+r.Outcome)
		}
		if g := strings.Join(got, "; "); g != tt.want {
			t.Errorf("MatchTests(%s) = %q, want %q", tt.target, g, tt.want)
		}
	}
}

func TestIsTest(t *testing.T) {
	for p, want := range map[string]bool{
		"src/test/kotlin/a/Helpers.kt":        true,
		"app/src/androidTest/kotlin/a/X.kt":   true,
		"src/commonTest/kotlin/a/X.kt":        true,
		"src/main/kotlin/a/CartTest.kt":       true,
		"src/main/kotlin/a/CartTests.kt":      true,
		"src/main/kotlin/a/TestCart.kt":       true,
		"src/main/kotlin/a/CartIT.kt":         true,
		"src/main/kotlin/a/CartTestCase.kt":   true,
		"src/main/kotlin/a/Cart.kt":           false,
		"src/main/kotlin/a/Testing.kt":        false,
		"src/main/kotlin/a/Contest.kt":        false,
		"src/main/kotlin/a/Test.kt":           false,
		"src/main/kotlin/test/a/Cart.kt":      false,
		"src/testFixtures/kotlin/a/Fake.kt":   false,
		"buildSrc/src/main/kotlin/MyTest.kts": false,
	} {
		if got := kotlin.Language.IsTest(p, ""); got != want {
			t.Errorf("IsTest(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestProjectFile checks the Gradle files the engine hands to Link, and
// that init (site's projectInclude asks every language's ProjectFile)
// offers the Kotlin globs beside Java's where it finds them.
func TestProjectFile(t *testing.T) {
	for name, want := range map[string]bool{
		"build.gradle": true, "build.gradle.kts": true, "settings.gradle": true, "settings.gradle.kts": true,
		"pom.xml": false, "gradle.properties": false, "build.gradle.kts.bak": false, "libs.versions.toml": false,
	} {
		if got := kotlin.Language.ProjectFile(name); got != want {
			t.Errorf("ProjectFile(%q) = %v, want %v", name, got, want)
		}
	}
	if got := kotlin.Language.Extensions(); !slices.Equal(got, []string{".kt", ".kts"}) {
		t.Errorf("Extensions() = %q", got)
	}
}
