package synth

import (
	"fmt"
	"strings"

	"github.com/tracewiki/tracewiki/claims"
	"github.com/tracewiki/tracewiki/codeanchors"
)

// GitHubAnnotations renders the stale and unknown links of a check report as
// GitHub Actions workflow commands, one line each, which the runner shows
// as annotations on the pull request:
//
//	::warning file=PATH,line=N,endLine=M,title=tracewiki%3A REASON::MESSAGE
//
// Stale links are warnings, unknown ones notices. Each is located as in
// [NewSARIF]; the message adds every place the link is written. Linked
// links print nothing.
func GitHubAnnotations(c *CheckReport, m *claims.Model, lock string) string {
	var b strings.Builder
	for _, f := range findingsOf(c, m, lock) {
		cmd := "notice"
		if f.State == string(codeanchors.Stale) {
			cmd = "warning"
		}
		var props []string
		if f.at.Path != "" {
			props = append(props, "file="+escapeProperty(f.at.Path))
			if f.at.Start > 0 {
				props = append(props, fmt.Sprintf("line=%d", f.at.Start))
			}
			if f.at.End > f.at.Start {
				props = append(props, fmt.Sprintf("endLine=%d", f.at.End))
			}
		}
		props = append(props, "title="+escapeProperty("tracewiki: "+f.Reason))
		msg := f.message()
		for _, w := range f.written {
			msg += fmt.Sprintf("\n%s:%d: %s", w.Path, w.Start, w.says())
		}
		fmt.Fprintf(&b, "::%s %s::%s\n", cmd, strings.Join(props, ","), escapeData(msg))
	}
	return b.String()
}

// escapeData escapes a workflow command's message the way the Actions
// toolkit does (actions/toolkit command.ts escapeData).
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value: as data, and
// also the ':' and ',' that would end the value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
