package render

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/alecthomas/chroma/v2"
	chtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/styles"
)

// TestFenceOnce checks that identical fences, asked for from many pages at
// once, are lexed and formatted once, and that different ones are not
// confused.
func TestFenceOnce(t *testing.T) {
	h := newHighlighter()
	code := []byte("func f() int { return 1 }\n")
	var wg sync.WaitGroup
	out := make([]string, 64)
	for i := range out {
		wg.Go(func() {
			lang := "go"
			if i%2 == 1 {
				lang = "Go" // languages are case-insensitive
			}
			out[i] = string(h.Fence(lang, code))
		})
	}
	wg.Wait()
	if n := h.lexed.Load(); n != 1 {
		t.Errorf("64 identical fences lexed %d times, want 1", n)
	}
	for i, o := range out {
		if o != out[0] {
			t.Fatalf("fence %d differs:\n%s\n%s", i, o, out[0])
		}
	}
	if !strings.Contains(out[0], `<span class="kd">func</span>`) {
		t.Errorf("go fence not highlighted: %s", out[0])
	}
	py := string(h.Fence("python", code))
	plain := string(h.Fence("no-such-language", []byte("<x> & y\n")))
	if h.lexed.Load() != 3 || py == out[0] {
		t.Errorf("a python fence of the same text reused the go one (lexed %d)", h.lexed.Load())
	}
	if !strings.Contains(plain, "&lt;x&gt; &amp; y") || strings.Contains(plain, "<x>") {
		t.Errorf("unknown language not shown as escaped plain text: %s", plain)
	}
}

// TestThemeContrast checks the generated highlighting themes: every token
// class has a colour of at least MinTokenContrast against its background in
// both themes, and the dark theme sets every class the light one sets, so no
// light colour shows through on the dark background.
func TestThemeContrast(t *testing.T) {
	for _, name := range []string{lightStyle, darkStyle} {
		tcs := tokenColours(styles.Get(name))
		if len(tcs) < 50 {
			t.Fatalf("%s: only %d token classes", name, len(tcs))
		}
		for _, tc := range tcs {
			if c := contrastRatio(tc.colour, tc.bg); c < MinTokenContrast {
				t.Errorf("%s .%s: %s on %s has contrast %.2f, want ≥ %.1f", name, tc.class, tc.colour, tc.bg, c, MinTokenContrast)
			}
		}
	}
	css, err := ChromaCSS()
	if err != nil {
		t.Fatal(err)
	}
	rule := regexp.MustCompile(`(?m)^(\s*)/\* [A-Za-z]+ \*/ (.*?)\.chroma \.([a-z0-9]+) \{ color: (#[0-9a-f]{6}) \}$`)
	light, dark, auto := map[string]string{}, map[string]string{}, map[string]string{}
	for _, m := range rule.FindAllStringSubmatch(string(css), -1) {
		switch m[2] {
		case "":
			light[m[3]] = m[4]
		case darkScope + " ":
			dark[m[3]] = m[4]
		case autoDarkScope + " ":
			if m[1] == "" {
				t.Errorf("auto dark rule for .%s outside the media query", m[3])
			}
			auto[m[3]] = m[4]
		}
	}
	if len(light) < 50 {
		t.Fatalf("%d light colour rules in chroma.css", len(light))
	}
	for class := range light {
		if dark[class] == "" || dark[class] != auto[class] {
			t.Errorf(".%s: light %s, dark %q, auto dark %q: the dark themes must set it, the same", class, light[class], dark[class], auto[class])
		}
	}
	// The names of the report: light-theme black on the dark background.
	for _, class := range []string{"n", "na", "nx", "nb", "p", "ge"} {
		if c := parseColour(t, dark[class]); contrastRatio(c, styles.Get(darkStyle).Get(chroma.Background).Background) < MinTokenContrast {
			t.Errorf("dark .%s = %s is not readable", class, dark[class])
		}
	}
}

func parseColour(t *testing.T, s string) chroma.Colour {
	t.Helper()
	var r, g, b uint8
	if _, err := fmt.Sscanf(s, "#%02x%02x%02x", &r, &g, &b); err != nil {
		t.Fatalf("colour %q: %v", s, err)
	}
	return chroma.NewColour(r, g, b)
}

func TestContrastRatio(t *testing.T) {
	for _, c := range []struct {
		a, b chroma.Colour
		want float64
	}{
		{chroma.NewColour(0, 0, 0), chroma.NewColour(255, 255, 255), 21},
		{chroma.NewColour(255, 255, 255), chroma.NewColour(255, 255, 255), 1},
		{chroma.NewColour(0x1f, 0x23, 0x28), chroma.NewColour(0x0d, 0x11, 0x17), 1.2}, // the report
	} {
		if got := contrastRatio(c.a, c.b); got < c.want-0.05 || got > c.want+0.05 {
			t.Errorf("contrastRatio(%s, %s) = %.2f, want %.2f", c.a, c.b, got, c.want)
		}
	}
}

// TestHighlightedAsChroma checks that fragments and fences highlighted one
// after another, with different first lines and anchors, are what a new
// chroma formatter makes of each.
func TestHighlightedAsChroma(t *testing.T) {
	src := [][]byte{[]byte("func F() {"), []byte("\treturn 1 // one"), []byte("}"), []byte(""), []byte("type T struct{ a, b int }")}
	h := newHighlighter()
	l := h.lexer("x.go")
	for i, c := range []struct {
		start, end int
		anchor     string
	}{{1, 3, "F"}, {5, 5, "T"}, {2, 5, "range-2"}, {1, 5, "F"}, {3, 4, ""}} {
		got := h.render(l, src[c.start-1:c.end], c.start, c.anchor)
		var want bytes.Buffer
		f := chtml.New(chtml.WithClasses(true), chtml.WithLineNumbers(true), chtml.BaseLineNumber(c.start),
			chtml.WithLinkableLineNumbers(true, c.anchor+"-L"))
		tokens, err := tokenise(l, string(append(bytes.Join(src[c.start-1:c.end], []byte("\n")), '\n')))
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Format(&want, styles.Get(lightStyle), chroma.Literator(tokens...)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("fragment %d (lines %d-%d, anchor %q):\n%s\nwant\n%s", i, c.start, c.end, c.anchor, got, want.Bytes())
		}
	}
	code := "def f(x):\n    return x  # <b>\n"
	got := h.Fence("python", []byte(code))
	var want bytes.Buffer
	tokens, err := tokenise(h.langLexer("python"), code)
	if err != nil {
		t.Fatal(err)
	}
	if err := chtml.New(chtml.WithClasses(true)).Format(&want, styles.Get(lightStyle), chroma.Literator(tokens...)); err != nil {
		t.Fatal(err)
	}
	if string(got) != want.String() {
		t.Errorf("fence:\n%s\nwant\n%s", got, want.Bytes())
	}
}
