package synth

import (
	"fmt"
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors"
)

// GitHubAnnotations renders the findings that are not linked as
// GitHub Actions workflow commands, one line each, which the runner shows
// as annotations on the pull request:
//
//	::warning file=PATH,line=N,endLine=M,title=tracewiki%3A REASON::MESSAGE
//
// Stale links are warnings, unknown ones notices. Each is located as in
// [NewSARIF]; the message adds every place the link is written. Linked
// links print nothing.
func GitHubAnnotations(fs *Findings) string {
	var b strings.Builder
	for _, f := range fs.Problems() {
		cmd := "notice"
		if f.Verdict.State == codeanchors.Stale {
			cmd = "warning"
		}
		var props []string
		if f.At.Path != "" {
			props = append(props, "file="+escapeProperty(f.At.Path))
			if f.At.Start > 0 {
				props = append(props, fmt.Sprintf("line=%d", f.At.Start))
			}
			if f.At.End > f.At.Start {
				props = append(props, fmt.Sprintf("endLine=%d", f.At.End))
			}
		}
		props = append(props, "title="+escapeProperty("tracewiki: "+string(f.Verdict.Reason)))
		msg := f.message(fs.Lang)
		for _, w := range f.Written {
			msg += fmt.Sprintf("\n%s:%d: %s", w.Path, w.Start, w.says())
		}
		fmt.Fprintf(&b, "::%s %s::%s\n", cmd, strings.Join(props, ","), escapeData(msg))
	}
	if fs.Policy != nil {
		for _, e := range fs.Policy.Entries {
			if !e.Problem() {
				continue
			}
			props := []string{"file=" + escapeProperty(e.At.Path), fmt.Sprintf("line=%d", max(e.At.Start, 1)),
				"title=" + escapeProperty("tracewiki: policy "+e.Rule)}
			fmt.Fprintf(&b, "::warning %s::%s\n", strings.Join(props, ","), escapeData(e.message()))
		}
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
