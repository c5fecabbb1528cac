package site

import (
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tracewiki/tracewiki/site/output"
)

// tempSuffix joins a file's name and the id of the process that writes it
// in the temporary file [Project.writeAtomic] renames over it:
// NAME.tmp-PID. relink and import write content files so; a run killed
// between the two steps leaves the temporary file behind.
const tempSuffix = ".tmp-"

// tempName is the temporary file the process writes name through.
func tempName(name string) string {
	return name + tempSuffix + strconv.Itoa(os.Getpid())
}

// contentTemp reports whether a file's base name is exactly a temporary
// file of a content file (PAGE.md.tmp-PID, where PAGE.md is content), and
// returns the PID. Such a file is never content itself: its extension is
// not one ([contentName]).
func contentTemp(base string) (int, bool) {
	i := strings.LastIndex(base, tempSuffix)
	if i < 0 || !contentName(base[:i]) || !digits(base[i+len(tempSuffix):]) {
		return 0, false
	}
	pid, err := strconv.Atoi(base[i+len(tempSuffix):])
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
		if err := p.WS.root.Remove(filepath.FromSlash(name)); err == nil {
			fmt.Fprintf(notes, "tracewiki: removed %s, left by a run that was killed\n", name)
			if p.WS.stamps != nil {
				p.WS.stamps.unsure() // the next build would not say so again: no up-to-date record
			}
		}
	}
	p.temps = nil
}

// digits reports whether s is one or more ASCII digits.
func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}
