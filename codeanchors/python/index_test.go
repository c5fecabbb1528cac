package python_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
	"github.com/tracewiki/tracewiki/codeanchors/lang/langtest"
	"github.com/tracewiki/tracewiki/codeanchors/python"
)

func pyIndex(t *testing.T, archive string) *codeanchors.Index {
	t.Helper()
	in := codeanchors.IndexInput{Project: map[string][]byte{}}
	for _, f := range txtar.Parse([]byte(archive)).Files {
		if strings.HasSuffix(f.Name, ".toml") {
			in.Project[f.Name] = f.Data
			continue
		}
		x, err := python.Extract(f.Name, f.Data)
		if err != nil {
			t.Fatal(err)
		}
		in.Files = append(in.Files, x)
	}
	return codeanchors.BuildIndex(in)
}

func TestPythonLinker(t *testing.T) {
	ix := pyIndex(t, pyWorkspace)
	var got []string
	for _, e := range ix.Edges {
		if e.Kind != codeanchors.EdgeDefines {
			got = append(got, e.String())
		}
	}
	want := []string{
		"scripts/tool.py -imports-> lib/src/libpkg/core.py",
		"scripts/tool.py -imports-> scripts/sibling.py",
		"scripts/tool.py@main -calls-> lib/src/libpkg/core.py@run",
		"scripts/tool.py@main -calls-> scripts/sibling.py@go",
		"src/shop/__init__.py -imports-> src/shop/cart.py",
		"src/shop/cart.py@Cart.add -calls-> src/shop/cart.py@Cart.total",
		"src/shop/cart.py@Cart.total -calls-> src/shop/cart.py@sum_prices",
		"src/shop/checkout.py -imports-> src/shop/cart.py",
		"src/shop/checkout.py -imports-> src/shop/util/money.py",
		"src/shop/checkout.py@checkout -calls-> src/shop/cart.py@sum_prices",
		"src/shop/checkout.py@checkout -calls-> src/shop/checkout.py@helper",
		"src/shop/checkout.py@checkout -calls-> src/shop/util/money.py@fmt",
		"src/shop/checkout.py@helper -calls-> src/shop/cart.py@Cart",
		"tests/helpers.py -imports-> src/shop/cart.py",
		"tests/helpers.py@make_cart -tests-> src/shop/cart.py@Cart",
		"tests/test_cart.py -imports-> src/shop/__init__.py",
		"tests/test_cart.py -imports-> src/shop/cart.py",
		"tests/test_cart.py -imports-> src/shop/checkout.py",
		"tests/test_cart.py -imports-> tests/helpers.py",
		"tests/test_cart.py@test_total -tests-> src/shop/cart.py@Cart",
		"tests/test_cart.py@test_total -tests-> src/shop/cart.py@sum_prices",
		"tests/test_cart.py@test_total -tests-> src/shop/checkout.py@checkout",
		"tests/test_cart.py@test_total -calls-> tests/helpers.py@make_cart",
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("edges:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantUnresolved := []string{
		"src/shop/checkout.py: ...too_far",
		"src/shop/checkout.py: .nowhere.thing",
		"src/shop/checkout.py: shop.missing",
	}
	if !slices.Equal(ix.Unresolved, wantUnresolved) || ix.UnresolvedTotal != len(wantUnresolved) {
		t.Errorf("unresolved %q (%d), want %q", ix.Unresolved, ix.UnresolvedTotal, wantUnresolved)
	}
}

// TestPythonLinkerRoots checks the import roots each pyproject.toml form
// declares, the workspace root without one, and a package-dir entry for a
// named package.
func TestPythonLinkerRoots(t *testing.T) {
	for _, tt := range []struct {
		name, toml, file, imp, want string
	}{
		{"no pyproject", "", "pkg/mod.py", "pkg.mod", "pkg/mod.py"},
		{"package-dir", `[tool.setuptools]
package-dir = {"" = "src"}`, "src/pkg/mod.py", "pkg.mod", "src/pkg/mod.py"},
		{"package-dir named", `[tool.setuptools.package-dir]
mypkg = "lib/mypkg"`, "lib/mypkg/mod.py", "mypkg.mod", "lib/mypkg/mod.py"},
		{"packages.find", `[tool.setuptools.packages.find]
where = ["src"]`, "src/pkg/__init__.py", "pkg", "src/pkg/__init__.py"},
		{"poetry", `[tool.poetry]
packages = [{include = "pkg", from = "src"}]`, "src/pkg/mod.py", "pkg.mod", "src/pkg/mod.py"},
		{"hatch", `[tool.hatch.build.targets.wheel]
packages = ["src/pkg"]`, "src/pkg/mod.py", "pkg.mod", "src/pkg/mod.py"},
		{"stub", "", "pkg/mod.pyi", "pkg.mod", "pkg/mod.pyi"},
		{"not toml", "[tool.setuptools\n", "src/pkg/mod.py", "pkg.mod", ""},
		{"outside the workspace", `[tool.setuptools]
package-dir = {"" = "../elsewhere"}`, "src/pkg/mod.py", "pkg.mod", ""},
	} {
		target, err := python.Extract(tt.file, []byte("def f():\n    pass\n"))
		if err != nil {
			t.Fatal(err)
		}
		user, err := python.Extract("app/main.py", []byte("import "+tt.imp+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		in := codeanchors.IndexInput{Files: []*lang.File{target, user}, Project: map[string][]byte{}}
		if tt.toml != "" {
			in.Project["pyproject.toml"] = []byte(tt.toml)
		}
		var got string
		for _, e := range codeanchors.BuildIndex(in).Edges {
			if e.Kind == codeanchors.EdgeImports {
				got = e.To.Path
			}
		}
		if got != tt.want {
			t.Errorf("%s: import %s resolves to %q, want %q", tt.name, tt.imp, got, tt.want)
		}
	}
}

func TestPythonLinkerAmbiguous(t *testing.T) {
	ix := pyIndex(t, `
-- other/dup.py --
def f():
    pass


def f():
    pass


class A:
    def m(self):
        pass


class B:
    def m(self):
        pass

    def n(self):
        self.m()
        A().m()


def g():
    f()
    A.m(None)
    B().n()
`)
	var got []string
	for _, e := range ix.Edges {
		if e.Kind == codeanchors.EdgeCalls {
			got = append(got, e.String())
		}
	}
	want := []string{
		"other/dup.py@B.n -calls-> other/dup.py@B.m",
		"other/dup.py@B.n -calls-> other/dup.py@A",
		"other/dup.py@g -calls-> other/dup.py@A.m",
		"other/dup.py@g -calls-> other/dup.py@B",
		"other/dup.py@g -calls-> other/dup.py@B.n",
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestPythonEvidence(t *testing.T) {
	reports := map[string][]lang.TestResult{}
	for _, name := range []string{"pytest-xunit1.xml", "pytest-xunit2.xml"} {
		rs, err := codeanchors.ParseReport(name, langtest.MustRead(t, "../testdata/reports/"+name))
		if err != nil {
			t.Fatal(err)
		}
		reports[name] = rs
	}
	// A src layout run with a rootdir of tests/: classnames lose "tests.".
	reports["rootdir"] = []lang.TestResult{
		{Suite: "test_auth.TestLogin", Name: "test_ok", Outcome: lang.OutcomePass},
		{Suite: "test_auth", Name: "test_x[1-2]", Outcome: lang.OutcomePass},
		{Suite: "test_auth", Name: "test_x[3-4]", Outcome: lang.OutcomeFail},
		{Suite: "test_auth", Name: "test_y[a]", Outcome: lang.OutcomeSkip},
		{Suite: "test_auth", Name: "test_y[b]", Outcome: lang.OutcomePass},
		{Suite: "other.test_auth", Name: "test_z", File: "other/test_auth.py", Outcome: lang.OutcomePass},
	}
	m := codeanchors.TestMatcher{}
	for _, tt := range []struct {
		report, target string
		want           []string // Suite Name File Outcome
	}{
		{"pytest-xunit1.xml", "tests/test_auth.py@TestLogin.test_ok", []string{"tests.test_auth.TestLogin test_ok tests/test_auth.py pass"}},
		{"pytest-xunit1.xml", "tests/test_auth.py@TestLogin.test_bad_password", []string{"tests.test_auth.TestLogin test_bad_password tests/test_auth.py fail"}},
		{"pytest-xunit1.xml", "tests/test_auth.py@test_lockout", []string{"tests.test_auth test_lockout tests/test_auth.py skip"}},
		{"pytest-xunit1.xml", "tests/test_auth.py@TestLogin", []string{
			"tests.test_auth.TestLogin test_bad_password tests/test_auth.py fail",
			"tests.test_auth.TestLogin test_ok tests/test_auth.py pass",
			"tests.test_auth.TestLogin test_sso tests/test_auth.py skip",
		}},
		{"pytest-xunit1.xml", "tests/test_auth.py", []string{
			"tests.test_auth test_lockout tests/test_auth.py skip",
			"tests.test_auth.TestLogin test_bad_password tests/test_auth.py fail",
			"tests.test_auth.TestLogin test_ok tests/test_auth.py pass",
			"tests.test_auth.TestLogin test_sso tests/test_auth.py skip",
		}},
		{"pytest-xunit1.xml", "tests/test_cart.py@test_total", []string{"tests.test_cart test_total tests/test_cart.py fail"}},
		{"pytest-xunit1.xml", "tests/test_cart.py@test_missing", nil},
		{"pytest-xunit1.xml", "tests/test_auth.py@test_ok", nil},
		{"pytest-xunit1.xml", "tests/test_orders.py", nil},
		{"pytest-xunit1.xml", "backend/tests/test_auth.py@TestLogin.test_ok", []string{"tests.test_auth.TestLogin test_ok tests/test_auth.py pass"}},
		{"pytest-xunit2.xml", "tests/test_auth.py@TestLogin.test_ok", []string{"tests.test_auth.TestLogin test_ok  pass"}},
		{"pytest-xunit2.xml", "tests/test_cart.py@test_total", []string{"tests.test_cart test_total  pass"}},
		{"pytest-xunit2.xml", "tests/test_auth.py", []string{
			"tests.test_auth.TestLogin test_bad_password  fail",
			"tests.test_auth.TestLogin test_ok  pass",
		}},
		{"pytest-xunit2.xml", "src/tests/test_auth.py@TestLogin.test_ok", []string{"tests.test_auth.TestLogin test_ok  pass"}},
		{"pytest-xunit2.xml", "tests/test_authx.py@TestLogin.test_ok", nil},
		{"rootdir", "tests/test_auth.py@TestLogin.test_ok", []string{"test_auth.TestLogin test_ok  pass"}},
		{"rootdir", "tests/test_auth.py@test_x", []string{"test_auth test_x  fail"}},
		{"rootdir", "tests/test_auth.py@test_y", []string{"test_auth test_y  skip"}},
		{"rootdir", "other/test_auth.py@test_z", []string{"other.test_auth test_z other/test_auth.py pass"}},
		{"rootdir", "tests/test_auth.py@test_z", nil},
	} {
		target, err := claims.ParseTarget(tt.target)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range m.Match(target, reports[tt.report]) {
			got = append(got, strings.Join([]string{r.Suite, r.Name, r.File, r.Outcome}, " "))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: Match(%s) = %q, want %q", tt.report, tt.target, got, tt.want)
		}
	}
}

// pyWorkspace is a Python workspace for the linker: a src layout declared
// in pyproject.toml, a second project with packages.find, tests at the
// root, a script.
const pyWorkspace = `
-- pyproject.toml --
[project]
name = "shop"

[tool.setuptools]
package-dir = {"" = "src"}
-- src/shop/__init__.py --
from .cart import Cart
-- src/shop/cart.py --
class Cart:
    def __init__(self):
        self.items = []

    def total(self):
        return sum_prices(self.items)

    def add(self, item):
        self.items.append(item)
        return self.total()


def sum_prices(items):
    return sum(i.price for i in items)
-- src/shop/util/__init__.py --
-- src/shop/util/money.py --
def fmt(x):
    return f"{x:.2f}"
-- src/shop/checkout.py --
import os
import requests
import shop.missing
from . import cart
from .util import money
from .util.money import fmt as format_money
from .nowhere import thing
from ... import too_far


def checkout(c):
    money.fmt(1)
    format_money(2)
    cart.sum_prices([])
    helper()
    c.add(None)
    requests.get("x")
    return os.path.join("a", "b")


def helper():
    return cart.Cart()
-- tests/helpers.py --
def make_cart():
    from shop.cart import Cart
    return Cart()
-- tests/test_cart.py --
from shop import Cart
from shop.cart import sum_prices
import shop.checkout as co
from tests.helpers import make_cart


def test_total():
    assert Cart().total() == 0
    assert sum_prices([]) == 0
    co.checkout(make_cart())
-- lib/pyproject.toml --
[tool.setuptools.packages.find]
where = ["src"]
-- lib/src/libpkg/__init__.py --
-- lib/src/libpkg/core.py --
def run():
    return 1
-- scripts/tool.py --
import libpkg.core
from libpkg.core import run
import sibling


def main():
    libpkg.core.run()
    run()
    sibling.go()
-- scripts/sibling.py --
def go():
    pass
-- other/dup.py --
def f():
    pass


def f():
    pass


def g():
    f()
`
