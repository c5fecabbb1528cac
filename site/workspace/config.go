// Package workspace is what tracewiki knows of a workspace: its
// configuration, tracewiki.toml ([ParseConfig]), with its defaults and the
// rules its values must meet; the [Workspace] every read goes through,
// confined to its root (symlinks included), which stamps what it saw of
// each path for the up-to-date check; the [Lockfile], read and changed
// under a file lock, atomically, never overwriting a corrupt one; and what
// git says of the workspace ([Workspace.GitChanges], the history of a
// file). It knows nothing of the model's graph or of pages: site reads
// through it and converts what it returns.
package workspace

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/bmatcuk/doublestar/v4"
	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// ConfigFile is the name of the configuration file at the workspace root.
const ConfigFile = "tracewiki.toml"

// Config is tracewiki.toml. The zero value of every field means its default,
// filled in by [ParseConfig].
type Config struct {
	// Title names the wiki; zero means the workspace folder's name. Its slug
	// is the <repo> of code:// URIs.
	Title string `toml:"title"`
	// BaseURL is the URL path the site is served under; zero means "/".
	BaseURL string `toml:"baseURL"`
	// Language selects the messages: "en" (zero) or "es".
	Language string `toml:"language"`
	// Content is the folder of wiki sources; zero means "content".
	Content string `toml:"content"`
	// Output is the folder of the generated site; zero means "public".
	Output string `toml:"output"`
	// Lock is the lock file; zero means "tracewiki.lock".
	Lock string `toml:"lock"`
	// RepoURL is the repository on its forge (https://github.com/acme/shop);
	// zero means no links to the forge.
	RepoURL string `toml:"repo_url"`
	// Forge is the URL shape of RepoURL: "github", "gitlab" or "gitea";
	// zero means the one of RepoURL's host (github.com, gitlab.com,
	// gitea.com, codeberg.org).
	Forge    string         `toml:"forge"`
	Code     CodeConfig     `toml:"code"`
	Evidence EvidenceConfig `toml:"evidence"`
	// Fields declares the types of custom fields, by name ([fields.NAME]);
	// nil means every field is free text.
	Fields map[string]claims.FieldSpec `toml:"fields"`
	// Policy is what complete traceability means here (SPEC 1.7).
	Policy   PolicyConfig   `toml:"policy"`
	Coverage CoverageConfig `toml:"coverage"`
	// Baselines names the tags that make the Releases page (SPEC 4).
	Baselines BaselinesConfig `toml:"baselines"`
	Markers   MarkersConfig   `toml:"markers"`
	// Project is the slug of code:// URIs and the bundle's name (SPEC
	// 1.1); "" means the title's slug.
	Project string `toml:"project"`
	// Externals are the other repositories whose bundles this one links
	// into (SPEC 1.8).
	Externals []ExternalConfig `toml:"externals"`
}

// MarkersConfig is the [markers] table: which syntaxes of links declared
// in code comments are read (SPEC 1.6).
type MarkersConfig struct {
	// Formats are the marker formats read ([codeanchors.MarkerFormats]);
	// nil means all of them, an empty list none.
	Formats []string `toml:"formats"`
}

// CoverageConfig is the [coverage] table: code coverage by requirements
// (SPEC 1.7).
type BaselinesConfig struct {
	// Tags is a glob over the repository's tag names ("v*"): each
	// matching tag is a baseline, compared with the one before it (by
	// tag date, then name). "" makes no Releases page.
	Tags string `toml:"tags"`
}

// CoverageConfig is the [coverage] table.
type CoverageConfig struct {
	// Exclude holds doublestar globs over workspace paths: the code files
	// they match are left out of the count (generated code, fixtures).
	Exclude []string `toml:"exclude"`
	// Min is the covered share (0 to 1) below which check --fail-on
	// coverage fails; zero sets no minimum.
	Min float64 `toml:"min"`
	// Waivers justify a code file's gaps ([[coverage.waivers]]): the lock
	// stamps the file's hash when a build or capture first sees one.
	Waivers []CoverageWaiver `toml:"waivers"`
}

// EvidenceConfig is the [evidence] table.
type EvidenceConfig struct {
	// Keep bounds the evidence entries the lock keeps per requirement: the
	// newest decides, the older ones are history (SPEC 1.5), and the
	// oldest beyond Keep are dropped when the lock is written. Zero means
	// [DefaultEvidenceKeep]; a value set must be a positive integer.
	Keep int `toml:"keep"`
}

// DefaultEvidenceKeep is the evidence entries kept per requirement when
// the config does not say.
const DefaultEvidenceKeep = 20

// Kept is the evidence entries the lock keeps per requirement: Keep, or
// its default in a zero config.
func (c EvidenceConfig) Kept() int {
	if c.Keep < 1 {
		return DefaultEvidenceKeep
	}
	return c.Keep
}

// CodeConfig selects the source files of the code index, by doublestar
// globs relative to the root. A nil slice means the default.
type CodeConfig struct {
	Include []string `toml:"include"`
	Exclude []string `toml:"exclude"`
}

// Defaults of SPEC 1.1. The default include has one glob per extension of
// the registered languages ([codeanchors.Registry.Globs]), so a new
// language is indexed without a config change; the default exclude ends
// with the build folders the languages name ([codeanchors.Registry.Excludes]:
// Cargo's target/).
var (
	defaultInclude = codeanchors.Default.Globs()
	defaultExclude = append([]string{"**/vendor/**", "**/node_modules/**", "**/testdata/**", "public/**", ".git/**"}, codeanchors.Default.Excludes()...)
)

// DefaultInclude is the default [code] include: a glob per extension of
// the registered languages.
func DefaultInclude() []string { return slices.Clone(defaultInclude) }

// DefaultExclude is the default [code] exclude: vendored, generated and
// build folders, the default output and .git.
func DefaultExclude() []string { return slices.Clone(defaultExclude) }

// ExternalConfig is one [[externals]] entry: another repository's
// published bundle, by the name links give it.
type ExternalConfig struct {
	Name string `toml:"name"`
	// Bundle is the bundle file's path inside the workspace (CI downloads
	// it there; the build never touches the network).
	Bundle string `toml:"bundle"`
	// URL is the external's published wiki ("" when not given).
	URL string `toml:"url"`
}

// checkExternals reports every bad [[externals]] entry: a name that is
// not a slug or is used twice, a bundle path outside the workspace, a URL
// that is not http(s).
func (c Config) checkExternals(name string, data []byte) []error {
	var errs []error
	line := keyLine(data, toml.Key{"externals"})
	seen := map[string]bool{}
	for i, e := range c.Externals {
		at := fmt.Sprintf("%s:%d: externals[%d]", name, line, i)
		switch {
		case !claims.ValidExternalName(e.Name):
			errs = append(errs, fmt.Errorf("%s: name %q: want lower-case letters, digits and '-' (the prefix of its links, payments:REQ-7)", at, e.Name))
		case seen[e.Name]:
			errs = append(errs, fmt.Errorf("%s: name %q is declared twice", at, e.Name))
		}
		seen[e.Name] = true
		if !Local(e.Bundle) {
			errs = append(errs, fmt.Errorf("%s: bundle %q must be a relative path inside the workspace", at, e.Bundle))
		}
		if e.URL != "" {
			if err := CheckBaseURL(e.URL); err != nil || !strings.HasPrefix(e.URL, "http://") && !strings.HasPrefix(e.URL, "https://") {
				errs = append(errs, fmt.Errorf("%s: url %q: want the http(s) URL of its published wiki", at, e.URL))
			}
		}
	}
	return errs
}

// tomlTypeError matches the decoder's error for a value of the wrong type
// (keep = "all"), which it words as text, not as a [toml.ParseError]:
// the line, the key and the message.
var tomlTypeError = regexp.MustCompile(`^toml: line (\d+) \(last key "([^"]*)"\): (.*)$`)

// ParseConfig decodes tracewiki.toml and fills in defaults. folder is the
// workspace folder's name, the default title. Unknown keys and bad values
// are errors of the form "tracewiki.toml:LINE: message", all of them.
func ParseConfig(name string, data []byte, folder string) (Config, error) {
	var c Config
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&c)
	if err != nil {
		var perr toml.ParseError
		if errors.As(err, &perr) {
			return Config{}, fmt.Errorf("%s:%d: %s", name, perr.Position.Line, perr.Message)
		}
		if m := tomlTypeError.FindStringSubmatch(err.Error()); m != nil {
			return Config{}, fmt.Errorf("%s:%s: %s: %s", name, m[1], m[2], m[3])
		}
		return Config{}, fmt.Errorf("%s: %v", name, err)
	}
	var errs []error
	for _, k := range md.Undecoded() {
		errs = append(errs, fmt.Errorf("%s:%d: unknown key %q", name, keyLine(data, k), k.String()))
	}
	if md.IsDefined("evidence", "keep") && c.Evidence.Keep < 1 {
		errs = append(errs, fmt.Errorf("%s:%d: evidence keep = %d: want a positive integer, the evidence entries kept per requirement", name, keyLine(data, toml.Key{"evidence", "keep"}), c.Evidence.Keep))
	}
	c.Fill(folder)
	if c.Language != "en" && c.Language != "es" {
		errs = append(errs, fmt.Errorf("%s:%d: language %q: want \"en\" or \"es\"", name, keyLine(data, toml.Key{"language"}), c.Language))
	}
	if err := CheckBaseURL(c.BaseURL); err != nil {
		errs = append(errs, fmt.Errorf("%s:%d: %v", name, keyLine(data, toml.Key{"baseURL"}), err))
	}
	for _, kv := range [][2]string{{"content", c.Content}, {"output", c.Output}, {"lock", c.Lock}} {
		key, v := kv[0], kv[1]
		if !Local(v) {
			errs = append(errs, fmt.Errorf("%s:%d: %s %q must be a relative path inside the workspace", name, keyLine(data, toml.Key{key}), key, v))
		}
	}
	if c.Output == "." || c.Output == c.Content {
		errs = append(errs, fmt.Errorf("%s:%d: output %q must be a folder of its own: a build replaces it", name, keyLine(data, toml.Key{"output"}), c.Output))
	}
	for _, g := range slices.Concat(c.Code.Include, c.Code.Exclude) {
		if !doublestar.ValidatePattern(g) {
			errs = append(errs, fmt.Errorf("%s:%d: bad glob %q", name, keyLine(data, toml.Key{"code", "include"}), g))
		}
	}
	for _, g := range c.Coverage.Exclude {
		if !doublestar.ValidatePattern(g) {
			errs = append(errs, fmt.Errorf("%s:%d: bad glob %q", name, keyLine(data, toml.Key{"coverage", "exclude"}), g))
		}
	}
	if c.Coverage.Min < 0 || c.Coverage.Min > 1 {
		errs = append(errs, fmt.Errorf("%s:%d: coverage min = %v: want a share from 0 to 1, such as 0.8", name, keyLine(data, toml.Key{"coverage", "min"}), c.Coverage.Min))
	}
	errs = append(errs, c.checkPolicy(name, data)...)
	errs = append(errs, c.checkExternals(name, data)...)
	for _, f := range c.Markers.Formats {
		if !slices.Contains(codeanchors.MarkerFormats, f) {
			errs = append(errs, fmt.Errorf("%s:%d: markers formats: unknown format %q: want some of %s", name, keyLine(data, toml.Key{"markers", "formats"}), f, strings.Join(codeanchors.MarkerFormats, ", ")))
		}
	}
	if err := c.checkForge(); err != nil {
		key := "forge"
		if c.Forge == "" {
			key = "repo_url"
		}
		errs = append(errs, fmt.Errorf("%s:%d: %v", name, keyLine(data, toml.Key{key}), err))
	}
	if err := errors.Join(errs...); err != nil {
		return Config{}, err
	}
	return c, nil
}

// Fill fills in the default of every zero field; folder is the workspace
// folder's name, the default title. [ParseConfig] calls it; serve fills a
// config it could not parse, to keep watching.
func (c *Config) Fill(folder string) {
	if c.Title == "" {
		c.Title = folder
	}
	if c.BaseURL == "" {
		c.BaseURL = "/"
	}
	if c.Language == "" {
		c.Language = "en"
	}
	if c.Content == "" {
		c.Content = "content"
	}
	if c.Output == "" {
		c.Output = "public"
	}
	if c.Lock == "" {
		c.Lock = "tracewiki.lock"
	}
	if c.Code.Include == nil {
		c.Code.Include = defaultInclude
	}
	if c.Code.Exclude == nil {
		c.Code.Exclude = defaultExclude
	}
	if c.Evidence.Keep == 0 {
		c.Evidence.Keep = DefaultEvidenceKeep
	}
	if c.Markers.Formats == nil {
		c.Markers.Formats = codeanchors.MarkerFormats
	}
	c.Content = path.Clean(c.Content)
	c.Output = path.Clean(c.Output)
	c.Lock = path.Clean(c.Lock)
	for i := range c.Externals {
		if c.Externals[i].Bundle != "" {
			c.Externals[i].Bundle = path.Clean(c.Externals[i].Bundle)
		}
	}
}

// CheckBaseURL accepts a base URL that is an http or https URL with a host,
// or a path ("/", "/pr-42/"): the JSON artifacts turn it into link URLs
// that bots and UIs follow, so a javascript: or data: URL must not pass.
func CheckBaseURL(u string) error {
	bad := func(why string) error {
		return fmt.Errorf("baseURL %q: %s; want an http(s) URL or a path such as /docs/", u, why)
	}
	if strings.ContainsFunc(u, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return bad("it holds spaces or control characters")
	}
	parsed, err := url.Parse(u)
	if err != nil {
		return bad("not a URL")
	}
	switch {
	case parsed.Scheme == "http" || parsed.Scheme == "https":
		if parsed.Host == "" {
			return bad("no host")
		}
	case parsed.Scheme != "":
		return bad("scheme " + parsed.Scheme + ": is not allowed")
	case parsed.Host != "" || strings.HasPrefix(u, "//"):
		return bad("a URL without a scheme")
	}
	return nil
}

// Slug is the config's project (else its title) as used in code:// URIs
// and as the bundle's name: lower case, runs of anything but letters and
// digits turned into one '-'.
func (c Config) Slug() string { return claims.Slug(cmp.Or(c.Project, c.Title), "repo") }

// Local reports whether the slash path p is relative and stays inside the
// workspace root.
func Local(p string) bool {
	return p != "" && !path.IsAbs(p) && p != ".." && !strings.HasPrefix(p, "../")
}

// keyLine finds the line of a TOML key, for messages: the line that assigns
// the key's last part inside its table. It returns 1 when it cannot tell.
func keyLine(data []byte, k toml.Key) int {
	table, leaf := "", k[len(k)-1]
	if len(k) > 1 {
		table = strings.Join(k[:len(k)-1], ".")
	}
	cur := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			cur = strings.Trim(line, "[] ")
			if cur == strings.Join(k, ".") {
				return n
			}
			continue
		}
		name, _, ok := strings.Cut(line, "=")
		if ok && cur == table && strings.Trim(strings.TrimSpace(name), `"'`) == leaf {
			return n
		}
	}
	return 1
}

// Forges by the host of a repository URL, when the config names none.
var forgeHosts = map[string]string{
	"github.com": "github", "gitlab.com": "gitlab", "gitea.com": "gitea", "codeberg.org": "gitea",
}

// checkForge validates repo_url and forge, and fills in the forge from the
// host when it is not given.
func (c *Config) checkForge() error {
	switch c.Forge {
	case "", "github", "gitlab", "gitea":
	default:
		return fmt.Errorf("forge %q: want \"github\", \"gitlab\" or \"gitea\"", c.Forge)
	}
	if c.RepoURL == "" {
		return nil
	}
	u, err := url.Parse(c.RepoURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("repo_url %q: want the repository's http(s) URL, like https://github.com/acme/shop", c.RepoURL)
	}
	c.RepoURL = strings.TrimSuffix(strings.TrimSuffix(c.RepoURL, "/"), ".git")
	if c.Forge == "" {
		c.Forge = forgeHosts[strings.ToLower(u.Hostname())]
		if c.Forge == "" {
			return fmt.Errorf("repo_url %q: cannot tell its forge from the host; set forge = \"github\", \"gitlab\" or \"gitea\"", c.RepoURL)
		}
	}
	return nil
}
