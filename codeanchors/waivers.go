package codeanchors

import (
	"strings"

	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// WaiverStamp is what the lock records of a policy waiver (SPEC 1.4, 1.7):
// the hash of what it justified when it was stamped (the requirement's
// revision, or a code file's hash), who stamped it and when. Once that
// hash differs from the current one, the waiver has expired.
type WaiverStamp struct {
	At   string `json:"at"` // RFC 3339, UTC
	By   string `json:"by,omitempty"`
	Hash string `json:"hash"`
}

// WaiverKey is the lock key of the waiver of rule by subject, a
// requirement id or a code path: "REQ-1#needs-tests". Rule names hold no
// '#', so the last one splits the key.
func WaiverKey(subject, rule string) string { return subject + "#" + rule }

// StampWaiver records that the waiver keyed key justified what hashed to
// stamp.Hash.
func (l *Lock) StampWaiver(key string, stamp WaiverStamp) {
	if l.Waivers == nil {
		l.Waivers = map[string]WaiverStamp{}
	}
	l.Waivers[key] = stamp
}

// invalid says what is impossible in a waiver stamp keyed key, or "".
func (w WaiverStamp) invalid(key string) string {
	i := strings.LastIndexByte(key, '#')
	switch {
	case i <= 0 || i == len(key)-1:
		return "the key is not SUBJECT#RULE"
	case w.Hash == "":
		return "no hash"
	case w.At == "":
		return "no at"
	}
	return ""
}

// FileHash is the text hash of a whole file, as a whole-file anchor's
// hash: what a coverage waiver of the file justified.
func FileHash(data []byte) string {
	lines := lang.Lines(data)
	return lang.HashLines(lines, 1, len(lines))
}
