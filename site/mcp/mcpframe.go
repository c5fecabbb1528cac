package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Limits of a frame (one line) that the MCP server reads: a longer or
// deeper one is answered with an error, and the server goes on.
const (
	MaxFrameBytes = 16 << 20
	MaxDepth      = 64
)

// lineTransport is the MCP server's stdio transport: newline-delimited
// JSON-RPC like the SDK's, except that a malformed frame is answered with
// a JSON-RPC error (-32700 for what does not parse, -32600 for what is not
// a single request or notification: a batch, a wrong "jsonrpc", an id that
// is not a string or an integer) and the server keeps serving; and that at
// the end of its input it ends only after every request read is answered,
// so `printf '…\n…\n' | tracewiki mcp` prints each answer.
type lineTransport struct {
	r   io.Reader
	w   io.Writer
	log io.Writer // one line per malformed frame
}

// Connect starts reading frames.
func (t *lineTransport) Connect(context.Context) (sdk.Connection, error) {
	c := &lineConn{w: t.w, log: t.log, in: make(chan jsonrpc.Message), closed: make(chan struct{}), pending: map[jsonrpc.ID]int{}}
	go c.read(t.r)
	return c, nil
}

// lineConn is a connection of [lineTransport].
type lineConn struct {
	w   io.Writer
	wmu sync.Mutex // one frame at a time
	log io.Writer

	in        chan jsonrpc.Message // valid frames; closed at the end of input
	closed    chan struct{}
	closeOnce sync.Once

	mu      sync.Mutex
	pending map[jsonrpc.ID]int // requests read and not answered yet
	idle    chan struct{}      // closed when pending becomes empty; nil while it is
}

// read reads frames until the end of r, answering the malformed ones and
// passing the others on.
func (c *lineConn) read(r io.Reader) {
	defer close(c.in)
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		line, long, err := readFrame(br)
		if len(bytes.TrimSpace(line)) > 0 || long {
			msg, code, why, id := parseFrame(line, long)
			if msg == nil {
				fmt.Fprintf(c.log, "tracewiki: mcp: stdin:%d: %s\n", n, why)
				c.writeRaw(errorFrame(id, code, why))
			} else {
				select {
				case c.in <- msg:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			return
		}
	}
}

// readFrame reads one line without its newline; a line longer than
// MaxFrameBytes is read to its end and dropped, with long set.
func readFrame(br *bufio.Reader) (line []byte, long bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !long {
			line = append(line, chunk...)
			if len(line) > MaxFrameBytes+1 {
				line, long = nil, true
			}
		}
		if err != bufio.ErrBufferFull {
			return bytes.TrimSuffix(line, []byte("\n")), long, err
		}
	}
}

// parseFrame decodes a frame, or says why it is not a valid message: the
// JSON-RPC error code, the message, and the id to answer (null unless the
// frame had a valid one).
func parseFrame(line []byte, long bool) (msg jsonrpc.Message, code int64, why string, id json.RawMessage) {
	null := json.RawMessage("null")
	switch {
	case long:
		return nil, jsonrpc.CodeParseError, fmt.Sprintf("parse error: a frame longer than %d bytes", MaxFrameBytes), null
	case depthOver(line, MaxDepth):
		return nil, jsonrpc.CodeParseError, fmt.Sprintf("parse error: nested deeper than %d levels", MaxDepth), null
	}
	var v json.RawMessage
	if err := json.Unmarshal(line, &v); err != nil {
		return nil, jsonrpc.CodeParseError, "parse error: " + err.Error(), null
	}
	v = bytes.TrimSpace(v)
	switch v[0] {
	case '{':
	case '[':
		return nil, jsonrpc.CodeInvalidRequest, "invalid request: batches are not supported", null
	default:
		return nil, jsonrpc.CodeInvalidRequest, "invalid request: not a JSON-RPC object", null
	}
	var f map[string]json.RawMessage
	if err := json.Unmarshal(v, &f); err != nil {
		return nil, jsonrpc.CodeInvalidRequest, "invalid request: " + err.Error(), null
	}
	id = null
	if raw, ok := f["id"]; ok {
		if !validID(raw) {
			return nil, jsonrpc.CodeInvalidRequest, "invalid request: the id must be a string or an integer", null
		}
		id = raw
	}
	if string(f["jsonrpc"]) != `"2.0"` {
		return nil, jsonrpc.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`, id
	}
	msg, err := jsonrpc.DecodeMessage(v)
	if err != nil {
		return nil, jsonrpc.CodeInvalidRequest, "invalid request: " + err.Error(), id
	}
	return msg, 0, "", nil
}

// validID reports whether a JSON value is an id MCP allows: a string, or
// an integer that fits 64 bits (never null).
func validID(raw json.RawMessage) bool {
	var s *string
	if json.Unmarshal(raw, &s) == nil && s != nil {
		return true
	}
	_, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil
}

// depthOver reports whether the JSON text nests arrays and objects deeper
// than max, in one pass that skips strings.
func depthOver(data []byte, max int) bool {
	depth, inString, escaped := 0, false, false
	for _, b := range data {
		switch {
		case inString && escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case inString && b == '"':
			inString = false
		case inString:
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			if depth++; depth > max {
				return true
			}
		case b == '}' || b == ']':
			depth--
		}
	}
	return false
}

// errorFrame is a JSON-RPC error answer.
func errorFrame(id json.RawMessage, code int64, message string) []byte {
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: message}})
	return data
}

// Read returns the next valid frame. At the end of the input it waits until
// every request read has been answered, then returns io.EOF.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case msg, ok := <-c.in:
		if !ok {
			return nil, c.drain(ctx)
		}
		if req, isReq := msg.(*jsonrpc.Request); isReq && req.ID.IsValid() {
			c.mu.Lock()
			if len(c.pending) == 0 {
				c.idle = make(chan struct{})
			}
			c.pending[req.ID]++
			c.mu.Unlock()
		}
		return msg, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	}
}

// drain waits until no request read is unanswered, and returns io.EOF.
func (c *lineConn) drain(ctx context.Context) error {
	c.mu.Lock()
	idle := c.idle
	if len(c.pending) == 0 {
		idle = nil
	}
	c.mu.Unlock()
	if idle != nil {
		select {
		case <-idle:
		case <-ctx.Done():
			return ctx.Err()
		case <-c.closed:
		}
	}
	return io.EOF
}

// Write writes a frame; an answer settles its request.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("marshaling message: %v", err)
	}
	err = c.writeRaw(data)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		if n, ok := c.pending[resp.ID]; ok {
			if n > 1 {
				c.pending[resp.ID] = n - 1
			} else {
				delete(c.pending, resp.ID)
				if len(c.pending) == 0 {
					close(c.idle)
				}
			}
		}
		c.mu.Unlock()
	}
	return err
}

func (c *lineConn) writeRaw(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.w.Write(append(data, '\n'))
	return err
}

// Close stops reading; a read of the input blocked in the system stays
// blocked until the process ends.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// SessionID is empty: stdio has one session.
func (c *lineConn) SessionID() string { return "" }

var errMCPClosed = errors.New("mcp: connection closed")
