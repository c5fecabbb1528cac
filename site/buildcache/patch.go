package buildcache

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/tracewiki/tracewiki/site/output"
)

// A patch updates the output folder in place, for a build that changed a
// few of its files: the changed files, written into the swap folder, are
// renamed into the output one by one, and the files they replace (and
// those no longer part of the site) are renamed into the swap folder, so
// that every step can be undone. Swapping in a whole new folder instead
// costs a link for every unchanged file and the removal of the old folder:
// for one edited page of an 11,000-page site, 22,000 links and 33,000
// removals, most of the build's time.
//
// Before the first rename the swap folder gets a journal, the list of
// steps. A patch that fails is undone before Commit returns; one that a
// kill interrupts is undone by the next build ([output.Folder.Begin] calls
// [UndoLeftPatch]), from the
// journal and what is still in the swap folder. So a failed build never
// changes the output; only a reader of the folder during the few
// milliseconds of the renames can see some pages new and others old.
type patch struct {
	Dirs []string  // folders made in the output, parents first
	Ops  []patchOp // in order
}

// A patchOp is one step of a patch on the output file Name (slash path):
//   - "add": the swap folder's Name is renamed into the output;
//   - "replace": the output's Name is renamed to the backup (.backup/I in
//     the swap folder, I the step's index), then the new one into place;
//   - "delete": the output's Name is renamed to the backup.
type patchOp struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// Journal names in the swap folder: written before the first step, renamed
// to done after the last.
const (
	patchJournal = ".journal"
	patchDone    = ".done"
	patchBackups = ".backup"
)

// maxPatch is the most files a patch replaces, adds or deletes in an
// output of files: an eighth of them, or patchFloor in a small site. A
// build that changes more swaps in a whole new folder, which readers never
// see half done.
func maxPatch(files int) int { return max(patchFloor, files/8) }

// patchFloor is the most files a patch changes in a small site.
const patchFloor = 64

// patchOutput applies the files written into the swap folder of sw
// (written) and the removal of deleted to the output folder out in place.
// prevDirs are the output's folders before; dirs those after. When a step
// fails the patch is undone and the error returned; the swap folder is
// removed either way.
func patchOutput(sw *output.Swap, out string, written, deleted []string, prevDirs, dirs map[string]bool) error {
	defer sw.Abort()
	w := patcher{dir: sw.Dir(), out: out}
	pt := patch{}
	for d := range dirs {
		if !prevDirs[d] {
			pt.Dirs = append(pt.Dirs, d)
		}
	}
	slices.Sort(pt.Dirs) // parents first
	for _, name := range deleted {
		pt.Ops = append(pt.Ops, patchOp{name, "delete"})
	}
	for _, name := range written {
		kind := "add"
		if _, err := os.Lstat(w.outPath(name)); err == nil {
			kind = "replace"
		}
		pt.Ops = append(pt.Ops, patchOp{name, kind})
	}
	data, err := json.Marshal(pt)
	if err != nil {
		return err
	}
	if err := os.Mkdir(filepath.Join(w.dir, patchBackups), 0o755); err != nil {
		return fmt.Errorf("write site: %w", err)
	}
	tmp := filepath.Join(w.dir, patchJournal+".tmp")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("write site: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(w.dir, patchJournal)); err != nil {
		return fmt.Errorf("write site: %w", err)
	}
	if err := w.apply(pt); err != nil {
		if uerr := w.undo(pt); uerr != nil {
			return fmt.Errorf("write site: %w; undoing the update: %v (the output may be incomplete)", err, uerr)
		}
		return fmt.Errorf("write site: %w (the output is as it was)", err)
	}
	if err := os.Rename(filepath.Join(w.dir, patchJournal), filepath.Join(w.dir, patchDone)); err != nil {
		return fmt.Errorf("write site: %w", err)
	}
	// Folders no file is in any more, deepest first; one that is not
	// empty (it cannot be, the output was intact) stays.
	var gone []string
	for d := range prevDirs {
		if !dirs[d] {
			gone = append(gone, d)
		}
	}
	slices.Sort(gone)
	for _, d := range slices.Backward(gone) {
		os.Remove(w.outPath(d))
	}
	return nil
}

// patcher is a patch under way: dir is the swap folder, out the output.
type patcher struct{ dir, out string }

func (w patcher) outPath(name string) string {
	return filepath.Join(w.out, filepath.FromSlash(name))
}

func (w patcher) backup(i int) string {
	return filepath.Join(w.dir, patchBackups, strconv.Itoa(i))
}

// PatchHook, when set (by tests), is called at each step i of the n of a
// patch: "before" it, and "between" the renames of a replacement; an
// error fails the step.
var PatchHook func(at string, i, n int) error

func (w patcher) apply(pt patch) error {
	for _, d := range pt.Dirs {
		if err := os.Mkdir(w.outPath(d), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	for i, op := range pt.Ops {
		if PatchHook != nil {
			if err := PatchHook("before", i, len(pt.Ops)); err != nil {
				return err
			}
		}
		if op.Kind != "add" {
			if err := os.Rename(w.outPath(op.Name), w.backup(i)); err != nil {
				return err
			}
		}
		if PatchHook != nil && op.Kind == "replace" {
			if err := PatchHook("between", i, len(pt.Ops)); err != nil {
				return err
			}
		}
		if op.Kind != "delete" {
			if err := os.Rename(filepath.Join(w.dir, filepath.FromSlash(op.Name)), w.outPath(op.Name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// undo takes back the steps of pt that were done, last first, telling
// from the swap folder which: a backup that exists was taken, a new file
// that no longer does was renamed into the output. It goes on past a step
// it cannot undo and returns the first error.
func (w patcher) undo(pt patch) error {
	var first error
	keep := func(err error) {
		if first == nil && err != nil && !errors.Is(err, fs.ErrNotExist) {
			first = err
		}
	}
	for i, op := range slices.Backward(pt.Ops) {
		_, berr := os.Lstat(w.backup(i))
		backedUp := berr == nil
		_, nerr := os.Lstat(filepath.Join(w.dir, filepath.FromSlash(op.Name)))
		movedIn := op.Kind != "delete" && errors.Is(nerr, fs.ErrNotExist)
		switch {
		case backedUp:
			keep(os.Rename(w.backup(i), w.outPath(op.Name))) // over the new file, if it moved in
		case op.Kind == "add" && movedIn:
			keep(os.Remove(w.outPath(op.Name)))
		}
	}
	for _, d := range slices.Backward(pt.Dirs) {
		os.Remove(w.outPath(d)) // only when empty
	}
	return first
}

// UndoLeftPatch undoes the patch of the output folder out that a killed
// build left in its swap folder dir, if it had one under way; it reports
// whether it undid one. It is the [output.Undo] of every build.
func UndoLeftPatch(out, dir string) (bool, error) {
	data, err := os.ReadFile(filepath.Join(dir, patchJournal))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil // none, or done
	}
	if err != nil {
		return false, err
	}
	var pt patch
	if err := json.Unmarshal(data, &pt); err != nil {
		return false, fmt.Errorf("%s: %w", filepath.Join(dir, patchJournal), err)
	}
	return true, patcher{dir: dir, out: out}.undo(pt)
}
