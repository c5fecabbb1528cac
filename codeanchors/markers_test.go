package codeanchors

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// markerString writes a marker compactly for comparison:
// "format role line ids scope".
func markerString(m Marker) string {
	s := fmt.Sprintf("%s %s %d %s %s", m.Format, m.Role, m.Line, strings.Join(m.IDs, ","), m.Scope)
	if m.Skip {
		s += " skip"
	}
	return s
}

func TestParseMarkers(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"// @implements REQ-1, REQ-2", []string{"tracewiki implements 10 REQ-1,REQ-2 "}},
		{"# @tests REQ-3.", []string{"tracewiki tests 10 REQ-3 "}},
		{"/**\n * Does x.\n * @implements: SW-1\n */", []string{"tracewiki implements 12 SW-1 "}},
		{"// @implements REQ-1 @tests REQ-2", []string{"tracewiki implements 10 REQ-1 ", "tracewiki tests 10 REQ-2 "}},
		{"/** @implements Foo<Bar> */", nil},    // PHPStan's generic, no marker
		{"// mail me at x@implements.org", nil}, // not a tag
		{"// @implementsX REQ-1", nil},          // another word
		{"// @relation(REQ-1, REQ-2, scope=function)", []string{"strictdoc implements 10 REQ-1,REQ-2 function"}},
		{"# @relation(REQ-1, scope=range_start)", []string{"strictdoc implements 10 REQ-1 range_start"}},
		{"// @relation(skip, scope=range_start)", []string{"strictdoc implements 10  range_start skip"}},
		{"// @relation(REQ-1, scope=module)", nil},                          // not a StrictDoc scope
		{"// @relation(REQ-1)", []string{"strictdoc implements 10 REQ-1 "}}, // no scope: the default rule
		{"// It is in a @relation(skip...) block.", []string{"strictdoc implements 10   skip"}},
		{"// [impl->dsn~login~1]", []string{"openfasttrace implements 10 dsn~login~1 "}},
		{"// [utest->dsn~login~1] [itest -> req~x~2]", []string{"openfasttrace tests 10 dsn~login~1 ", "openfasttrace tests 10 req~x~2 "}},
		{"// [impl~impl-login~1->dsn~login~1>>utest]", []string{"openfasttrace implements 10 dsn~login~1 "}},
		{"// [impl->dsn~login]", nil},  // no revision: not an item id
		{"// [dsn->dsn~login~1]", nil}, // not impl, utest or itest
		{"# lobster-trace: auth.login_req", []string{"lobster implements 10 auth.login_req "}},
		{"-- lobster-trace: A, B", []string{"lobster implements 10 A,B "}},
		{"// nothing here", nil},
	} {
		var got []string
		for _, m := range ParseMarkers(lang.Comment{Line: 10, EndLine: 10 + strings.Count(tc.text, "\n"), Text: tc.text}, MarkerFormats) {
			got = append(got, markerString(m))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("ParseMarkers(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestParseMarkersFormats: [markers] formats reads only the formats named.
func TestParseMarkersFormats(t *testing.T) {
	c := lang.Comment{Line: 1, EndLine: 1, Text: "// @implements A [impl->dsn~b~1] lobster-trace: C @relation(D, scope=file)"}
	for _, tc := range []struct {
		formats []string
		want    []string
	}{
		{nil, nil},
		{[]string{FormatLobster}, []string{"C"}},
		{[]string{FormatTracewiki, FormatOpenFastTrace}, []string{"A", "dsn~b~1"}},
		{MarkerFormats, []string{"A", "D", "dsn~b~1", "C"}},
	} {
		var got []string
		for _, m := range ParseMarkers(c, tc.formats) {
			got = append(got, m.IDs...)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("formats %q: ids %q, want %q", tc.formats, got, tc.want)
		}
	}
}

// FuzzParseMarkers: any comment parses without panic, every marker names
// valid ids, no more than the bound, on a line of the comment.
func FuzzParseMarkers(f *testing.F) {
	for _, s := range []string{"// @implements REQ-1, REQ-2", "# @relation(A, B, scope=range_end)", "[utest->a~b~1]", "lobster-trace: x.y", "@tests ,,,", "@relation(,=,)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c := lang.Comment{Line: 3, EndLine: 3 + strings.Count(text, "\n"), Text: text}
		for _, m := range ParseMarkers(c, MarkerFormats) {
			if len(m.IDs) == 0 && !m.Skip || len(m.IDs) > maxMarkerIDs || m.Skip && len(m.IDs) > 0 {
				t.Fatalf("%q: marker with %d ids", text, len(m.IDs))
			}
			for _, id := range m.IDs {
				if !claims.ValidID(id) {
					t.Fatalf("%q: invalid id %q", text, id)
				}
			}
			if m.Line < c.Line || m.Line > c.EndLine {
				t.Fatalf("%q: marker on line %d, outside %d-%d", text, m.Line, c.Line, c.EndLine)
			}
			if m.Role != RoleImplements && m.Role != RoleTests {
				t.Fatalf("%q: role %q", text, m.Role)
			}
		}
	})
}

// linkStrings finds the markers of src (at path) and writes each link as
// "REQ role TARGET @line".
func linkStrings(t *testing.T, path, src string) []string {
	t.Helper()
	s := NewSource(Default, path, []byte(src))
	if s.File == nil {
		t.Fatalf("%s: no extractor or no parse: %v", path, s.ParseErr)
	}
	var out []string
	for _, l := range FindMarkers(s, MarkerFormats) {
		out = append(out, fmt.Sprintf("%s %s %s @%d", l.Req, l.Role, l.Target, l.Pos.Line))
	}
	return out
}

func TestFindMarkersScope(t *testing.T) {
	for _, tc := range []struct {
		name, path, src string
		want            []string
	}{
		{"go", "auth/auth.go", `// Package auth logs users in.
// @implements FILE-1
package auth

// Login logs a user in.
// @implements REQ-1, REQ-2
func Login() {
	// @tests REQ-3
}

type Session struct {
	id int // @implements REQ-4
}

// [impl->dsn~close~1]
func (s *Session) Close() {}

// @relation(REQ-5, scope=file)
// @relation(REQ-6, scope=line)

var x = 1
`, []string{
			"FILE-1 implements auth/auth.go @2",
			"REQ-1 implements auth/auth.go@Login @6",
			"REQ-2 implements auth/auth.go@Login @6",
			"REQ-3 tests auth/auth.go@Login @8",
			"REQ-4 implements auth/auth.go@Session @12",
			"dsn~close~1 implements auth/auth.go@Session.Close @15",
			"REQ-5 implements auth/auth.go @18",
			"REQ-6 implements auth/auth.go#L21-L21 @19",
		}},
		{"python docstrings", "app/cart.py", `"""The cart.

@relation(CART-0, scope=file)
"""


class Cart:
    """A cart.

    @relation(CART-1, scope=class)
    """

    def add(self, item):
        """Adds an item.

        @relation(CART-2, scope=function)
        """
        # @relation(CART-3, scope=range_start)
        self.items.append(item)
        self.total += item.price
        # @relation(CART-3, scope=range_end)

    # lobster-trace: CART-4
    def remove(self, item):
        # @relation(skip, scope=range_start)
        # @relation(CART-9, scope=function) is how one writes it
        # @relation(skip, scope=range_end)
        pass

    def clear(self):
        # @relation(CART-5, scope=class)
        pass
`, []string{
			"CART-0 implements app/cart.py @3",
			"CART-1 implements app/cart.py@Cart @10",
			"CART-2 implements app/cart.py@Cart.add @16",
			"CART-3 implements app/cart.py#L19-L20 @18",
			"CART-4 implements app/cart.py@Cart.remove @23",
			"CART-5 implements app/cart.py@Cart @31",
		}},
		{"java", "src/main/java/a/Cart.java", `package a;

/** The cart. [impl->dsn~cart~1] */
public class Cart {
    /**
     * Adds an item.
     * @implements CART-1
     */
    @Override
    public void add(Item i) {
        items.add(i); // @tests CART-2
    }

    // @relation(CART-3, scope=function)

    int count() { return 0; }
}
`, []string{
			"dsn~cart~1 implements src/main/java/a/Cart.java@Cart @3",
			"CART-1 implements src/main/java/a/Cart.java@Cart.add @7",
			"CART-2 tests src/main/java/a/Cart.java@Cart.add @11",
			// A blank line between: the comment documents nothing, its
			// enclosing class holds it (scope=function has no such
			// symbol, so the default rule decides).
			"CART-3 implements src/main/java/a/Cart.java@Cart @14",
		}},
		{"c", "src/cart.c", `#include "cart.h"

/* @implements CART-1 */
int cart_add(struct cart *c, int item)
{
	/* @relation(CART-2, scope=range_start) */
	c->items[c->n++] = item;
	/* @relation(CART-2, scope=range_end) */
	return c->n;
}

/* @relation(CART-3, scope=range_end) has no start */
struct cart {
	int n; // [utest->dsn~cart~2]
};
`, []string{
			"CART-1 implements src/cart.c@cart_add @3",
			"CART-2 implements src/cart.c#L7-L7 @6",
			"dsn~cart~2 tests src/cart.c@cart @14",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := linkStrings(t, tc.path, tc.src)
			if !slices.Equal(got, tc.want) {
				t.Errorf("links:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestWithMarkers: marker links join their requirements' links once (the
// front matter's stands), the model given is not changed, and markers
// naming no requirement come back, judged unknown with suggestions.
func TestWithMarkers(t *testing.T) {
	fm := claims.TargetRef{Target: claims.Target{Path: "a.go", Symbol: "F"}, Pos: claims.Pos{File: "content/requirements/REQ-1.md", Line: 3}}
	m := &claims.Model{Requirements: []*claims.Requirement{{ID: "REQ-1", Implements: []claims.TargetRef{fm}}, {ID: "REQ-2"}}}
	at := claims.Pos{File: "a.go", Line: 7}
	links := []MarkerLink{
		{Req: "REQ-1", Role: RoleImplements, Target: fm.Target, Pos: at},                                    // the front matter's link
		{Req: "REQ-1", Role: RoleTests, Target: claims.Target{Path: "a_test.go", Symbol: "TestF"}, Pos: at}, // new
		{Req: "REQ-2", Role: RoleImplements, Target: claims.Target{Path: "a.go"}, Pos: at},                  // new
		{Req: "REQ-2", Role: RoleImplements, Target: claims.Target{Path: "a.go"}, Pos: claims.Pos{File: "a.go", Line: 9}},
		{Req: "REQ-3", Role: RoleImplements, Target: claims.Target{Path: "a.go"}, Pos: at}, // no such requirement
	}
	got, unknown := WithMarkers(m, links)
	if len(m.Requirements[0].Implements) != 1 || len(m.Requirements[0].Tests) != 0 || len(m.Requirements[1].Implements) != 0 {
		t.Fatal("WithMarkers changed the model it was given")
	}
	r1, r2 := got.Requirements[0], got.Requirements[1]
	if len(r1.Implements) != 1 || r1.Implements[0].Marker || len(r1.Tests) != 1 || !r1.Tests[0].Marker {
		t.Errorf("REQ-1: implements %+v tests %+v", r1.Implements, r1.Tests)
	}
	if len(r2.Implements) != 1 || r2.Implements[0].Pos != at || !r2.Implements[0].Marker {
		t.Errorf("REQ-2: implements %+v, want one marker link at a.go:7", r2.Implements)
	}
	if len(unknown) != 1 || unknown[0].Req != "REQ-3" {
		t.Fatalf("unknown %+v, want REQ-3's", unknown)
	}
	st := JudgeMarkers(unknown, got)
	if st[0].Verdict.State != Unknown || st[0].Verdict.Reason != TargetMissing || !slices.Equal(st[0].Suggestions, []string{"REQ-1", "REQ-2"}) {
		t.Errorf("JudgeMarkers = %+v", st[0])
	}
}

// TestWithMarkersArtifacts: OpenFastTrace tags keep their artifact type
// on the link; a second tag of another type on the same link adds its
// type (to a copy: the given model's refs keep theirs), and a declaration
// that names no type makes the link meet any need of its role.
func TestWithMarkersArtifacts(t *testing.T) {
	test := claims.Target{Path: "a_test.go", Symbol: "TestF"}
	first := claims.TargetRef{Target: test, Pos: claims.Pos{File: "a_test.go", Line: 3}, Marker: true, Artifacts: []string{"utest"}}
	m := &claims.Model{Requirements: []*claims.Requirement{{ID: "dsn~a~1", Tests: []claims.TargetRef{first}}, {ID: "dsn~b~1"}}}
	at := claims.Pos{File: "a_test.go", Line: 4}
	got, _ := WithMarkers(m, []MarkerLink{
		{Req: "dsn~a~1", Role: RoleTests, Target: test, Pos: at, Artifact: "itest"},
		{Req: "dsn~b~1", Role: RoleTests, Target: test, Pos: at, Artifact: "itest"},
		{Req: "dsn~b~1", Role: RoleTests, Target: test, Pos: at, Format: FormatTracewiki},
	})
	if a := m.Requirements[0].Tests[0].Artifacts; !slices.Equal(a, []string{"utest"}) {
		t.Fatalf("the given model's link now has artifacts %v", a)
	}
	if a := got.Requirements[0].Tests; len(a) != 1 || !slices.Equal(a[0].Artifacts, []string{"itest", "utest"}) {
		t.Errorf("dsn~a~1 tests %+v, want one link of itest and utest", a)
	}
	if b := got.Requirements[1].Tests; len(b) != 1 || b[0].Artifacts != nil {
		t.Errorf("dsn~b~1 tests %+v, want one link of no type (an @tests marker names none)", b)
	}
	if ms := ParseMarkers(lang.Comment{Line: 1, Text: "[itest -> dsn~a~1]"}, MarkerFormats); len(ms) != 1 || ms[0].Artifact != "itest" || ms[0].Role != RoleTests {
		t.Errorf("ParseMarkers = %+v, want one itest tests marker", ms)
	}
}
