package workspace

import (
	"slices"
	"strings"
	"testing"
)

func TestParseConfigDefaults(t *testing.T) {
	c, err := ParseConfig(ConfigFile, nil, "Acme Shop")
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Title: "Acme Shop", BaseURL: "/", Language: "en", Content: "content", Output: "public", Lock: "tracewiki.lock",
		Code: CodeConfig{Include: defaultInclude, Exclude: defaultExclude}}
	if c.Title != want.Title || c.BaseURL != want.BaseURL || c.Language != want.Language || c.Content != want.Content ||
		c.Output != want.Output || c.Lock != want.Lock || !slices.Equal(c.Code.Include, want.Code.Include) || !slices.Equal(c.Code.Exclude, want.Code.Exclude) {
		t.Errorf("ParseConfig(empty) = %+v, want %+v", c, want)
	}
	if c.Evidence.Keep != DefaultEvidenceKeep {
		t.Errorf("evidence keep = %d, want the default %d", c.Evidence.Keep, DefaultEvidenceKeep)
	}
	if c, err := ParseConfig(ConfigFile, []byte("[evidence]\nkeep = 3\n"), "x"); err != nil || c.Evidence.Keep != 3 {
		t.Errorf("keep = 3: %d, %v", c.Evidence.Keep, err)
	}
	if c, err := ParseConfig(ConfigFile, []byte("[coverage]\nexclude = [\"gen/**\"]\nmin = 0.8\n"), "x"); err != nil || c.Coverage.Min != 0.8 || !slices.Equal(c.Coverage.Exclude, []string{"gen/**"}) {
		t.Errorf("[coverage]: %+v, %v", c.Coverage, err)
	}
	if c, err := ParseConfig(ConfigFile, []byte("[coverage]\nmin = 1\n"), "x"); err != nil || c.Coverage.Min != 1 {
		t.Errorf("[coverage] min = 1: %+v, %v", c.Coverage, err)
	}
	if got := c.Slug(); got != "acme-shop" {
		t.Errorf("Slug() = %q, want acme-shop", got)
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct {
		src  string
		want []string // substrings, each must appear
	}{
		{"titel = \"x\"\n", []string{`tracewiki.toml:1: unknown key "titel"`}},
		{"title = \"x\"\n\n[code]\ninclude = [\"**/*.go\"]\nexclud = []\n", []string{`tracewiki.toml:5: unknown key "code.exclud"`}},
		{"a = 1\nb = 2\n", []string{`tracewiki.toml:1: unknown key "a"`, `tracewiki.toml:2: unknown key "b"`}},
		{"language = \"fr\"\n", []string{`tracewiki.toml:1: language "fr": want "en" or "es"`}},
		{"output = \"../elsewhere\"\n", []string{`tracewiki.toml:1: output "../elsewhere" must be a relative path inside the workspace`}},
		{"output = \".\"\n", []string{`tracewiki.toml:1: output "." must be a folder of its own`}},
		{"[code]\ninclude = [\"[\"]\n", []string{`bad glob "["`}},
		{"title = \n", []string{"tracewiki.toml:1: "}},
		{"title = 3\n", []string{"tracewiki.toml"}},
		{"title = \"x\"\nbaseURL = \"javascript:alert(document.domain)//\"\n", []string{`tracewiki.toml:2: baseURL "javascript:alert(document.domain)//": scheme javascript: is not allowed; want an http(s) URL or a path`}},
		{"baseURL = \"JavaScript:x\"\n", []string{`scheme javascript: is not allowed`}},
		{"baseURL = \"data:text/html,x\"\n", []string{`scheme data: is not allowed`}},
		{"baseURL = \"//evil.example/\"\n", []string{`a URL without a scheme`}},
		{"baseURL = \"https:///x\"\n", []string{`no host`}},
		{"baseURL = \"\\u0001javascript:x\"\n", []string{`control characters`}},
		{"title = \"x\"\n[evidence]\nkeep = 0\n", []string{`tracewiki.toml:3: evidence keep = 0: want a positive integer`}},
		{"[evidence]\nkeep = -4\n", []string{`tracewiki.toml:2: evidence keep = -4: want a positive integer`}},
		{"[evidence]\nkeep = \"all\"\n", []string{"tracewiki.toml:2: "}},
		{"[evidence]\nkeep = 2.5\n", []string{"tracewiki.toml:2: "}},
		{"[evidence]\nkept = 3\n", []string{`tracewiki.toml:2: unknown key "evidence.kept"`}},
		{"[coverage]\nmin = 80\n", []string{`tracewiki.toml:2: coverage min = 80: want a share from 0 to 1`}},
		{"[coverage]\nmin = -0.1\n", []string{`tracewiki.toml:2: coverage min = -0.1: want a share from 0 to 1`}},
		{"[coverage]\nexclude = [\"[\"]\n", []string{`tracewiki.toml:2: bad glob "["`}},
		{"[coverage]\nminimum = 0.8\n", []string{`tracewiki.toml:2: unknown key "coverage.minimum"`}},
	}
	for _, tt := range tests {
		_, err := ParseConfig(ConfigFile, []byte(tt.src), "x")
		if err == nil {
			t.Errorf("ParseConfig(%q) = nil error, want %q", tt.src, tt.want)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("ParseConfig(%q) = %q, want it to contain %q", tt.src, err, w)
			}
		}
	}
}

// TestCheckBaseURL: http(s) URLs with a host and paths are base URLs.
func TestCheckBaseURL(t *testing.T) {
	for _, u := range []string{"/", "/pr-42/", "docs/", "https://acme.github.io/shop/", "http://localhost:1313/"} {
		if err := CheckBaseURL(u); err != nil {
			t.Errorf("CheckBaseURL(%q) = %v, want nil", u, err)
		}
	}
}

func TestParseConfigValues(t *testing.T) {
	src := `title = "Wiki"
baseURL = "/pr-42/"
language = "es"
content = "./docs"
output = "site"
lock = "trace.lock"

[code]
include = ["src/**/*.go"]
exclude = []
`
	c, err := ParseConfig(ConfigFile, []byte(src), "x")
	if err != nil {
		t.Fatal(err)
	}
	if c.Content != "docs" || c.BaseURL != "/pr-42/" || c.Language != "es" || c.Lock != "trace.lock" ||
		!slices.Equal(c.Code.Include, []string{"src/**/*.go"}) || c.Code.Exclude == nil || len(c.Code.Exclude) != 0 {
		t.Errorf("ParseConfig = %+v", c)
	}
}

func TestConfigExternals(t *testing.T) {
	c, err := ParseConfig("tracewiki.toml", []byte("project = \"Shop API\"\n[[externals]]\nname = \"payments\"\nbundle = \".bundles/./payments.json\"\nurl = \"https://wiki.example.com/payments/\"\n"), "ws")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Externals) != 1 || c.Externals[0].Bundle != ".bundles/payments.json" || c.Slug() != "shop-api" {
		t.Errorf("externals = %+v, slug %q", c.Externals, c.Slug())
	}
	for _, bad := range []string{
		"[[externals]]\nname = \"Pay\"\nbundle = \"a.json\"\n",
		"[[externals]]\nname = \"pay\"\nbundle = \"../a.json\"\n",
		"[[externals]]\nname = \"pay\"\nbundle = \"a.json\"\nurl = \"javascript:x\"\n",
		"[[externals]]\nname = \"pay\"\nbundle = \"a.json\"\n[[externals]]\nname = \"pay\"\nbundle = \"b.json\"\n",
		"[[externals]]\nname = \"pay\"\nbundle = \"a.json\"\nbundel = \"x\"\n",
	} {
		if _, err := ParseConfig("tracewiki.toml", []byte(bad), "ws"); err == nil || !strings.Contains(err.Error(), "tracewiki.toml:") {
			t.Errorf("accepted or unplaced: %q: %v", bad, err)
		}
	}
}
