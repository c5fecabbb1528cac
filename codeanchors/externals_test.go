package codeanchors

import (
	"strings"
	"testing"

	"github.com/tracewiki/tracewiki/claims"
)

// paymentsBundle is an external whose Charge symbol hashes to hash and
// whose requirement REQ-7 is at revision rev.
func paymentsBundle(hash, rev string) Externals {
	return Externals{"payments": {
		Name: "payments", Sum: BundleSum([]byte(hash + rev)), Revision: "c0ffee",
		Code:         map[string]ExternalCode{"src/charge.go@Charge": {Start: 3, End: 9, Hash: hash, TokenHash: hash + "-tok", BodyHash: "b"}},
		Files:        map[string]bool{"src/charge.go": true},
		Requirements: map[string]ExternalRequirement{"REQ-7": {Revision: rev, Verified: true}},
	}}
}

func TestCheckWithExternals(t *testing.T) {
	m, diags := claims.Parse("content", []claims.File{{Name: "content/requirements/SW-1.md",
		Data: []byte("---\nid: SW-1\nparent: [payments:REQ-7]\nimplements: [payments:src/charge.go@Charge, payments:src/charge.go@Refund, payments:src/gone.go@X]\n---\nBody.\n")}})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	x := paymentsBundle("h1", "r1")
	l := NewLock()
	// Capture the one that exists, and pin the bundle and the parent link.
	charge, _ := claims.ParseTarget("payments:src/charge.go@Charge")
	a, err := x.CaptureExternal(charge, x.Resolve(charge), "2026-01-01T00:00:00Z", "")
	if err != nil {
		t.Fatal(err)
	}
	l.Anchors[charge.String()] = a
	l.PinExternal(x["payments"], "2026-01-01T00:00:00Z", "")
	l.StampParent("SW-1", "payments:REQ-7", ParentLink{Revision: "r1", ReviewedAt: "2026-01-01T00:00:00Z"})
	// The lock with an external's anchor and pin reads back.
	data, err := l.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if l, err = ParseLock("tracewiki.lock", data); err != nil {
		t.Fatalf("the lock does not read back: %v\n%s", err, data)
	}

	states := func(x Externals) map[string]string {
		rep := CheckWith(m, Targets(m), l, nil, x)
		out := map[string]string{}
		for _, ts := range rep.Targets {
			out[ts.Target.String()] = string(ts.Verdict.State) + " " + string(ts.Verdict.Reason)
		}
		for _, ps := range rep.Parents {
			out[ps.Parent] = string(ps.Verdict.State) + " " + string(ps.Verdict.Reason)
		}
		for _, es := range rep.Externals {
			out[es.Ref()] = string(es.Verdict.State) + " " + string(es.Verdict.Reason)
		}
		if len(rep.Requirements) == 1 {
			out["implemented"] = map[bool]string{true: "yes", false: "no"}[rep.Requirements[0].Implemented]
		}
		return out
	}
	want := func(got map[string]string, key, state string) {
		t.Helper()
		if strings.TrimSpace(got[key]) != state {
			t.Errorf("%s = %q, want %q", key, got[key], state)
		}
	}
	got := states(x)
	want(got, "payments:src/charge.go@Charge", "linked")
	want(got, "payments:src/charge.go@Refund", "stale symbol_not_found") // never captured: the symbol does not exist in the bundle
	want(got, "payments:REQ-7", "linked")
	want(got, "external:payments", "linked")
	want(got, "implemented", "yes")

	// The other repository's code and requirement changed: a new bundle.
	got = states(paymentsBundle("h2", "r2"))
	want(got, "payments:src/charge.go@Charge", "stale content_changed")
	want(got, "payments:REQ-7", "stale parent_changed")
	want(got, "external:payments", "unknown external_changed")
	want(got, "implemented", "no")

	// The symbol vanished from the bundle.
	gone := paymentsBundle("h1", "r1")
	delete(gone["payments"].Code, "src/charge.go@Charge")
	got = states(gone)
	want(got, "payments:src/charge.go@Charge", "stale symbol_not_found")

	// The bundle cannot be read: its links are target_missing.
	got = states(Externals{"payments": {Name: "payments", Err: "no such file"}})
	want(got, "payments:src/charge.go@Charge", "unknown target_missing")
	want(got, "payments:REQ-7", "unknown target_missing")
	want(got, "external:payments", "unknown target_missing")
	want(got, "payments:src/gone.go@X", "unknown target_missing")
}

func TestJudgeExternalsUnpinned(t *testing.T) {
	st := JudgeExternals(paymentsBundle("h", "r"), NewLock())
	if len(st) != 1 || st[0].Verdict.Reason != Uncaptured {
		t.Fatalf("unpinned external: %+v", st)
	}
	if u := Unsettled(st); len(u) != 1 || !strings.Contains(u[0], "not pinned") {
		t.Errorf("Unsettled = %q", u)
	}
	if ExternalChanged.Why("es") != "el paquete del otro repositorio cambió desde que se fijó" || ExternalChanged.State() != Unknown {
		t.Error("external_changed is not in the reason table as SPEC 2 says")
	}
}

func TestLockRejectsBadExternalPin(t *testing.T) {
	_, err := ParseLock("tracewiki.lock", []byte(`{"anchors":{},"evidence":[],"externals":{"payments":{"pinned_at":"x","revision":"","sha256":"md5:1"}},"schemaVersion":1}`))
	if err == nil || !strings.Contains(err.Error(), `external "payments": no sha256`) {
		t.Errorf("err = %v", err)
	}
}
