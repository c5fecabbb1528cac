package render

import (
	"strings"
	"sync"
	"testing"
)

// memStore is a FragmentStore in memory: what rendering writes to the
// build cache, without a disk.
type memStore struct {
	mu      sync.Mutex
	entries map[string][]byte // by stage and key
}

func (m *memStore) Get(stage string, key []byte) ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	data, ok := m.entries[stage+"/"+string(key)]
	return data, ok
}

func (m *memStore) Put(stage string, key, payload []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries[stage+"/"+string(key)] = append([]byte(nil), payload...)
}

// TestFragmentStore checks that a highlighter keeps what it lexed in its
// store, and that a later one (another process) reads it back instead of
// lexing again, for fences and fragments alike; and that Go, which golex
// lexes faster than an entry is read, is never stored.
func TestFragmentStore(t *testing.T) {
	store := &memStore{entries: map[string][]byte{}}
	py := []byte("def f(x):\n    return x < 1\n")
	lines := [][]byte{[]byte("def g(y):"), []byte("    return y")}
	first := (*HighlightCache)(nil).Highlighter(store)
	fence := first.Fence("python", py)
	frag, _ := first.Fragment("a.py", lines, 1, 2, "code-a")
	first.Fence("go", []byte("package x\n"))
	if n := first.lexed.Load(); n != 2 {
		t.Fatalf("first highlighter lexed %d fences, want 2", n)
	}
	if len(store.entries) != 2 {
		t.Fatalf("store holds %d entries, want 2 (the python fence and fragment, not the Go fence)", len(store.entries))
	}
	for k := range store.entries {
		if !strings.HasPrefix(k, HighlightStage+"/") {
			t.Errorf("entry %q is not under the %s stage", k, HighlightStage)
		}
	}
	second := (*HighlightCache)(nil).Highlighter(store)
	if got := second.Fence("python", py); got != fence {
		t.Errorf("fence read back from the store:\n%s\nwant\n%s", got, fence)
	}
	if got, _ := second.Fragment("a.py", lines, 1, 2, "code-a"); got != frag {
		t.Errorf("fragment read back from the store:\n%s\nwant\n%s", got, frag)
	}
	if n := second.lexed.Load(); n != 0 {
		t.Errorf("second highlighter lexed %d fences, want 0: the store had them", n)
	}
}
