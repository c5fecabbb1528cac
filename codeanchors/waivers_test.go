package codeanchors

import (
	"strings"
	"testing"
)

// TestLockWaiversRoundTrip: the reader accepts the waiver stamps the
// writer writes, unchanged, and a lock without waivers has no waivers key
// (the locks of workspaces without waivers keep their bytes).
func TestLockWaiversRoundTrip(t *testing.T) {
	l := NewLock()
	plain, err := l.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(plain), "waivers") {
		t.Errorf("a lock without waivers writes a waivers key:\n%s", plain)
	}
	l.StampWaiver(WaiverKey("REQ-1", "needs-tests"), WaiverStamp{Hash: "sha256:ab", At: "2026-12-01T00:00:00Z", By: "carol"})
	l.StampWaiver(WaiverKey("src/a#b.go", "uncovered"), WaiverStamp{Hash: "sha256:cd", At: "2026-12-01T00:00:00Z"})
	data, err := l.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseLock("lock", data)
	if err != nil {
		t.Fatalf("ParseLock of what Marshal wrote: %v\n%s", err, data)
	}
	again, err := back.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(data) {
		t.Errorf("round trip changed the lock:\n%s\nwant\n%s", again, data)
	}
	if got := back.Waivers["src/a#b.go#uncovered"]; got.Hash != "sha256:cd" {
		t.Errorf("a path holding '#' keys its waiver by the last '#': got %+v", got)
	}
}

// TestLockWaiversCorrupt: a waiver stamp that cannot be is corrupt, and
// the message names the waiver and its line.
func TestLockWaiversCorrupt(t *testing.T) {
	for _, c := range []struct{ name, waivers, want string }{
		{"no rule", `{"REQ-1": {"at": "x", "hash": "h"}}`, `lock:2: corrupt lock file: waiver "REQ-1": the key is not SUBJECT#RULE`},
		{"empty rule", `{"REQ-1#": {"at": "x", "hash": "h"}}`, `waiver "REQ-1#": the key is not SUBJECT#RULE`},
		{"no hash", `{"REQ-1#r": {"at": "x"}}`, `lock:2: corrupt lock file: waiver "REQ-1#r": no hash`},
		{"no at", `{"REQ-1#r": {"hash": "h"}}`, `waiver "REQ-1#r": no at`},
		{"unknown key", `{"REQ-1#r": {"at": "x", "hash": "h", "revision": "h"}}`, `waiver "REQ-1#r": unknown key "revision"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := "{\"anchors\": {}, \"evidence\": [], \"schemaVersion\": 1,\n\"waivers\": " + c.waivers + "}\n"
			_, err := ParseLock("lock", []byte(data))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ParseLock: %v, want %q", err, c.want)
			}
		})
	}
}
