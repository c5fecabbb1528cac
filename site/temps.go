package site

import (
	"fmt"
	"io"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/tracewiki/tracewiki/site/output"
	"github.com/tracewiki/tracewiki/site/workspace"
)

// contentTemp reports whether a file's base name is exactly a temporary
// file of a content file, which relink and import write through
// [workspace.Workspace.WriteFile] (PAGE.md.tmp-PID, where PAGE.md is content), and
// returns the PID. Such a file is never content itself: its extension is
// not one ([workspace.ContentName]).
func contentTemp(base string) (int, bool) {
	i := strings.LastIndex(base, workspace.TempSuffix)
	if i < 0 || !workspace.ContentName(base[:i]) || !digits(base[i+len(workspace.TempSuffix):]) {
		return 0, false
	}
	pid, err := strconv.Atoi(base[i+len(workspace.TempSuffix):])
	return pid, err == nil
}

// removeContentTemps removes the temporary files that killed relink and
// import runs left in the content folder (the walk of the content found
// them), saying so on notes: only those of processes that are gone, so a
// relink running beside this one keeps its file. relink, import and a
// build that may write the lock call it first; a read-only command leaves
// them (they are invisible to it), and so does a build that finds its
// output up to date, which reads no folder.
func (p *Project) removeContentTemps(notes io.Writer) {
	for _, name := range p.temps {
		pid, _ := contentTemp(path.Base(name))
		if pid == os.Getpid() || output.ProcessAlive(pid) {
			continue
		}
		if err := p.WS.Remove(name); err == nil {
			fmt.Fprintf(notes, "tracewiki: removed %s, left by a run that was killed\n", name)
			p.WS.Unsure() // the next build would not say so again: no up-to-date record
		}
	}
	p.temps = nil
}

// digits reports whether s is one or more ASCII digits.
func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}
