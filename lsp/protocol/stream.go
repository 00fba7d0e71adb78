package protocol

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"go.lsp.dev/jsonrpc2"
)

// Bounds of the base protocol's framing: the client is trusted to speak
// LSP, but a broken or hostile one must not make the server allocate what
// it never sent or end the session silently.
const (
	// MaxHeaderLine is the longest header line read (`Content-Length: …`).
	MaxHeaderLine = 4 << 10
	// MaxHeaderLines is the most header lines one frame may have.
	MaxHeaderLines = 32
	// MaxMessage is the largest body a frame may declare. The body is read
	// as it arrives, so a declaration alone allocates nothing.
	MaxMessage = 1 << 30
)

// keepBody is the largest body buffer kept from one frame to the next.
const keepBody = 1 << 20

// ErrHeaderTooLong ends a session whose peer sends a header line longer
// than MaxHeaderLine or more than MaxHeaderLines lines: the framing cannot
// be trusted past it.
var ErrHeaderTooLong = errors.New("jsonrpc2: header longer than wfc reads")

// ErrBadHeader ends a session whose peer sends a header that is not
// `Name: value` lines with one Content-Length.
var ErrBadHeader = errors.New("jsonrpc2: invalid message header")

// frameWriter is the part of the library's header stream used to write.
type frameWriter interface {
	jsonrpc2.Stream
	WriteFrame(ctx context.Context, data []byte) (int64, error)
}

// stream is LSP's header framing with bounded headers, bodies read as they
// arrive, and the JSON-RPC rules for bad bodies: a well-framed body that is
// not JSON is answered with a parse error (-32700), JSON that is not a
// request with an invalid-request error (-32600), and the session goes on.
// Writing is the library's.
type stream struct {
	out  frameWriter
	in   *bufio.Reader
	body bytes.Buffer // reused between frames
}

func newStream(rwc io.ReadWriteCloser) *stream {
	return &stream{out: jsonrpc2.NewHeaderStream(rwc).(frameWriter), in: bufio.NewReaderSize(rwc, MaxHeaderLine)}
}

func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	return s.out.Write(ctx, msg)
}

func (s *stream) WriteFrame(ctx context.Context, data []byte) (int64, error) {
	return s.out.WriteFrame(ctx, data)
}

func (s *stream) Close() error { return s.out.Close() }

func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	body, n, err := s.ReadFrame(ctx)
	if err != nil {
		return nil, 0, err
	}
	msg, err := jsonrpc2.DecodeMessage(body)
	return msg, n, err
}

// ReadFrame returns the next body that is a JSON-RPC message (or a batch
// of JSON values), answering the bad ones on the way. The slice is valid
// until the next read.
func (s *stream) ReadFrame(ctx context.Context) ([]byte, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		n, hdr, err := s.readHeader()
		if err != nil {
			return nil, 0, err
		}
		if s.body.Cap() > keepBody {
			s.body = bytes.Buffer{} // one large message does not stay
		}
		s.body.Reset()
		s.body.Grow(min(n, keepBody)) // more only as it arrives
		if _, err := io.CopyN(&s.body, s.in, int64(n)); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, 0, err
		}
		body := s.body.Bytes()
		if reply := invalid(body); reply != nil {
			if _, err := s.out.WriteFrame(ctx, reply); err != nil {
				return nil, 0, err
			}
			continue
		}
		return body, int64(hdr + n), nil
	}
}

// readHeader reads one header block and returns the Content-Length and
// the header's length in bytes.
func (s *stream) readHeader() (length, size int, err error) {
	length = -1
	for i := 0; ; i++ {
		line, err := s.in.ReadSlice('\n')
		switch {
		case err == bufio.ErrBufferFull || i == MaxHeaderLines:
			return 0, 0, ErrHeaderTooLong
		case err == io.EOF && size == 0 && len(line) == 0:
			return 0, 0, io.EOF
		case err == io.EOF:
			return 0, 0, io.ErrUnexpectedEOF
		case err != nil:
			return 0, 0, err
		}
		size += len(line)
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return 0, 0, ErrBadHeader
		}
		if bytes.EqualFold(bytes.TrimSpace(name), []byte("Content-Length")) {
			n, err := strconv.Atoi(string(bytes.TrimSpace(value)))
			if err != nil || n <= 0 || n > MaxMessage {
				return 0, 0, fmt.Errorf("%w: Content-Length %q", ErrBadHeader, bytes.TrimSpace(value))
			}
			length = n
		}
	}
	if length < 0 {
		return 0, 0, fmt.Errorf("%w: no Content-Length", ErrBadHeader)
	}
	return length, size, nil
}

// invalid returns the error response to a body that is not a JSON-RPC
// message, or nil for one that is (batches are the library's to judge,
// once they are JSON).
func invalid(body []byte) []byte {
	batch := len(bytes.TrimLeft(body, " \t\r\n")) > 0 && bytes.TrimLeft(body, " \t\r\n")[0] == '['
	if !batch {
		if _, err := jsonrpc2.DecodeMessage(body); err == nil {
			return nil
		}
	}
	if !json.Valid(body) {
		return errorResponse(nil, jsonrpc2.ParseError, "JSON-RPC parse error: the message is not JSON")
	}
	if batch {
		return nil
	}
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(body, &m)
	id := m.ID
	var num json.Number
	var str string
	if json.Unmarshal(id, &num) != nil && json.Unmarshal(id, &str) != nil {
		id = nil // not a valid id: answer to null, as JSON-RPC asks
	}
	return errorResponse(id, jsonrpc2.InvalidRequest, "JSON-RPC invalid request: the message is not a request, notification or response")
}

func errorResponse(id json.RawMessage, code jsonrpc2.Code, msg string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    jsonrpc2.Code `json:"code"`
			Message string        `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    jsonrpc2.Code `json:"code"`
		Message string        `json:"message"`
	}{code, msg}})
	return b
}
