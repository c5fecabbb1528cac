//go:build conformance

package site

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/site/render"
)

// The screenshots of docs/screenshots: each page in the light theme, the
// dark theme and a 390 px phone viewport.
var docShots = []struct{ name, path string }{
	{"matrix", "requirements/"},
	{"requirement", ""}, // the first requirement with code
	{"file", "code/site/build.go/"},
	{"drift", "drift/"},
}

// testUI runs the browser checks of the site's interface on tracewiki's own
// wiki (served at base, built into own) and the stale fixture (fbase): the
// matrix sorted and filtered in the page, the theme toggle and the
// contrast of highlighted tokens in both themes, a 390 px phone viewport
// without horizontal overflow and with a legible graph. It takes the
// screenshots of docs/screenshots into each of shots.
func testUI(t *testing.T, b *browser, base, own, fbase string, shots []string) {
	req := requirementWithCode(t, own)
	t.Run("matrix", func(t *testing.T) { checkMatrix(t, b, base, own) })
	t.Run("theme", func(t *testing.T) { checkTheme(t, b, base, req) })
	t.Run("phone", func(t *testing.T) { checkPhone(t, b, base, fbase, req) })
	t.Run("screenshots", func(t *testing.T) {
		for _, theme := range []string{"light", "dark", "phone"} {
			b.setTheme(t, base, map[string]string{"dark": "dark"}[theme])
			if theme == "phone" {
				b.viewport(t, 390, 844)
			}
			for _, s := range docShots {
				u := base + s.path
				switch s.name {
				case "requirement":
					u = base + "requirements/" + req + "/"
				case "drift":
					u = fbase + "drift/"
				}
				b.open(t, u)
				b.shoot(t, shots, fmt.Sprintf("%s-%s.png", s.name, theme), chromedp.CaptureScreenshot())
			}
		}
		b.viewport(t, 1280, 900)
		b.setTheme(t, base, "")
	})
}

// requirementWithCode is the first requirement, in natural order, whose
// page shows highlighted code.
func requirementWithCode(t *testing.T, own string) string {
	t.Helper()
	ids := requirementIDs(t, own)
	for _, id := range ids {
		page, err := os.ReadFile(filepath.Join(own, "requirements", id, "index.html"))
		if err == nil && strings.Contains(string(page), `class="fragment`) {
			return id
		}
	}
	t.Fatalf("no requirement of %s shows code", own)
	return ""
}

// requirementIDs lists the built site's requirements in natural id order,
// and their stale flags by id.
func requirementIDs(t *testing.T, out string) []string {
	t.Helper()
	var g struct {
		Nodes []struct{ Type, Label string } `json:"nodes"`
	}
	readJSON(t, filepath.Join(out, "api", "graph.json"), &g)
	var ids []string
	for _, n := range g.Nodes {
		if n.Type == "requirement" {
			ids = append(ids, n.Label)
		}
	}
	slices.SortFunc(ids, claims.CompareIDs)
	return ids
}

// eval runs a script on the current page.
func eval[T any](t *testing.T, b *browser, js string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

const visibleRowsJS = `Array.from(document.querySelectorAll("#matrix tbody tr")).filter(r => !r.hidden && r.getBoundingClientRect().height > 0).map(r => r.id)`

func checkMatrix(t *testing.T, b *browser, base, own string) {
	b.open(t, base+"requirements/")
	ids := requirementIDs(t, own)
	ui := eval[struct{ Form, Static bool }](t, b, `({
	  Form: getComputedStyle(document.getElementById("matrix-filters")).display !== "none",
	  Static: getComputedStyle(document.getElementById("static-filters")).display !== "none"})`)
	if !ui.Form || ui.Static {
		t.Errorf("matrix: filter form shown %v, static filter links shown %v; want the form instead of the links", ui.Form, ui.Static)
	}
	if got := eval[[]string](t, b, visibleRowsJS); !slices.Equal(got, ids) {
		t.Errorf("matrix rows %q, want natural id order %q", got, ids)
	}
	// Sort: the id column again, descending; then by title.
	click := func(col int) {
		eval[bool](t, b, fmt.Sprintf(`document.querySelectorAll("#matrix thead th")[%d].querySelector("button").click(), true`, col))
	}
	click(0)
	reversed := slices.Clone(ids)
	slices.Reverse(reversed)
	if got := eval[[]string](t, b, visibleRowsJS); !slices.Equal(got, reversed) {
		t.Errorf("matrix sorted by id, descending: %q, want %q", got, reversed)
	}
	click(1)
	if bad := eval[string](t, b, `(() => {
	  const c = new Intl.Collator(undefined, {numeric: true, sensitivity: "base"});
	  const t = Array.from(document.querySelectorAll("#matrix tbody tr")).map(r => r.cells[1].textContent.trim());
	  for (let i = 1; i < t.length; i++) if (c.compare(t[i-1], t[i]) > 0) return t[i-1] + " before " + t[i];
	  return document.querySelectorAll("#matrix thead th")[1].getAttribute("aria-sort");
	})()`); bad != "ascending" {
		t.Errorf("matrix sorted by title: %s", bad)
	}
	// Filters combine: state, then status, then text.
	var g struct {
		Nodes []struct {
			Type, Label, Status string
			Stale               bool
			Verified            *bool
		} `json:"nodes"`
	}
	readJSON(t, filepath.Join(own, "api", "graph.json"), &g)
	want := func(keep func(status string, stale, verified bool) bool) []string {
		var out []string
		for _, n := range g.Nodes {
			if n.Type == "requirement" && keep(n.Status, n.Stale, n.Verified != nil && *n.Verified) {
				out = append(out, n.Label)
			}
		}
		slices.SortFunc(out, claims.CompareIDs)
		return out
	}
	set := func(name, value string) []string {
		got := eval[[]string](t, b, fmt.Sprintf(`(() => {
		  const e = document.getElementById("matrix-filters").elements[%q];
		  e.value = %q; e.dispatchEvent(new Event(e.tagName === "INPUT" ? "input" : "change", {bubbles: true}));
		  return %s;
		})()`, name, value, visibleRowsJS))
		slices.SortFunc(got, claims.CompareIDs)
		return got
	}
	if got, w := set("state", "unverified"), want(func(_ string, _, v bool) bool { return !v }); !slices.Equal(got, w) {
		t.Errorf("matrix state=unverified shows %q, want %q", got, w)
	}
	if got, w := set("status", "accepted"), want(func(s string, _, v bool) bool { return !v && s == "accepted" }); !slices.Equal(got, w) {
		t.Errorf("matrix state=unverified, status=accepted shows %q, want %q", got, w)
	}
	set("state", "")
	set("status", "")
	if got := set("q", ids[len(ids)-1]); !slices.Contains(got, ids[len(ids)-1]) || len(got) >= len(ids) {
		t.Errorf("matrix text %q shows %q", ids[len(ids)-1], got)
	}
	if n := eval[string](t, b, `document.getElementById("matrix-count").textContent`); !strings.HasSuffix(n, fmt.Sprintf("of %d shown", len(ids))) {
		t.Errorf("matrix count says %q", n)
	}
	checkMatrixStates(t, b, base)
}

// matrixWindow is the width of the window in which every state column of
// the matrix must be in view without scrolling (issue 24: at 1,400 px they
// were off-screen, behind the code and tests lists).
const matrixWindow = 1400

// checkMatrixStates opens the matrix in a matrixWindow-wide window and
// checks that the right edge of each state column (implemented, tested,
// verified, stale) lies inside both the window and the matrix's scroll
// box.
func checkMatrixStates(t *testing.T, b *browser, base string) {
	b.viewport(t, matrixWindow, 900)
	defer b.viewport(t, 1280, 900)
	b.open(t, base+"requirements/")
	type column struct {
		Name  string
		Right float64
	}
	got := eval[struct {
		Window, Box, Table float64
		States             []column
	}](t, b, `(() => {
	  const box = document.querySelector("#matrix").closest(".scroll").getBoundingClientRect();
	  const states = Array.from(document.querySelectorAll("#matrix thead th"))
	    .filter(th => ["implemented", "tested", "verified", "stale"].includes(th.textContent.trim()))
	    .map(th => ({Name: th.textContent.trim(), Right: th.getBoundingClientRect().right}));
	  return {Window: window.innerWidth, Box: box.right, Table: document.getElementById("matrix").getBoundingClientRect().right, States: states};
	})()`)
	if len(got.States) != 4 {
		t.Fatalf("matrix: state columns %+v, want implemented, tested, verified and stale", got.States)
	}
	for _, c := range got.States {
		if c.Right > got.Window || c.Right > got.Box {
			t.Errorf("matrix at %v px: the %s column ends at %.0f px, past the window (%v px) or the table's scroll box (%.0f px)", got.Window, c.Name, c.Right, got.Window, got.Box)
		}
	}
	t.Logf("matrix at %v px: table ends at %.0f px, its scroll box at %.0f px; state columns end at %+v", got.Window, got.Table, got.Box, got.States)
}

// setTheme chooses a theme as a reader would, remembered for the origin of
// base ("" forgets the choice: the system decides, light in the tests).
func (b *browser) setTheme(t *testing.T, base, theme string) {
	t.Helper()
	b.open(t, base)
	js := `localStorage.removeItem("tracewiki-theme"), true`
	if theme != "" {
		js = fmt.Sprintf(`localStorage.setItem("tracewiki-theme", %q), true`, theme)
	}
	eval[bool](t, b, js)
}

func (b *browser) viewport(t *testing.T, w, h int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h)); err != nil {
		t.Fatal(err)
	}
}

// tokenContrast measures, on the current page, the contrast of every
// highlighted token class that shows text: its computed colour against the
// computed background it is drawn on.
const tokenContrastJS = `(() => {
  const rgb = c => c.match(/[\d.]+/g).map(Number);
  const lum = c => { const f = v => (v /= 255) <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); return 0.2126*f(c[0]) + 0.7152*f(c[1]) + 0.0722*f(c[2]); };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const skip = new Set(["line", "cl", "ln", "lnt", "lnlinks", "hl"]);
  const out = {};
  for (const s of document.querySelectorAll(".chroma span[class]")) {
    const cls = s.className;
    if (skip.has(cls) || out[cls] || !s.textContent.trim()) continue;
    let e = s, bg = null;
    while (e && !bg) { const c = rgb(getComputedStyle(e).backgroundColor); if (c.length < 4 || c[3] > 0) bg = c; e = e.parentElement; }
    out[cls] = {Ratio: ratio(rgb(getComputedStyle(s).color), bg || [255, 255, 255]), Color: getComputedStyle(s).color};
  }
  return out;
})()`

type contrast struct {
	Ratio float64
	Color string
}

func checkTheme(t *testing.T, b *browser, base, req string) {
	b.setTheme(t, base, "")
	page := base + "requirements/" + req + "/"
	b.open(t, page)
	bodyDark := `(() => { const c = getComputedStyle(document.body).backgroundColor.match(/\d+/g).map(Number); return c[0] + c[1] + c[2] < 150; })()`
	if eval[bool](t, b, bodyDark) {
		t.Fatalf("%s: dark before any choice (headless prefers light)", page)
	}
	measure := func(theme string) {
		got := eval[map[string]contrast](t, b, tokenContrastJS)
		if len(got) < 8 {
			t.Errorf("%s (%s): only %d token classes to measure: %v", page, theme, len(got), got)
		}
		for _, cls := range slices.Sorted(maps.Keys(got)) {
			if c := got[cls]; c.Ratio < render.MinTokenContrast {
				t.Errorf("%s (%s): .%s is %s, contrast %.2f, want ≥ %.1f", page, theme, cls, c.Color, c.Ratio, render.MinTokenContrast)
			}
		}
	}
	measure("light")
	// The toggle switches to dark, and the choice holds on other pages.
	eval[bool](t, b, `document.getElementById("theme-toggle").click(), true`)
	if !eval[bool](t, b, bodyDark) || eval[string](t, b, `document.documentElement.dataset.theme`) != "dark" {
		t.Errorf("%s: the theme toggle did not switch to dark", page)
	}
	measure("dark")
	b.open(t, base+"requirements/")
	if !eval[bool](t, b, bodyDark) {
		t.Errorf("the dark theme chosen on %s is not kept on the matrix page", page)
	}
	b.open(t, page)
	measure("dark, reloaded")
	eval[bool](t, b, `document.getElementById("theme-toggle").click(), true`)
	b.open(t, page)
	if eval[bool](t, b, bodyDark) {
		t.Errorf("%s: back to light with the toggle, but dark after a reload", page)
	}
	b.setTheme(t, base, "")
}

func checkPhone(t *testing.T, b *browser, base, fbase, req string) {
	b.viewport(t, 390, 844)
	defer b.viewport(t, 1280, 900)
	for _, u := range []string{base, base + "requirements/", base + "requirements/" + req + "/", base + "code/site/build.go/", fbase + "drift/", fbase + "pages/guide/"} {
		f := b.open(t, u)
		if f.Overflow > 0 {
			t.Errorf("%s at 390 px: the page is %d px wider than the window", u, f.Overflow)
		}
	}
	for _, u := range []string{base + "requirements/" + req + "/", base + "code/site/build.go/"} {
		b.open(t, u)
		g := eval[struct {
			Wide, Narrow  bool
			Width         float64
			MinFont       float64
			Texts, Arrows int
		}](t, b, `(() => {
		  const vis = e => e && e.getBoundingClientRect().width > 0;
		  const n = document.querySelector("svg.tw-graph.narrow");
		  const texts = n ? Array.from(n.querySelectorAll("text")) : [];
		  const scale = n ? n.getScreenCTM().a : 0;
		  return {Wide: vis(document.querySelector("svg.tw-graph.wide")), Narrow: vis(n),
		    Width: n ? n.getBoundingClientRect().width : 0,
		    MinFont: Math.min(...texts.map(e => parseFloat(getComputedStyle(e).fontSize) * scale)),
		    Texts: texts.length, Arrows: n ? n.querySelectorAll("path[marker-end]").length : 0};
		})()`)
		switch {
		case g.Wide || !g.Narrow:
			t.Errorf("%s at 390 px: wide graph shown %v, narrow shown %v; want the narrow one", u, g.Wide, g.Narrow)
		case g.Width > 390:
			t.Errorf("%s at 390 px: the graph is %.0f px wide", u, g.Width)
		case g.Texts == 0 || g.MinFont < 11:
			t.Errorf("%s at 390 px: the graph's smallest text is %.1f px (%d texts); want ≥ 11", u, g.MinFont, g.Texts)
		case g.Arrows == 0:
			t.Errorf("%s at 390 px: no edge has an arrowhead", u)
		}
	}
}
