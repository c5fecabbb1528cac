package claims

import "testing"

func TestParseExternalTarget(t *testing.T) {
	for _, tc := range []struct {
		in, external, local string
	}{
		{"payments:src/charge.go@Charge", "payments", "src/charge.go@Charge"},
		{"code:payments:src/charge.go", "payments", "src/charge.go"},
		{"platform-2:a/b.py#L3-L9", "platform-2", "a/b.py#L3-L9"},
		{"src/charge.go@Charge", "", "src/charge.go@Charge"},
		{"Payments:x.go", "", "Payments:x.go"}, // not a name: a local path with a colon
	} {
		got, err := ParseTarget(tc.in)
		if err != nil {
			t.Fatalf("ParseTarget(%q): %v", tc.in, err)
		}
		if got.External != tc.external || got.Local().String() != tc.local {
			t.Errorf("ParseTarget(%q) = %q + %q, want %q + %q", tc.in, got.External, got.Local(), tc.external, tc.local)
		}
		back, err := ParseTarget(got.String())
		if err != nil || back != got {
			t.Errorf("ParseTarget(%q) does not round-trip: %v %v", got.String(), back, err)
		}
	}
	if got, _ := ParseTarget("payments:src/charge.go@Charge"); got.URI("shop") != "code://payments/src/charge.go#symbol-Charge" {
		t.Errorf("URI = %q", got.URI("shop"))
	}
	for _, bad := range []string{"payments:src/", "payments:other:x.go"} {
		if _, err := ParseTarget(bad); err == nil {
			t.Errorf("ParseTarget(%q) accepted", bad)
		}
	}
}

func TestExternalParentAndRefs(t *testing.T) {
	m, diags := Parse("content", []File{
		{Name: "content/requirements/SW-1.md", Data: []byte("---\nid: SW-1\nparent: [platform:SYS-12]\nimplements: [payments:src/charge.go@Charge]\n---\nBody.\n")},
		{Name: "content/guide.md", Data: []byte("# Guide\n\nCharging is done by Charge ([code](code:payments:src/charge.go@Charge)).\n")},
	})
	if len(diags) > 0 {
		t.Fatalf("diags: %v", diags)
	}
	refs := m.ExternalRefs()
	var names []string
	for _, r := range refs {
		names = append(names, r.Name+"@"+r.Pos.File)
	}
	want := []string{"payments@content/requirements/SW-1.md", "platform@content/requirements/SW-1.md", "payments@content/guide.md"}
	if len(names) != len(want) {
		t.Fatalf("ExternalRefs = %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Errorf("ExternalRefs[%d] = %s, want %s", i, names[i], want[i])
		}
	}
	if _, diags := Parse("content", []File{{Name: "content/requirements/SW-1.md", Data: []byte("---\nparent: [Platform:SYS-12]\n---\nBody.\n")}}); len(diags) == 0 {
		t.Error("a parent with a bad external name was accepted")
	}
}
