package workspace

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/codeanchors"
)

// TestLargeLockReadsBack writes a lock of over 24 MiB, more than any source
// file may have, as long captures of many functions make, and checks that
// check (Read) and capture (Update) still read it.
func TestLargeLockReadsBack(t *testing.T) {
	dir := t.TempDir()
	l := codeanchors.NewLock()
	text := strings.Repeat(strings.Repeat("y", 150)+"\n", codeanchors.MaxCapturedLines)
	for i := range 420 {
		p := fmt.Sprintf("src/f%03d.go", i)
		l.Anchors[p+"@F"] = codeanchors.Anchor{CapturedAt: "2026-01-01T00:00:00Z", CapturedText: text, Start: 1, End: 480,
			Hash: "sha256:00", TokenHash: "sha256:11", Parser: "go/ast@1", Path: p, Symbol: "F"}
	}
	data, err := l.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if len(data) <= 24<<20 {
		t.Fatalf("the lock is %d bytes; the test wants more than 24 MiB", len(data))
	}
	if err := os.WriteFile(filepath.Join(dir, "tracewiki.lock"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	p := NewLockfile(ws, "tracewiki.lock", DefaultEvidenceKeep)
	got, err := p.Read()
	if err != nil {
		t.Fatalf("Read of a %d-byte lock: %v", len(data), err)
	}
	if len(got.Anchors) != 420 {
		t.Errorf("read %d anchors, want 420", len(got.Anchors))
	}
	err = p.Update(io.Discard, func(l *codeanchors.Lock) error {
		delete(l.Anchors, "src/f000.go@F")
		return nil
	})
	if err != nil {
		t.Fatalf("Update of a %d-byte lock: %v", len(data), err)
	}
	if got, err = p.Read(); err != nil {
		t.Fatal(err)
	} else if len(got.Anchors) != 419 {
		t.Errorf("after the update: %d anchors, want 419", len(got.Anchors))
	}
}

// TestOversizedLockRecoverable checks that a lock over MaxLockBytes (a
// sparse file here) is refused by readers with the command that recovers,
// and that capture keeps it aside and starts a new lock.
func TestOversizedLockRecoverable(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "tracewiki.lock")
	if err := os.WriteFile(name, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(name, codeanchors.MaxLockBytes+1); err != nil {
		t.Fatal(err)
	}
	ws, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	p := NewLockfile(ws, "tracewiki.lock", DefaultEvidenceKeep)
	_, err = p.Read()
	if err == nil || !strings.Contains(err.Error(), "more than the 268435456 bytes a lock may have") || !strings.Contains(err.Error(), `run "tracewiki capture" to keep it aside`) {
		t.Fatalf("Read = %v, want the size and the way out", err)
	}
	// Update (review, relink, import, build) refuses it as it is.
	if err := p.Update(io.Discard, func(*codeanchors.Lock) error { return nil }); err == nil || !strings.Contains(err.Error(), "more than the 268435456 bytes") {
		t.Fatalf("Update = %v, want the corrupt lock refused", err)
	}
	if st, err := os.Stat(name); err != nil || st.Size() != codeanchors.MaxLockBytes+1 {
		t.Fatalf("Update touched the corrupt lock: %v %v", st, err)
	}
	var notes strings.Builder
	if err := p.Renew(&notes, func(*codeanchors.Lock) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(notes.String(), "kept the corrupt lock aside as tracewiki.lock.corrupt-") {
		t.Errorf("notes %q do not say the lock was kept aside", notes.String())
	}
	if _, err := p.Read(); err != nil {
		t.Errorf("after capture the lock still does not read: %v", err)
	}
}
