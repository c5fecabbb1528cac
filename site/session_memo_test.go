package site

import (
	"bytes"
	"testing"
)

// TestSessionMemosFollowEdits checks that what a session keeps from one
// build to the next (the graph, drawn again only when its inputs' key
// changes) is never stale: after each edit, some of which leave the
// graph's inputs as they were (a paragraph above a page's claims, a
// claim's text, a heading between claims) and some of which change a part of them that only the
// graph shows (a page's title, a decision's mention, a document's link,
// a requirement's tag), every file of the session's site, the edited
// page and the index pages among them, is byte for byte a fresh build of
// the edited workspace. It also checks that an edit of prose alone keeps
// the last graph, so the memo is used at all.
func TestSessionMemosFollowEdits(t *testing.T) {
	dir := fixture(t, "shop")
	s, err := OpenSession(dir, SessionOptions{})
	must(t, err)
	defer s.Close()
	prev, err := s.Build("")
	must(t, err)
	edit := func(name, old, new string) { t.Helper(); replaceIn(t, dir, name, old, new) }
	for _, c := range []struct {
		what, file, old, new string
		// page is the edited document's page, which must show shows;
		// sameGraph says the edit leaves the graph's inputs unchanged.
		page, shows string
		sameGraph   bool
	}{
		{"a paragraph above a page's claims", "content/guides/checkout.md", "# Checkout\n", "# Checkout\n\nAn added paragraph.\n",
			"pages/guides/checkout/index.html", "An added paragraph.", true},
		{"a claim's text", "content/guides/checkout.md", "Then it charges the card", "Then it charges the debit card",
			"pages/guides/checkout/index.html", "charges the debit card", true},
		{"a heading between a page's claims", "content/guides/checkout.md", "The [refund test]", "## Refunds\n\nThe [refund test]",
			"pages/guides/checkout/index.html", ">Refunds</h2>", true},
		{"a page's title", "content/guides/checkout.md", "title: Checkout\n", "title: Checking out\n",
			"pages/guides/checkout/index.html", "Checking out", false},
		{"a decision's mention", "content/decisions/DEC-2.md", "Every payment goes through pay/pay.go.", "Every payment goes through pay/pay.go for REQ-4.",
			"decisions/DEC-2/index.html", "for REQ-4", false},
		{"a page's link", "content/guides/checkout.md", "See [cart totals](req:REQ-1)", "See [cart totals](req:REQ-2)",
			"pages/guides/checkout/index.html", "requirements/REQ-2/", false},
		{"a requirement's tag", "content/requirements/REQ-4.md", "status: proposed\n", "status: proposed\ntags: [money]\n",
			"requirements/REQ-4/index.html", "money", false},
		{"a requirement's text", "content/requirements/REQ-4.md", "refunded in full.", "refunded in full, once.",
			"requirements/REQ-4/index.html", "refunded in full, once.", false},
	} {
		edit(c.file, c.old, c.new)
		got, err := s.Build("")
		must(t, err)
		if page, _, err := got.File(c.page); err != nil || !bytes.Contains(page, []byte(c.shows)) {
			t.Fatalf("%s: %s does not show %q (%v)", c.what, c.page, c.shows, err)
		}
		if c.sameGraph && got.Graph != prev.Graph {
			t.Errorf("%s: the graph was drawn again, its inputs unchanged", c.what)
		}
		files, err := got.lazy.all()
		must(t, err)
		want := buildSite(t, dir, BuildOptions{}, 0).Files
		for _, name := range []string{c.page, "index.html", "pages/index.html", "requirements/index.html", "code/index.html"} {
			if _, ok := want[name]; ok && !bytes.Equal(files[name], want[name]) {
				t.Errorf("%s: the session's %s is not a fresh build's", c.what, name)
			}
		}
		if diff := firstDiffFile(want, files); diff != "" {
			t.Fatalf("%s: the session's site differs from a fresh build: %s", c.what, diff)
		}
		prev = got
	}
}
