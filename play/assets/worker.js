// The static build's worker: it loads wfc compiled to WebAssembly (sent
// gzipped, decompressed here, so it travels compressed from any static
// host) and answers the page's requests with it, one at a time.
"use strict";
importScripts("wasm_exec.js");

const loading = (async () => {
  const go = new Go();
  const resp = await fetch("wfc.wasm.gz");
  if (!resp.ok) throw new Error("wfc.wasm.gz: " + resp.status);
  const bytes = await new Response(resp.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  const { instance } = await WebAssembly.instantiate(bytes, go.importObject);
  go.run(instance); // sets globalThis.wfcHandle, then waits for calls
  if (typeof self.wfcHandle !== "function") throw new Error("wfc.wasm did not start");
})();
loading.then(() => self.postMessage({ loaded: true }), (e) => self.postMessage({ failed: String(e && e.message || e) }));

self.onmessage = async (e) => {
  const { id, req } = e.data;
  try {
    await loading;
    self.postMessage({ id, out: self.wfcHandle(req) });
  } catch (err) {
    self.postMessage({ id, error: String(err && err.message || err) });
  }
};
