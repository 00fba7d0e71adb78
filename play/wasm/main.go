//go:build js && wasm

// Command wasm is the playground's request handler (play.Handle) compiled
// to WebAssembly for the static build: the page's worker (worker.js)
// calls globalThis.wfcHandle with a JSON request and gets the JSON
// response back, as `wfc play`'s /api answers it natively.
package main

import (
	"context"
	"syscall/js"

	"github.com/wfc-lang/wfc/play"
)

func main() {
	js.Global().Set("wfcHandle", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 1 || args[0].Type() != js.TypeString {
			return `{"error":"wfcHandle takes one JSON string"}`
		}
		return string(play.Handle(context.Background(), []byte(args[0].String())))
	}))
	select {} // the worker calls wfcHandle for as long as it lives
}
