// Command wasm is the playground's request handler compiled to
// WebAssembly (GOOS=js GOARCH=wasm); `wfc play --static DIR` builds it.
// On other platforms it is empty.
package main
