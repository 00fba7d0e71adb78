// Package protocol is the one place wfc's language server touches its LSP
// library (go.lsp.dev/protocol, jsonrpc2 and uri, pinned at v1.0.1): the
// server and its tests use only the names here, so the library could be
// swapped by rewriting this package alone. Types are aliases, so values
// cross the boundary at no cost.
package protocol

import (
	"context"
	"io"

	"go.lsp.dev/jsonrpc2"
	lsp "go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Transport.
type (
	Conn    = jsonrpc2.Conn
	Request = jsonrpc2.Request
	Handler = jsonrpc2.Handler
	Code    = jsonrpc2.Code
	URI     = uri.URI
)

// Error codes of JSON-RPC and LSP.
const (
	CodeParseError           Code = jsonrpc2.ParseError
	CodeInvalidRequest       Code = jsonrpc2.InvalidRequest
	CodeMethodNotFound       Code = jsonrpc2.MethodNotFound
	CodeInvalidParams        Code = jsonrpc2.InvalidParams
	CodeInternalError        Code = jsonrpc2.InternalError
	CodeServerNotInitialized Code = Code(lsp.ErrorCodesServerNotInitialized)
	CodeRequestFailed        Code = Code(lsp.LSPErrorCodesRequestFailed)
	CodeRequestCancelled     Code = Code(lsp.LSPErrorCodesRequestCancelled)
)

// Errorf builds a JSON-RPC error response.
func Errorf(c Code, format string, args ...any) error { return jsonrpc2.Errorf(c, format, args...) }

// ErrorCode returns the JSON-RPC code of err, and whether it has one.
func ErrorCode(err error) (Code, bool) {
	if e, ok := err.(*jsonrpc2.Error); ok {
		return e.Code, true
	}
	return 0, false
}

// FileURI is the file:// URI of a path.
func FileURI(path string) URI { return uri.File(path) }

// ParseURI parses a URI.
func ParseURI(s string) (URI, error) { return uri.Parse(s) }

// codec marshals payloads with the library's union-aware codec.
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case jsonrpc2.RawMessage:
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	case *jsonrpc2.RawMessage:
		if m == nil || *m == nil {
			return []byte("null"), nil
		}
		return *m, nil
	}
	return lsp.Marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return lsp.Unmarshal(data, v)
}

// NewConn speaks LSP's base protocol (Content-Length framed JSON-RPC) over
// rwc, with bounded headers and an error answer to a body that is not a
// message (see stream). Call Go to start it.
func NewConn(rwc io.ReadWriteCloser) Conn {
	return jsonrpc2.NewConn(newStream(rwc), jsonrpc2.WithCodec(codec{}))
}

// ID is a request's id.
type ID = jsonrpc2.ID

// MethodCancelRequest is `$/cancelRequest`.
const MethodCancelRequest = lsp.MethodCancelRequest

// CancelledID decodes the params of `$/cancelRequest`: the id to cancel.
func CancelledID(params []byte) (ID, bool) {
	var p lsp.CancelParams
	if lsp.Unmarshal(params, &p) != nil {
		return ID{}, false
	}
	switch id := p.ID.(type) {
	case lsp.Integer:
		return jsonrpc2.NewNumberID(int64(id)), true
	case lsp.String:
		return jsonrpc2.NewStringID(string(id)), true
	}
	return ID{}, false
}

// Async lets the rest of a request run concurrently with later messages.
func Async(ctx context.Context) { jsonrpc2.Async(ctx) }

// Dispatch decodes req and calls the matching method of s.
func Dispatch(ctx context.Context, s Server, req *Request) (any, error) {
	return lsp.ServerHandler(s, jsonrpc2.MethodNotFoundHandler)(ctx, req)
}

// ClientDispatcher calls the client's methods over conn.
func ClientDispatcher(conn Conn) Client { return lsp.ClientDispatcher(conn) }

// ServerDispatcher calls the server's methods over conn (for clients and tests).
func ServerDispatcher(conn Conn) Server { return lsp.ServerDispatcher(conn) }

// ClientHandler serves c's methods (for clients and tests).
func ClientHandler(c Client) Handler { return lsp.ClientHandler(c, jsonrpc2.MethodNotFoundHandler) }

// NewOptional sets an optional field.
func NewOptional[T any](v T) Optional[T] { return lsp.NewOptional(v) }

// NewNullable sets a nullable field.
func NewNullable[T any](v T) Nullable[T] { return lsp.NewNullable(v) }

// Marshal and Unmarshal encode and decode protocol values.
func Marshal(v any) ([]byte, error)      { return lsp.Marshal(v) }
func Unmarshal(data []byte, v any) error { return lsp.Unmarshal(data, v) }

// Generic types.
type (
	Optional[T any] = lsp.Optional[T]
	Nullable[T any] = lsp.Nullable[T]
)
