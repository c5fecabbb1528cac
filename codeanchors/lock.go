package codeanchors

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/tracewiki/tracewiki/claims"
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
	Evidence []Evidence `json:"evidence"`
	// Externals are the pins of the externals' bundles by name (SPEC
	// 1.8); absent from a lock that has none.
	Externals map[string]ExternalPin `json:"externals,omitempty"`
	// Parents are the review stamps of parent links, keyed by
	// [ParentKey] (CHILD->PARENT); absent from a lock that has none.
	Parents       map[string]ParentLink `json:"parents,omitempty"`
	SchemaVersion int                   `json:"schemaVersion"`
	// Waivers are the stamps of policy waivers, keyed by [WaiverKey]
	// (REQ-1#RULE or PATH#RULE); absent from a lock that has none.
	Waivers map[string]WaiverStamp `json:"waivers,omitempty"`
}

// ParentLink is the review stamp of one parent link: the parent's revision
// when the child was last reviewed against it, who reviewed and when. The
// link is suspect (parent_changed) once the parent's revision differs.
type ParentLink struct {
	Revision   string `json:"revision"`
	ReviewedAt string `json:"reviewed_at"` // RFC 3339, UTC
	ReviewedBy string `json:"reviewed_by,omitempty"`
}

// ParentKey is the lock key of the link from child to parent.
func ParentKey(child, parent string) string { return child + "->" + parent }

// StampParent records that child was reviewed against parent at revision.
func (l *Lock) StampParent(child, parent string, link ParentLink) {
	if l.Parents == nil {
		l.Parents = map[string]ParentLink{}
	}
	l.Parents[ParentKey(child, parent)] = link
}

// Anchor is a captured code target: where it was, what it hashed to, which
// parser found it, and who vouched for it when. Fields are in key order.
type Anchor struct {
	// BodyHash is a symbol's token hash with its own name masked
	// ([lang.HashBody]): a rename keeps it, so a lost symbol is found under
	// its new name (same_body). Empty for files and line ranges, and in
	// anchors captured before it existed (see [Anchor.Body]).
	BodyHash     string `json:"body_hash,omitempty"`
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

// MaxLockBytes caps the size of a lock file, read or written. [Lock.Marshal]
// refuses to produce a larger one, so the reader accepts every lock the
// writer can produce.
const MaxLockBytes = 256 << 20

// MaxLine bounds the line numbers of an anchor: a source file tracewiki
// reads (16 MiB at most) has fewer lines.
const MaxLine = 1 << 25

// NewLock returns an empty lock.
func NewLock() *Lock {
	return &Lock{Anchors: map[string]Anchor{}, SchemaVersion: LockSchemaVersion}
}

// ParseLock decodes a lock file. Empty data is an empty lock. It is strict:
// bad JSON, wrong types, unknown keys, keys repeated (a merge that kept both
// sides) or spelled in another case, an anchor whose key does not name its
// path and impossible line numbers are errors of the form
// "NAME:LINE: corrupt lock file: what is wrong", wrapping [ErrCorruptLock].
func ParseLock(name string, data []byte) (*Lock, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return NewLock(), nil
	}
	corrupt := func(offset int64, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %w: %s", name, lineAt(data, offset), ErrCorruptLock, fmt.Sprintf(format, args...))
	}
	// A newer lock may hold fields this version does not know: say so
	// before judging them.
	var version struct {
		SchemaVersion int `json:"schemaVersion"`
	}
	if jsonv2.Unmarshal(data, &version) == nil && version.SchemaVersion > LockSchemaVersion {
		return nil, fmt.Errorf("%s: schemaVersion %d is newer than this tracewiki understands (%d); upgrade tracewiki", name, version.SchemaVersion, LockSchemaVersion)
	}
	var l Lock
	if err := jsonv2.Unmarshal(data, &l, jsonv2.RejectUnknownMembers(true)); err != nil {
		return nil, corrupt(decodeOffset(err), "%s", decodeMessage(err))
	}
	if l.SchemaVersion < 1 {
		return nil, corrupt(0, "missing schemaVersion")
	}
	if l.Anchors == nil {
		l.Anchors = map[string]Anchor{}
	}
	for _, key := range slices.Sorted(maps.Keys(l.Anchors)) {
		if msg := l.Anchors[key].invalid(key); msg != "" {
			return nil, corrupt(keyOffset(data, key), "anchor %q: %s", key, msg)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(l.Parents)) {
		if msg := l.Parents[key].invalid(key); msg != "" {
			return nil, corrupt(keyOffset(data, key), "parent link %q: %s", key, msg)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(l.Waivers)) {
		if msg := l.Waivers[key].invalid(key); msg != "" {
			return nil, corrupt(keyOffset(data, key), "waiver %q: %s", key, msg)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(l.Externals)) {
		if msg := l.Externals[key].invalid(key); msg != "" {
			return nil, corrupt(keyOffset(data, key), "external %q: %s", key, msg)
		}
	}
	return &l, nil
}

// invalid says what is impossible in a parent link keyed key, or "".
func (p ParentLink) invalid(key string) string {
	child, parent, ok := strings.Cut(key, "->")
	switch {
	case !ok || child == "" || parent == "" || strings.Contains(parent, "->"):
		return "the key is not CHILD->PARENT"
	case p.Revision == "":
		return "no revision"
	case p.ReviewedAt == "":
		return "no reviewed_at"
	}
	return ""
}

// invalid says what is impossible in an anchor keyed key, or "".
func (a Anchor) invalid(key string) string {
	p := a.Path
	if _, local, ok := claims.CutExternal(key); ok && a.Parser == ExternalParser {
		key = local // an external's target, keyed NAME:PATH...
	}
	switch {
	case p == "" || path.IsAbs(p) || p != path.Clean(p) || p == ".." || strings.HasPrefix(p, "../") || strings.ContainsRune(p, '\\'):
		return fmt.Sprintf("path %q is not a clean path inside the workspace", p)
	case key != p && !strings.HasPrefix(key, p+"@") && !strings.HasPrefix(key, p+"#"):
		return fmt.Sprintf("its path is %q", p)
	case a.Start < 1 || a.End < a.Start-1 || a.End > MaxLine: // End is Start-1 for an empty file
		return fmt.Sprintf("lines %d-%d are impossible", a.Start, a.End)
	}
	return ""
}

// decodeOffset is the byte offset a JSON error points at, or 0.
func decodeOffset(err error) int64 {
	var sem *jsonv2.SemanticError
	var syn *jsontext.SyntacticError
	switch {
	case errors.As(err, &syn):
		return syn.ByteOffset
	case errors.As(err, &sem):
		return sem.ByteOffset
	}
	return 0
}

// decodeMessage says what a JSON error found, without the offset the line
// already gives, naming the lock's entries as a reader knows them (an
// anchor by its ref, "auth/login.go@Login"), never by a JSON pointer
// ("/anchors/auth~1login.go@Login").
func decodeMessage(err error) string {
	var syn *jsontext.SyntacticError
	if errors.As(err, &syn) && errors.Is(syn.Err, jsontext.ErrDuplicateName) {
		subject, key := pointerSubject(syn.JSONPointer)
		if key == "" {
			return subject + " repeated (a merge that kept both sides? keep one)"
		}
		return prefixed(subject, fmt.Sprintf("key %q repeated (a merge that kept both sides? keep one)", key))
	}
	var sem *jsonv2.SemanticError
	if errors.As(err, &sem) && errors.Is(sem.Err, jsonv2.ErrUnknownName) {
		subject, key := pointerSubject(sem.JSONPointer)
		return prefixed(subject, fmt.Sprintf("unknown key %q (keys are case-sensitive)", key))
	}
	msg := err.Error()
	if i := strings.LastIndex(msg, " after offset "); i > 0 {
		msg = msg[:i]
	}
	msg = strings.TrimPrefix(strings.TrimPrefix(msg, "jsontext: "), "json: ")
	var ptr jsontext.Pointer
	switch {
	case syn != nil:
		ptr = syn.JSONPointer
	case sem != nil:
		ptr = sem.JSONPointer
	}
	if i := strings.LastIndex(msg, ` within "`); i > 0 && ptr != "" {
		subject, key := pointerSubject(ptr)
		if key != "" {
			msg = key + ": " + msg[:i]
		} else {
			msg = msg[:i]
		}
		return prefixed(subject, msg)
	}
	return msg
}

// pointerSubject names the lock entry a JSON pointer is in the way a
// reader knows it: an anchor by its ref (`anchor "auth/login.go@Login"`),
// a parent link by its key, an evidence entry (and its test) by its
// 1-based number; key is the member path below that entry ("start"), or
// the whole path when it is in no entry ("schemaVersion").
func pointerSubject(p jsontext.Pointer) (subject, key string) {
	toks := slices.Collect(p.Tokens())
	nth := func(tok string) string {
		n, err := strconv.Atoi(tok)
		if err != nil {
			return strconv.Quote(tok)
		}
		return strconv.Itoa(n + 1)
	}
	if len(toks) >= 2 {
		switch toks[0] {
		case "anchors":
			subject = fmt.Sprintf("anchor %q", toks[1])
		case "parents":
			subject = fmt.Sprintf("parent link %q", toks[1])
		case "waivers":
			subject = fmt.Sprintf("waiver %q", toks[1])
		case "externals":
			subject = fmt.Sprintf("external %q", toks[1])
		case "evidence":
			subject = "evidence entry " + nth(toks[1])
			if len(toks) >= 4 && toks[2] == "tests" {
				subject += ", test " + nth(toks[3])
				toks = toks[2:]
			}
		}
		if subject != "" {
			toks = toks[2:]
		}
	}
	return subject, strings.Join(toks, "/")
}

// prefixed is msg about subject: "subject: msg", or msg alone.
func prefixed(subject, msg string) string {
	if subject == "" {
		return msg
	}
	return subject + ": " + msg
}

// keyOffset finds the member key in data, for messages; 0 when it cannot.
// Inside JSON strings quotes are escaped, so `"key":` only matches a key.
func keyOffset(data []byte, key string) int64 {
	quoted, err := json.Marshal(key)
	if err != nil {
		return 0
	}
	for i := 0; ; {
		j := bytes.Index(data[i:], quoted)
		if j < 0 {
			return 0
		}
		at := i + j
		rest := bytes.TrimLeft(data[at+len(quoted):], " \t\r\n")
		if len(rest) > 0 && rest[0] == ':' {
			return int64(at)
		}
		i = at + 1
	}
}

// lineAt is the 1-based line of a byte offset.
func lineAt(data []byte, offset int64) int {
	offset = min(max(offset, 0), int64(len(data)))
	return 1 + bytes.Count(data[:offset], []byte{'\n'})
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
	if buf.Len() > MaxLockBytes {
		return nil, fmt.Errorf("the lock would be %d bytes, more than the %d a lock may have; nothing was written: claim fewer or smaller ranges", buf.Len(), MaxLockBytes)
	}
	return buf.Bytes(), nil
}

// RecordEvidence adds e, replacing an entry for the same requirement and
// run. The requirement's older entries stay, as its history: only the
// newest is live ([NewestEvidence]); [Lock.KeepEvidence] bounds them.
func (l *Lock) RecordEvidence(e Evidence) {
	l.Evidence = slices.DeleteFunc(l.Evidence, func(old Evidence) bool {
		return old.Req == e.Req && old.Run == e.Run
	})
	l.Evidence = append(l.Evidence, e)
	l.sortEvidence()
}

// CompareRecorded orders evidence entries oldest first: by recorded time
// (RFC 3339 in UTC, so the strings sort as the times), then by run id.
// The last of a requirement's entries in this order is its newest.
func CompareRecorded(a, b Evidence) int {
	return cmp.Or(cmp.Compare(a.RecordedAt, b.RecordedAt), cmp.Compare(a.Run, b.Run))
}

// NewestEvidence returns each requirement's newest entry, by
// [CompareRecorded]: the one live entry, which alone decides whether the
// requirement is verified. Every other entry of the requirement is
// superseded by it. This is the only place that chooses it.
func NewestEvidence(entries []Evidence) map[string]Evidence {
	newest := map[string]Evidence{}
	for _, e := range entries {
		if n, seen := newest[e.Req]; !seen || CompareRecorded(e, n) > 0 {
			newest[e.Req] = e
		}
	}
	return newest
}

// KeepEvidence drops each requirement's oldest entries (by
// [CompareRecorded]) beyond the newest keep, and returns how many it
// dropped. keep < 1 keeps one: the newest entry is never dropped.
func (l *Lock) KeepEvidence(keep int) int {
	keep = max(keep, 1)
	per := map[string][]Evidence{}
	for _, e := range l.Evidence {
		per[e.Req] = append(per[e.Req], e)
	}
	drop := map[[2]string]bool{} // req, run
	for _, entries := range per {
		if len(entries) <= keep {
			continue
		}
		slices.SortStableFunc(entries, CompareRecorded)
		for _, e := range entries[:len(entries)-keep] {
			drop[[2]string{e.Req, e.Run}] = true
		}
	}
	if len(drop) == 0 {
		return 0
	}
	n := len(l.Evidence)
	l.Evidence = slices.DeleteFunc(l.Evidence, func(e Evidence) bool { return drop[[2]string{e.Req, e.Run}] })
	return n - len(l.Evidence)
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

// RestampLegacy rewrites, in the form new entries record, every revision
// in l that the legacy form of its requirement's current text gives: the
// evidence entries' and the parent links' (whose revision is the
// parent's). The text is the one that was recorded (the legacy form kept
// every line), so the entry stays what it was, and from now on a re-wrap
// of its paragraphs keeps it. It returns how many it rewrote. Only the
// commands whose purpose is to write the lock call it, never build.
func (l *Lock) RestampLegacy(m *claims.Model) int {
	revision := make(map[string]claims.Revisions, len(m.Requirements))
	for _, r := range m.Requirements {
		revision[r.ID] = r.Revisions()
	}
	legacy := func(id, recorded string) (string, bool) {
		v, ok := revision[id]
		return v.Current, ok && recorded == v.Legacy && recorded != v.Current
	}
	n := 0
	for i, e := range l.Evidence {
		if cur, ok := legacy(e.Req, e.Revision); ok {
			l.Evidence[i].Revision = cur
			n++
		}
	}
	for key, p := range l.Parents {
		_, parent, _ := strings.Cut(key, "->")
		if cur, ok := legacy(parent, p.Revision); ok {
			p.Revision = cur
			l.Parents[key] = p
			n++
		}
	}
	return n
}
