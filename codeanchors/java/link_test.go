package java_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/java"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// linkWorkspace is a Maven project with a Gradle module: sources by path,
// and the project files.
var linkWorkspace = map[string]string{
	"pom.xml": `<project><build><plugins><plugin>
  <artifactId>build-helper-maven-plugin</artifactId>
  <configuration><sources><source>${project.basedir}/src/gen/java</source></sources></configuration>
</plugin></plugins></build></project>`,
	"lib/build.gradle": `sourceSets {
    main {
        java { srcDirs = ['src/java', "generated/${flavor}"] }
    }
}`,
	"src/main/java/com/acme/shop/Cart.java": `package com.acme.shop;

public class Cart {
    void add() {
        Util.log("add");
        helper();
        Cart.of();
    }
    void helper() {}
    static Cart of() { return new Cart(); }
    static class Line {
        void total() { helper(); }
    }
}
`,
	"src/main/java/com/acme/shop/Util.java": `package com.acme.shop;

class Util {
    static void log(String s) {}
}
`,
	"src/main/java/com/acme/billing/Invoice.java": `package com.acme.billing;

import com.acme.shop.Cart;
import com.acme.shop.Cart.Line;
import com.acme.shop.*;
import static com.acme.shop.Util.log;
import com.acme.missing.Thing;
import java.util.List;
import com.google.common.base.Strings;
import org.example.gen.Generated;

class Invoice {
    void bill() {
        log("bill");
        new Cart();
        Cart.of();
        Strings.isNullOrEmpty("");
        new Invoice();
        Generated.make();
    }
}
`,
	"src/gen/java/org/example/gen/Generated.java": `package org.example.gen;
public class Generated { static void make() {} }
`,
	"lib/src/java/org/lib/Helper.java": `class Helper { static void help() {} }
`,
	"lib/src/main/java/org/lib/Client.java": `package org.lib;
import org.lib.Helper;
class Client { void run() { Helper.help(); } }
`,
	"src/test/java/com/acme/shop/CartTest.java": `package com.acme.shop;
class CartTest { @Test void adds() { new Cart().add(); } }
`,
}

func extractAll(t *testing.T, ws map[string]string) ([]*lang.File, map[string][]byte) {
	t.Helper()
	var files []*lang.File
	project := map[string][]byte{}
	for p, src := range ws {
		if !strings.HasSuffix(p, ".java") {
			project[p] = []byte(src)
			continue
		}
		f, err := java.Extract(p, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files, project
}

func TestLinkImports(t *testing.T) {
	files, project := extractAll(t, linkWorkspace)
	l := java.Language.Link(files, project)
	got := map[string]string{}
	for _, f := range files {
		imp, unres := l.Imports(f)
		got[f.Path] = fmt.Sprintf("%v %v", imp, unres)
	}
	want := map[string]string{
		"src/main/java/com/acme/billing/Invoice.java": "[src/gen/java/org/example/gen/Generated.java src/main/java/com/acme/shop/Cart.java src/main/java/com/acme/shop/Util.java] [com.acme.missing.Thing]",
		"lib/src/main/java/org/lib/Client.java":       "[lib/src/java/org/lib/Helper.java] []",
		"src/main/java/com/acme/shop/Cart.java":       "[] []",
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("imports(%s) = %s, want %s", p, got[p], w)
		}
	}
}

func TestLinkCalls(t *testing.T) {
	files, project := extractAll(t, linkWorkspace)
	l := java.Language.Link(files, project)
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
		"lib/src/main/java/org/lib/Client.java@Client.run -> lib/src/java/org/lib/Helper.java@Helper.help",
		"src/main/java/com/acme/billing/Invoice.java@Invoice.bill -> src/gen/java/org/example/gen/Generated.java@Generated.make",
		"src/main/java/com/acme/billing/Invoice.java@Invoice.bill -> src/main/java/com/acme/billing/Invoice.java@Invoice",
		"src/main/java/com/acme/billing/Invoice.java@Invoice.bill -> src/main/java/com/acme/shop/Cart.java@Cart",
		"src/main/java/com/acme/billing/Invoice.java@Invoice.bill -> src/main/java/com/acme/shop/Cart.java@Cart.of",
		"src/main/java/com/acme/billing/Invoice.java@Invoice.bill -> src/main/java/com/acme/shop/Util.java@Util.log",
		"src/main/java/com/acme/shop/Cart.java@Cart.Line.total -> src/main/java/com/acme/shop/Cart.java@Cart.helper",
		"src/main/java/com/acme/shop/Cart.java@Cart.add -> src/main/java/com/acme/shop/Cart.java@Cart.helper",
		"src/main/java/com/acme/shop/Cart.java@Cart.add -> src/main/java/com/acme/shop/Cart.java@Cart.of",
		"src/main/java/com/acme/shop/Cart.java@Cart.add -> src/main/java/com/acme/shop/Util.java@Util.log",
		"src/main/java/com/acme/shop/Cart.java@Cart.of -> src/main/java/com/acme/shop/Cart.java@Cart",
		"src/test/java/com/acme/shop/CartTest.java@CartTest.adds -> src/main/java/com/acme/shop/Cart.java@Cart",
	}
	if !slices.Equal(got, want) {
		t.Errorf("resolved calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

const surefireReport = `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="com.acme.shop.CartTest" tests="6" failures="1">
  <testcase name="adds" classname="com.acme.shop.CartTest" time="0.01"/>
  <testcase name="sizes(int)[1]" classname="com.acme.shop.CartTest" time="0.01"/>
  <testcase name="sizes(int)[2]" classname="com.acme.shop.CartTest" time="0.01"><failure message="boom"/></testcase>
  <testcase name="isEmpty()" classname="com.acme.shop.CartTest$WhenEmpty" time="0.01"/>
  <testcase name="adds" classname="com.acme.other.CartTest" time="0.01"/>
  <testcase name="other" classname="com.acme.shop.CartTestHelper" time="0.01"/>
</testsuite>
`

func TestMatchTests(t *testing.T) {
	results, err := codeanchors.ParseReport("TEST-com.acme.shop.CartTest.xml", []byte(surefireReport))
	if err != nil {
		t.Fatal(err)
	}
	src := `package com.acme.shop;
class CartTest {
    @Test void adds() {}
    @ParameterizedTest void sizes(int n) {}
    @Nested class WhenEmpty { @Test void isEmpty() {} }
}
`
	const p = "src/test/java/com/acme/shop/CartTest.java"
	f, err := java.Extract(p, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	file := func(q string) *lang.File {
		if q == p {
			return f
		}
		return nil
	}
	for _, tt := range []struct{ target, want string }{
		{p + "@CartTest.adds", "com.acme.shop.CartTest adds pass"},
		{p + "@CartTest.sizes", "com.acme.shop.CartTest sizes fail"},
		{p + "@CartTest.WhenEmpty.isEmpty", "com.acme.shop.CartTest$WhenEmpty isEmpty pass"},
		{p + "@CartTest.WhenEmpty", "com.acme.shop.CartTest$WhenEmpty isEmpty pass"},
		{p + "@CartTest", "com.acme.shop.CartTest adds pass; com.acme.shop.CartTest sizes fail; com.acme.shop.CartTest$WhenEmpty isEmpty pass"},
		{p, "com.acme.shop.CartTest adds pass; com.acme.shop.CartTest sizes fail; com.acme.shop.CartTest$WhenEmpty isEmpty pass"},
		{p + "@CartTest.missing", ""},
		// Without the file, the package comes from the path.
		{"src/test/java/com/acme/shop/Gone.java@CartTest.adds", "com.acme.shop.CartTest adds pass"},
	} {
		tg, err := claims.ParseTarget(tt.target)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range java.Language.MatchTests(tg, results, lang.TestInput{File: file}) {
			got = append(got, r.Suite+" "+r.Name+" "+r.Outcome)
		}
		if g := strings.Join(got, "; "); g != tt.want {
			t.Errorf("MatchTests(%s) = %q, want %q", tt.target, g, tt.want)
		}
	}
}

func TestIsTest(t *testing.T) {
	for p, want := range map[string]bool{
		"src/test/java/a/Helpers.java":          true,
		"mod/src/integrationTest/java/a/X.java": true,
		"src/main/java/a/CartTest.java":         true,
		"src/main/java/a/CartTests.java":        true,
		"src/main/java/a/TestCart.java":         true,
		"src/main/java/a/CartIT.java":           true,
		"src/main/java/a/ITCart.java":           true,
		"src/main/java/a/CartTestCase.java":     true,
		"src/main/java/a/Cart.java":             false,
		"src/main/java/a/Testing.java":          false,
		"src/main/java/a/Contest.java":          false,
		"src/main/java/a/Test.java":             false,
		"src/main/java/test/a/Cart.java":        false,
		"src/main/java/a/Latest.java":           false,
		"src/testFixtures/java/a/Fixtures.java": false,
		"src/main/java/a/Digit.java":            false,
	} {
		if got := java.Language.IsTest(p, ""); got != want {
			t.Errorf("IsTest(%q) = %v, want %v", p, got, want)
		}
	}
}
