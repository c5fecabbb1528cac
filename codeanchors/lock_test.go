package codeanchors

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// goodLock is a valid lock with one anchor, written as the writer writes it.
const goodLock = `{
  "anchors": {
    "a.go@A": {
      "captured_at": "2026-01-01T00:00:00Z",
      "captured_text": "func A() {}\n",
      "end": 3,
      "hash": "sha256:00",
      "parser": "go/ast@1",
      "path": "a.go",
      "start": 3,
      "symbol": "A",
      "token_hash": "sha256:11"
    }
  },
  "evidence": [],
  "schemaVersion": 1
}
`

// TestParseLockCorrupt checks that every corruption a bad merge or a hand
// edit makes is refused with the line it is on, wrapping ErrCorruptLock.
func TestParseLockCorrupt(t *testing.T) {
	for _, c := range []struct{ name, old, new, want string }{
		{"duplicate anchor", `"anchors": {`, `"anchors": {
    "a.go@A": {"captured_at": "x", "captured_text": "", "end": 3, "hash": "h", "parser": "p", "path": "a.go", "start": 3, "token_hash": "t"},`,
			`lock:4: corrupt lock file: anchor "a.go@A" repeated (a merge that kept both sides? keep one)`},
		{"duplicate top-level key", `"schemaVersion": 1`, `"schemaVersion": 1,
  "schemaVersion": 1`, `lock:17: corrupt lock file: key "schemaVersion" repeated`},
		{"upper-case key", `"anchors"`, `"ANCHORS"`, `lock:2: corrupt lock file: unknown key "ANCHORS" (keys are case-sensitive)`},
		{"mixed-case key", `"schemaVersion"`, `"SchemaVersion"`, `lock:16: corrupt lock file: unknown key "SchemaVersion"`},
		{"field in another case", `"hash"`, `"Hash"`, `lock:7: corrupt lock file: anchor "a.go@A": unknown key "Hash"`},
		{"negative start", `"start": 3`, `"start": -5`, `lock:3: corrupt lock file: anchor "a.go@A": lines -5-3 are impossible`},
		{"start after end", `"start": 3`, `"start": 9`, `lock:3: corrupt lock file: anchor "a.go@A": lines 9-3 are impossible`},
		{"huge end", `"end": 3`, `"end": 4611686018427387904`, `lines 3-4611686018427387904 are impossible`},
		{"float line", `"end": 3`, `"end": 1e300`, `lock:6: corrupt lock file:`},
		{"string line", `"start": 3`, `"start": "7"`, `lock:10: corrupt lock file: anchor "a.go@A": start: `},
		{"path outside", `"path": "a.go"`, `"path": "../../etc/passwd"`, `anchor "a.go@A": path "../../etc/passwd" is not a clean path inside the workspace`},
		{"path of another file", `"path": "a.go"`, `"path": "b.go"`, `anchor "a.go@A": its path is "b.go"`},
		{"unknown key", `"evidence": []`, `"evidence": [], "extra": 1`, `lock:15: corrupt lock file: unknown key "extra"`},
		{"trailing data", "}\n", "}\n{}", `corrupt lock file`},
		{"truncated", goodLock, goodLock[:120], `lock:6: corrupt lock file:`},
		{"no version", `"schemaVersion": 1`, `"x_": 1`, `corrupt lock file`},
		{"BOM", goodLock, "\ufeff" + goodLock, `lock:1: corrupt lock file`},
		{"parent key without arrow", `"evidence": []`, `"evidence": [], "parents": {"SW-1": {"revision": "sha256:00", "reviewed_at": "x"}}`, `parent link "SW-1": the key is not CHILD->PARENT`},
		{"parent without revision", `"evidence": []`, `"evidence": [], "parents": {"SW-1->SYS-1": {"reviewed_at": "x"}}`, `parent link "SW-1->SYS-1": no revision`},
		{"duplicate parent link", `"evidence": []`, `"evidence": [], "parents": {"A->B": {"revision": "r", "reviewed_at": "x"}, "A->B": {"revision": "r", "reviewed_at": "x"}}`, `parent link "A->B" repeated`},
		// A key is named as the ref it is, never as a JSON pointer
		// (/anchors/auth~1login.go@Login).
		{"duplicate anchor in a folder", `"anchors": {`, `"anchors": {
    "auth/login.go@Login": {"path": "auth/login.go", "start": 1, "end": 1},
    "auth/login.go@Login": {"path": "auth/login.go", "start": 1, "end": 1},`,
			`lock:4: corrupt lock file: anchor "auth/login.go@Login" repeated (a merge that kept both sides? keep one)`},
		{"unknown key of an anchor in a folder", `"anchors": {`, `"anchors": {
    "a~b/x.go@F": {"path": "a~b/x.go", "start": 1, "end": 1, "Hash": "h"},`,
			`lock:3: corrupt lock file: anchor "a~b/x.go@F": unknown key "Hash" (keys are case-sensitive)`},
		{"unknown key of an evidence test", `"evidence": []`, `"evidence": [{"req": "R", "run": "r"}, {"req": "S", "tests": [{"target": "t", "nme": "x"}]}]`,
			`lock:15: corrupt lock file: evidence entry 2, test 1: unknown key "nme" (keys are case-sensitive)`},
		{"parent revision of another type", `"evidence": []`, `"evidence": [], "parents": {"A->B": {"revision": 3}}`,
			`lock:15: corrupt lock file: parent link "A->B": revision: `},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := strings.Replace(goodLock, c.old, c.new, 1)
			if c.name == "trailing data" {
				data = goodLock + "{}"
			}
			if data == goodLock {
				t.Fatalf("the case changes nothing")
			}
			_, err := ParseLock("lock", []byte(data))
			if err == nil || !errors.Is(err, ErrCorruptLock) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ParseLock = %v, want a corrupt-lock error containing %q", err, c.want)
			}
			if err != nil && strings.Contains(err.Error(), "/anchors/") {
				t.Errorf("ParseLock = %v, names a key as a JSON pointer", err)
			}
		})
	}
}

// TestParseLockValid checks what the reader must accept: the writer's own
// output, an anchor of an empty file (lines 1-0), and an empty file.
func TestParseLockValid(t *testing.T) {
	for _, data := range []string{
		goodLock,
		strings.Replace(strings.Replace(goodLock, `"end": 3`, `"end": 0`, 1), `"start": 3`, `"start": 1`, 1),
		strings.Replace(goodLock, `"evidence": []`, `"evidence": [], "parents": {"SW-1->SYS-1": {"revision": "sha256:00", "reviewed_at": "2026-01-01T00:00:00Z", "reviewed_by": "ann"}}`, 1),
		"", " \n",
	} {
		l, err := ParseLock("lock", []byte(data))
		if err != nil {
			t.Fatalf("ParseLock(%.40q): %v", data, err)
		}
		if _, err := l.Marshal(); err != nil {
			t.Fatal(err)
		}
	}
	newer := strings.Replace(goodLock, `"schemaVersion": 1`, `"schemaVersion": 99, "future": true`, 1)
	if _, err := ParseLock("lock", []byte(newer)); err == nil || errors.Is(err, ErrCorruptLock) || !strings.Contains(err.Error(), "upgrade") {
		t.Errorf("a newer lock: %v, want an upgrade error that is not corruption", err)
	}
}

// TestLockRoundTripLarge checks that a lock far over the 16 MiB source-file
// limit, as 1,100 long captures make, reads back after it is written.
func TestLockRoundTripLarge(t *testing.T) {
	l := NewLock()
	line := strings.Repeat("x", 60) + "\n"
	text := strings.Repeat(line, MaxCapturedLines)
	for i := range 1100 {
		ref := fmt.Sprintf("src/f%04d.go@F", i)
		l.Anchors[ref] = Anchor{CapturedAt: "2026-01-01T00:00:00Z", CapturedText: text, Start: 1, End: 480,
			Hash: "sha256:00", TokenHash: "sha256:11", Parser: "go/ast@1", Path: strings.TrimSuffix(ref, "@F"), Symbol: "F"}
	}
	data, err := l.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 24<<20 {
		t.Fatalf("the lock is %d bytes; the test wants one over 24 MiB", len(data))
	}
	back, err := ParseLock("lock", data)
	if err != nil {
		t.Fatalf("a %d-byte lock does not read back: %v", len(data), err)
	}
	again, err := back.Marshal()
	if err != nil || !bytes.Equal(again, data) {
		t.Errorf("the lock changed on a round trip (err %v)", err)
	}
}

// FuzzParseLock checks that the lock reader never panics, and that whatever
// it accepts, the writer writes and the reader reads back unchanged.
func FuzzParseLock(f *testing.F) {
	f.Add([]byte(goodLock))
	f.Add([]byte(`{"anchors": {}, "evidence": [], "schemaVersion": 1}`))
	f.Add([]byte(`{"anchors": {"a@b": {"path": "a", "start": 1, "end": 0}}, "evidence": [{"req": "R", "run": "r", "tests": [{"name": "T", "outcome": "pass", "target": "t"}]}], "schemaVersion": 1}`))
	f.Add([]byte(`{"anchors": {"a": {}, "a": {}}, "schemaVersion": 1}`))
	f.Add([]byte(`{"anchors": {}, "evidence": [], "parents": {"A->B": {"revision": "sha256:00", "reviewed_at": "t"}}, "schemaVersion": 1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParseLock("lock", data)
		if err != nil {
			return
		}
		out, err := l.Marshal()
		if err != nil {
			t.Fatalf("Marshal of an accepted lock: %v", err)
		}
		back, err := ParseLock("lock", out)
		if err != nil {
			t.Fatalf("the writer's output does not read back: %v\n%s", err, out)
		}
		again, err := back.Marshal()
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("a round trip changed the lock (err %v):\n%s\n---\n%s", err, out, again)
		}
	})
}
