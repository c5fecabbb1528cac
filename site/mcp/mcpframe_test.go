package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// syncBuffer is a bytes.Buffer safe for the transport's writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestMCPFrames checks the MCP transport (the attack log's M-02): every
// malformed frame, a line over MaxFrameBytes and nesting over
// MaxDepth included, is answered with a JSON-RPC error (-32700 or
// -32600, with the frame's id when it had a valid one, else null) and
// reading goes on; at the end of the input, Read waits until every request
// read is answered, then says io.EOF.
func TestMCPFrames(t *testing.T) {
	frames := []string{
		`{not json`,
		`[]`,
		`[{"jsonrpc":"2.0","id":5,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
		`{"jsonrpc":"1.0","id":6,"method":"ping"}`,
		`null`,
		`1e999999`,
		`{"jsonrpc":"2.0","id":1e999999,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
		`{"jsonrpc":"2.0","id":"x","method":"` + strings.Repeat("a", MaxFrameBytes) + `"}`,
		``,
		`{"jsonrpc":"2.0","id":7,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}
	want := []struct {
		code int64
		id   string
	}{{-32700, "null"}, {-32600, "null"}, {-32600, "null"}, {-32600, "null"}, {-32600, "6"},
		{-32600, "null"}, {-32600, "null"}, {-32600, "null"}, {-32600, "null"}, {-32700, "null"}, {-32700, "null"}}
	var out syncBuffer
	tr := &lineTransport{r: strings.NewReader(strings.Join(frames, "\n") + "\n"), w: &out, log: io.Discard}
	conn, err := tr.Connect(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx := t.Context()
	var got []jsonrpc.Message
	for range 2 {
		msg, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("Read: %v after %d messages; out:\n%.2000s", err, len(got), out.String())
		}
		got = append(got, msg)
	}
	if req, ok := got[0].(*jsonrpc.Request); !ok || req.Method != "ping" || req.ID.Raw() != int64(7) {
		t.Errorf("first message %#v, want the ping of id 7", got[0])
	}
	// The input has ended, but the ping is not answered yet.
	eof := make(chan error, 1)
	go func() { _, err := conn.Read(ctx); eof <- err }()
	select {
	case err := <-eof:
		t.Fatalf("Read returned %v before the request read was answered", err)
	case <-time.After(100 * time.Millisecond):
	}
	id, _ := jsonrpc.MakeID(float64(7))
	if err := conn.Write(ctx, &jsonrpc.Response{ID: id, Result: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-eof:
		if err != io.EOF {
			t.Fatalf("Read at the end = %v, want io.EOF", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Read did not end after the last answer")
	}

	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(want)+1 {
		t.Fatalf("%d lines written, want %d errors and the answer:\n%.3000s", len(lines), len(want), out.String())
	}
	for i, w := range want {
		var e struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   struct {
				Code    int64  `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(lines[i]), &e); err != nil || e.JSONRPC != "2.0" || e.Error.Code != w.code || string(e.ID) != w.id || e.Error.Message == "" {
			t.Errorf("answer to %.60q = %s (%v); want code %d, id %s", frames[i], lines[i], err, w.code, w.id)
		}
	}
	if last := lines[len(lines)-1]; last != `{"jsonrpc":"2.0","id":7,"result":{}}` {
		t.Errorf("last line %s, want the answer to 7", last)
	}
}
