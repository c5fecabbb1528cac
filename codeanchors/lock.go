package codeanchors

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// LockSchemaVersion is the version of the lock file format this tracewiki
// writes. A lock with a newer version is refused, never rewritten.
const LockSchemaVersion = 1

// MaxCapturedLines caps the captured text kept per anchor, for the drift diff.
const MaxCapturedLines = 400

// Lock is the lock file: the anchors captured for code targets and the test
// evidence recorded for requirements. Its JSON has sorted keys and a stable
// order, so it diffs well in review.
type Lock struct {
	Anchors map[string]Anchor `json:"anchors"` // keyed by target ref, PATH@SYMBOL
	// Evidence is sorted by requirement, then run.
	Evidence      []Evidence `json:"evidence"`
	SchemaVersion int        `json:"schemaVersion"`
}

// Anchor is a captured code target: where it was, what it hashed to, which
// parser found it, and who vouched for it when. Fields are in key order.
type Anchor struct {
	CapturedAt   string `json:"captured_at"` // RFC 3339, UTC
	CapturedBy   string `json:"captured_by,omitempty"`
	CapturedText string `json:"captured_text"` // the range's lines, at most MaxCapturedLines
	End          int    `json:"end"`
	Hash         string `json:"hash"`
	Parser       string `json:"parser"` // "go/ast@1"; "text@1" for a file no parser claims
	Path         string `json:"path"`
	Start        int    `json:"start"`
	Symbol       string `json:"symbol,omitempty"`
	TextCapped   bool   `json:"text_capped,omitempty"` // CapturedText was cut at MaxCapturedLines
	TokenHash    string `json:"token_hash"`
}

// Evidence is one test run recorded for one requirement, against the
// requirement's revision at the time.
type Evidence struct {
	RecordedAt string         `json:"recorded_at"` // RFC 3339, UTC
	RecordedBy string         `json:"recorded_by,omitempty"`
	Req        string         `json:"req"`
	Revision   string         `json:"revision"`
	Run        string         `json:"run"`
	Tests      []EvidenceTest `json:"tests"` // sorted by target
	// TokenHashes holds the token hash of every implements and tests
	// target of the requirement when the run was recorded, keyed by ref:
	// the run vouches for that code, not for its successor. Targets not
	// found then have no entry. Absent in entries recorded before it existed.
	TokenHashes map[string]string `json:"token_hashes,omitempty"`
}

// EvidenceTest is the outcome of one linked test in a run.
type EvidenceTest struct {
	Name    string `json:"name"`    // as the report names it: "pkg/path.TestLogin"
	Outcome string `json:"outcome"` // pass, fail or skip
	Target  string `json:"target"`  // the requirement's tests target it matched
}

// Passed reports whether every test of e passed. A skipped test did not.
func (e Evidence) Passed() bool {
	for _, t := range e.Tests {
		if t.Outcome != OutcomePass {
			return false
		}
	}
	return len(e.Tests) > 0
}

// ErrCorruptLock is returned, wrapped, by [ParseLock] for a lock that is not
// valid lock JSON. Callers keep such a file aside instead of overwriting it.
var ErrCorruptLock = errors.New("corrupt lock file")

// NewLock returns an empty lock.
func NewLock() *Lock {
	return &Lock{Anchors: map[string]Anchor{}, SchemaVersion: LockSchemaVersion}
}

// ParseLock decodes a lock file. Empty data is an empty lock.
func ParseLock(name string, data []byte) (*Lock, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return NewLock(), nil
	}
	var l Lock
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrCorruptLock, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: %w: data after the lock object", name, ErrCorruptLock)
	}
	if l.SchemaVersion > LockSchemaVersion {
		return nil, fmt.Errorf("%s: schemaVersion %d is newer than this tracewiki understands (%d); upgrade tracewiki", name, l.SchemaVersion, LockSchemaVersion)
	}
	if l.SchemaVersion < 1 {
		return nil, fmt.Errorf("%s: %w: missing schemaVersion", name, ErrCorruptLock)
	}
	if l.Anchors == nil {
		l.Anchors = map[string]Anchor{}
	}
	return &l, nil
}

// Marshal encodes l with sorted keys, two-space indentation and a final
// newline. Evidence is sorted first, so the bytes depend only on the content.
func (l *Lock) Marshal() ([]byte, error) {
	l.sortEvidence()
	if l.Evidence == nil {
		l.Evidence = []Evidence{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(l); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// RecordEvidence adds e, replacing an entry for the same requirement and
// run. Entries of the requirement recorded against another revision are
// dropped: fresh evidence for the current revision supersedes expired
// evidence, so the drift report does not fill with history.
func (l *Lock) RecordEvidence(e Evidence) {
	l.Evidence = slices.DeleteFunc(l.Evidence, func(old Evidence) bool {
		return old.Req == e.Req && (old.Run == e.Run || old.Revision != e.Revision)
	})
	l.Evidence = append(l.Evidence, e)
	l.sortEvidence()
}

func (l *Lock) sortEvidence() {
	slices.SortStableFunc(l.Evidence, func(a, b Evidence) int {
		return cmp.Or(cmp.Compare(a.Req, b.Req), cmp.Compare(a.Run, b.Run))
	})
	for _, e := range l.Evidence {
		slices.SortStableFunc(e.Tests, func(a, b EvidenceTest) int {
			return cmp.Or(cmp.Compare(a.Target, b.Target), cmp.Compare(a.Name, b.Name))
		})
	}
}
