package synth

import (
	"fmt"
	"strings"
)

// Text is the changelog for a terminal: a summary line, then each
// section that has entries, a changed requirement with its fields and
// its diff indented.
func (c *Changelog) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "changelog %s..%s: %s\n", c.Base, c.Head, c.summary())
	section := func(title string, n int) bool {
		if n > 0 {
			fmt.Fprintf(&b, "\n%s (%d):\n", title, n)
		}
		return n > 0
	}
	if section("added", len(c.Added)) {
		for _, r := range c.Added {
			fmt.Fprintf(&b, "  + %s  %s\n", r.ID, r.Title)
		}
	}
	if section("removed", len(c.Removed)) {
		for _, r := range c.Removed {
			fmt.Fprintf(&b, "  - %s  %s\n", r.ID, r.Title)
		}
	}
	if section("changed", len(c.Changed)) {
		for _, r := range c.Changed {
			fmt.Fprintf(&b, "  ~ %s  %s  [%s]\n", r.ID, r.Title, strings.Join(r.Fields, ", "))
			for line := range strings.SplitSeq(strings.TrimSuffix(r.Diff, "\n"), "\n") {
				if line != "" {
					fmt.Fprintf(&b, "      %s\n", line)
				}
			}
		}
	}
	c.linksText(&b, section, "parents", c.Parents)
	c.linksText(&b, section, "links", c.Links)
	if section("verification", len(c.Verification)) {
		for _, v := range c.Verification {
			fmt.Fprintf(&b, "  %s: %s -> %s (%s)\n", v.ID, v.From, v.To, v.Why)
		}
	}
	if p := c.Policy; p != nil {
		fmt.Fprintf(&b, "\npolicy: %d -> %d problems\n", p.Base, p.Head)
		for _, e := range p.New {
			fmt.Fprintf(&b, "  + %s %s: %s (%s)\n", e.ID, e.Rule, e.State, e.Why)
		}
		for _, e := range p.Resolved {
			fmt.Fprintf(&b, "  - %s %s: resolved\n", e.ID, e.Rule)
		}
	}
	if cv := c.Coverage; cv != nil {
		fmt.Fprintf(&b, "\ncoverage: %s -> %s\n", cv.Base, cv.Head)
	}
	return b.String()
}

// linksText writes a section of links added and removed.
func (c *Changelog) linksText(b *strings.Builder, section func(string, int) bool, title string, ls []ChangedLinks) {
	if !section(title, len(ls)) {
		return
	}
	for _, l := range ls {
		for _, s := range l.Added {
			fmt.Fprintf(b, "  %s: + %s\n", l.ID, s)
		}
		for _, s := range l.Removed {
			fmt.Fprintf(b, "  %s: - %s\n", l.ID, s)
		}
	}
}

// summary counts the changelog's entries.
func (c *Changelog) summary() string {
	if c.Empty() {
		return "no change in the requirements"
	}
	return fmt.Sprintf("%d added, %d removed, %d changed, %d parent change%s, %d link change%s, %d verification change%s",
		len(c.Added), len(c.Removed), len(c.Changed), len(c.Parents), pluralS(len(c.Parents)),
		len(c.Links), pluralS(len(c.Links)), len(c.Verification), pluralS(len(c.Verification)))
}

// Markdown is the changelog as a release note or a PR comment: a heading
// per section, a diff block per changed requirement.
func (c *Changelog) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Requirements changelog `%s`..`%s`\n\n%s.\n", mdCode(c.Base), mdCode(c.Head), c.summary())
	section := func(title string, n int) bool {
		if n > 0 {
			fmt.Fprintf(&b, "\n### %s (%d)\n\n", title, n)
		}
		return n > 0
	}
	if section("Added", len(c.Added)) {
		for _, r := range c.Added {
			fmt.Fprintf(&b, "- **%s** %s\n", mdText(r.ID), mdText(r.Title))
		}
	}
	if section("Removed", len(c.Removed)) {
		for _, r := range c.Removed {
			fmt.Fprintf(&b, "- **%s** %s\n", mdText(r.ID), mdText(r.Title))
		}
	}
	if section("Changed", len(c.Changed)) {
		for _, r := range c.Changed {
			fmt.Fprintf(&b, "- **%s** %s (%s)\n", mdText(r.ID), mdText(r.Title), strings.Join(r.Fields, ", "))
			if r.Diff != "" {
				fence := mdFence(r.Diff)
				fmt.Fprintf(&b, "\n  %sdiff\n", fence)
				for line := range strings.SplitSeq(strings.TrimSuffix(r.Diff, "\n"), "\n") {
					fmt.Fprintf(&b, "  %s\n", line)
				}
				fmt.Fprintf(&b, "  %s\n\n", fence)
			}
		}
	}
	for _, s := range []struct {
		title string
		ls    []ChangedLinks
	}{{"Parents", c.Parents}, {"Links", c.Links}} {
		if section(s.title, len(s.ls)) {
			for _, l := range s.ls {
				for _, x := range l.Added {
					fmt.Fprintf(&b, "- **%s** added `%s`\n", mdText(l.ID), mdCode(x))
				}
				for _, x := range l.Removed {
					fmt.Fprintf(&b, "- **%s** removed `%s`\n", mdText(l.ID), mdCode(x))
				}
			}
		}
	}
	if section("Verification", len(c.Verification)) {
		for _, v := range c.Verification {
			fmt.Fprintf(&b, "- **%s** %s → %s: %s\n", mdText(v.ID), v.From, v.To, mdText(v.Why))
		}
	}
	if p := c.Policy; p != nil {
		fmt.Fprintf(&b, "\n### Policy\n\n%d → %d problems.\n", p.Base, p.Head)
		for _, e := range p.New {
			fmt.Fprintf(&b, "- new: **%s** `%s` %s: %s\n", mdText(e.ID), mdCode(e.Rule), e.State, mdText(e.Why))
		}
		for _, e := range p.Resolved {
			fmt.Fprintf(&b, "- resolved: **%s** `%s`\n", mdText(e.ID), mdCode(e.Rule))
		}
	}
	if cv := c.Coverage; cv != nil {
		fmt.Fprintf(&b, "\n### Coverage\n\n%s → %s\n", cv.Base, cv.Head)
	}
	return b.String()
}

// mdText escapes the characters that Markdown would read as markup in
// a line of text.
func mdText(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "<", "&lt;", "|", `\|`, "\n", " ")
	return r.Replace(s)
}

// mdCode keeps a code span's text from closing the span.
func mdCode(s string) string { return strings.ReplaceAll(s, "`", "'") }

// mdFence is a code fence longer than any run of backticks in s.
func mdFence(s string) string {
	fence := "```"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence
}
