package claims

import "testing"

// Ids admit '~' so that OpenFastTrace's type~name~revision ids are kept as
// they are (SPEC 1.2); the rest of the rule stands.
func TestValidID(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want bool
	}{
		{"REQ-3", true},
		{"0001-use-go", true},
		{"dsn~login~1", true},
		{"req.sub_2", true},
		{"~dsn", false}, // an id starts with a letter or digit
		{"-REQ", false},
		{"REQ 3", false},
		{"REQ/3", false},
		{"ÄREQ", false},
		{"", false},
		{string(make([]byte, maxIDLen+1)), false},
	} {
		if got := validID(tc.id); got != tc.want {
			t.Errorf("validID(%q) = %v, want %v", tc.id, got, tc.want)
		}
	}
}

func TestSlug(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Acme Shop", "acme-shop"},
		{"  --Payments/API v2!", "payments-api-v2"},
		{"ÄÖ", "x"},
		{"", "x"},
	} {
		if got := Slug(tc.in, "x"); got != tc.want {
			t.Errorf("Slug(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
