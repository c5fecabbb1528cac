package output

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// Swap is a site being written: files go into Dir, a new folder beside the
// output, which [Swap.Commit] swaps in whole, or which an in-place update
// (site's patch) moves into the output file by file. Until then the output
// is untouched; [Swap.Abort] removes the new folder.
//
// The folders a swap makes beside OUT are named .OUT.new-PID-N and
// .OUT.old-PID. A run killed halfway leaves them behind; the next
// [Folder.Begin] removes them once their process is gone, and when the kill
// came between the two renames of a swap (no OUT, a .OUT.old-PID), it puts
// the old site back first.
type Swap struct {
	out *Folder
	dir string
}

// Undo undoes the in-place update of the output folder out that a killed
// build left under way in its swap folder dir, if any, before
// [Folder.Begin] removes that folder; it reports whether it undid one. The
// update (site's patch) keeps its journal in the swap folder, so only it
// can read it.
type Undo func(out, dir string) (undone bool, err error)

// Begin cleans up what killed runs left beside the output, undoing their
// in-place updates with undo (nil when there are none to undo), and makes
// the new, empty folder the site is written into. notes receives what was
// restored.
func (o *Folder) Begin(notes func(string), undo Undo) (*Swap, error) {
	parent, base := filepath.Split(o.Dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("write site: %w", err)
	}
	if err := o.recover(notes, undo); err != nil {
		return nil, fmt.Errorf("write site: %w", err)
	}
	dir, err := os.MkdirTemp(parent, "."+base+".new-"+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return nil, fmt.Errorf("write site: %w", err)
	}
	return &Swap{out: o, dir: dir}, nil
}

// Dir is the new folder to write the site into.
func (w *Swap) Dir() string { return w.dir }

// Abort removes the new folder; the output stays as it was.
func (w *Swap) Abort() { removeTree(w.dir) }

// swapHook, when set (by tests), is called at each step of a swap: after
// "exchanged", or between the two renames with "between".
var swapHook func(step string)

// exchange swaps two paths atomically; it is replaced in tests to take the
// two-rename path. It returns errNoExchange where the system cannot.
var exchange = exchangePaths

var errNoExchange = errors.New("atomic exchange not supported")

// Commit swaps the new folder in. Where the system can, the new and the old
// folder are exchanged in one step, so there is never a moment without a
// site; elsewhere the old folder is renamed aside first, and a kill between
// the two renames is repaired by the next run (see [Swap]). The old site is
// then removed. The output is checked once more: it must still be missing,
// empty or a site.
func (w *Swap) Commit() error {
	if err := os.Chmod(w.dir, 0o755); err != nil {
		w.Abort()
		return fmt.Errorf("write site: %w", err)
	}
	dst := w.out.Dir
	st, err := os.Lstat(dst)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(w.dir, dst); err != nil {
			w.Abort()
			return fmt.Errorf("write site: %w", err)
		}
		return nil
	}
	if err == nil && !st.IsDir() {
		err = errors.New("exists and is not a folder")
	} else if err == nil {
		err = Replaceable(dst)
	}
	if err != nil {
		w.Abort()
		return fmt.Errorf("output %s: %v; %w", w.out.Name, err, ErrNotOwned)
	}
	err = exchange(w.dir, dst)
	if err == nil {
		if swapHook != nil {
			swapHook("exchanged")
		}
		removeTree(w.dir) // the old site now
		return nil
	}
	if !errors.Is(err, errNoExchange) {
		w.Abort()
		return fmt.Errorf("write site: %w", err)
	}
	parent, base := filepath.Split(dst)
	old := filepath.Join(parent, "."+base+".old-"+strconv.Itoa(os.Getpid()))
	if err := os.Rename(dst, old); err != nil {
		w.Abort()
		return fmt.Errorf("write site: %w", err)
	}
	if swapHook != nil {
		swapHook("between")
	}
	if err := os.Rename(w.dir, dst); err != nil {
		os.Rename(old, dst)
		w.Abort()
		return fmt.Errorf("write site: %w", err)
	}
	removeTree(old)
	return nil
}

// removeTree removes the folder dir and everything in it, the folders two
// levels down on GOMAXPROCS goroutines: an old site is tens of thousands of
// files, each unlinked by the kernel on its own: on one goroutine that was
// a seventh of a one-page rebuild's CPU time at 11,000 pages, all of it at
// the end, on one core.
func removeTree(dir string) {
	var subs []string
	top, _ := os.ReadDir(dir)
	for _, e := range top {
		if !e.IsDir() {
			continue
		}
		es, _ := os.ReadDir(filepath.Join(dir, e.Name()))
		for _, e2 := range es {
			if e2.IsDir() {
				subs = append(subs, filepath.Join(dir, e.Name(), e2.Name()))
			}
		}
	}
	next := make(chan string)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(subs)) {
		wg.Go(func() {
			for sub := range next {
				os.RemoveAll(sub)
			}
		})
	}
	for _, sub := range subs {
		next <- sub
	}
	close(next)
	wg.Wait()
	os.RemoveAll(dir)
}

// swapName reports whether name is a folder that a swap of the output
// folder named base makes beside it, .BASE.new-PID-N or .BASE.old-PID, and
// returns its kind ("new" or "old") and what follows it.
func swapName(base, name string) (kind, id string, ok bool) {
	rest, ok := strings.CutPrefix(name, "."+base+".")
	if !ok {
		return "", "", false
	}
	kind, id, ok = strings.Cut(rest, "-")
	if !ok || kind != "new" && kind != "old" {
		return "", "", false
	}
	return kind, id, true
}

// IsSwapOf reports whether name is a folder that a swap of the output
// folder named base makes beside it: .BASE.new-PID-N or .BASE.old-PID.
func IsSwapOf(base, name string) bool {
	_, _, ok := swapName(base, name)
	return ok
}

// IsSwapFolder reports whether name is a folder a swap of any output makes
// beside it (see [IsSwapOf]): .OUT.new-PID-N or .OUT.old-PID, with PID and
// N digits. Walks of the workspace never enter one: a killed build's
// half-written site, which has no api/manifest.json yet to tell it a site,
// must not become source code of a build into another output.
func IsSwapFolder(name string) bool {
	for _, kind := range []string{".new-", ".old-"} {
		i := strings.LastIndex(name, kind)
		if i < 2 || name[0] != '.' {
			continue
		}
		k, id, ok := swapName(name[1:i], name)
		pid, n, two := strings.Cut(id, "-")
		if ok && digits(pid) && (k == "new" && two && digits(n) || k == "old" && !two) {
			return true
		}
	}
	return false
}

// digits reports whether s is one or more ASCII digits.
func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// recover repairs and removes what killed runs left beside the output:
// .OUT.old-PID is put back when OUT is missing (a kill between the renames
// of a swap), else removed; .OUT.new-PID-N is removed, after undoing the
// in-place update it holds the journal of, if any, with undo (see [Undo]).
// Only leftovers of processes that are gone are touched: a build running
// beside this one keeps its folders.
func (o *Folder) recover(notes func(string), undo Undo) error {
	parent, base := filepath.Split(o.Dir)
	entries, err := os.ReadDir(parent)
	if err != nil {
		return err
	}
	var news []string
	for _, e := range entries {
		name := e.Name()
		kind, id, ok := swapName(base, name)
		if !e.IsDir() || !ok {
			continue
		}
		pid, err := strconv.Atoi(strings.SplitN(id, "-", 2)[0])
		if err != nil || pid == os.Getpid() || ProcessAlive(pid) {
			continue
		}
		full := filepath.Join(parent, name)
		if kind == "new" {
			news = append(news, full)
			continue
		}
		if _, err := os.Lstat(o.Dir); errors.Is(err, fs.ErrNotExist) {
			if err := os.Rename(full, o.Dir); err != nil {
				return err
			}
			if notes != nil {
				notes(fmt.Sprintf("restored %s from %s, left by a build that was killed while swapping it", o.Name, name))
			}
			continue
		}
		if err := os.RemoveAll(full); err != nil {
			return err
		}
	}
	for _, full := range news {
		undone := false
		if undo != nil {
			if undone, err = undo(o.Dir, full); err != nil {
				return err
			}
		}
		if undone && notes != nil {
			notes(fmt.Sprintf("undid the update of %s that a killed build left half done in %s", o.Name, filepath.Base(full)))
		}
		if err := os.RemoveAll(full); err != nil {
			return err
		}
	}
	return nil
}

// Lock waits until no other build writes the output, and returns the
// release. It locks the output's parent folder, made first if need be.
func (o *Folder) Lock() (func(), error) {
	parent := filepath.Dir(o.Dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("write site: %w", err)
	}
	unlock, err := lockFolder(parent)
	if err != nil {
		return nil, fmt.Errorf("write site: locking %s: %w", parent, err)
	}
	return unlock, nil
}
