package claims

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Revision returns the revision of a requirement with the given title and
// body: "sha256:" + the lowercase hex SHA-256 of the normalized title, two
// newlines, and the normalized body. The title is normalized by trimming
// white space ([strings.TrimSpace]); the body by turning each CRLF into LF,
// stripping trailing spaces and tabs from each line, and dropping leading
// and trailing empty lines (the lines are joined by LF, with no final LF).
// So a change of line endings or trailing white space keeps the revision,
// and a change of any word makes a new one.
func Revision(title string, body []byte) string {
	h := sha256.New()
	h.Write([]byte(strings.TrimSpace(title)))
	h.Write([]byte("\n\n"))
	h.Write(normalizeBody(body))
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// normalizeBody applies the body normalization of [Revision].
func normalizeBody(body []byte) []byte {
	lines := bytes.Split(bytes.ReplaceAll(body, []byte("\r\n"), []byte("\n")), []byte("\n"))
	for i, l := range lines {
		lines[i] = bytes.TrimRight(l, " \t")
	}
	for len(lines) > 0 && len(lines[0]) == 0 {
		lines = lines[1:]
	}
	for len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return bytes.Join(lines, []byte("\n"))
}
