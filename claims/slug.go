package claims

import "strings"

// Slug makes s a name safe in a code:// URI and as a folder: lower case
// letters and digits, each run of anything else one '-', none at the
// ends; fallback when nothing is left. A project's name (SPEC 1.3) and an
// imported document's folder are both made by it.
func Slug(s, fallback string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	if b.Len() == 0 {
		return fallback
	}
	return b.String()
}
