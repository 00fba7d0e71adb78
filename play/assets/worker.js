// The static build's worker: it loads wfc compiled to WebAssembly (sent
// gzipped, decompressed here, so it travels compressed from any static
// host) and answers the page's requests with it, one at a time.
"use strict";
// The first worker (named "compile") fetches and compiles the module and
// hands the compiled module back to the page, which gives it to the next
// worker: only one download and one compilation per page. Its fetch
// starts before anything else, wasm_exec.js included.
const t0 = performance.now();
const fetching = self.name === "compile" ? fetch("wfc.wasm.gz") : null;
fetching && fetching.catch(() => {});
importScripts("wasm_exec.js");

const timing = {};
let init;
const initGiven = new Promise((resolve) => { init = resolve; });

// compile streams the module: it is compiled while it is decompressed,
// which is decompressed while it arrives.
async function compile() {
  const resp = await (fetching || fetch("wfc.wasm.gz"));
  if (!resp.ok) throw new Error("wfc.wasm.gz: " + resp.status);
  const wasm = new Response(resp.body.pipeThrough(new DecompressionStream("gzip")), { headers: { "Content-Type": "application/wasm" } });
  const mod = await WebAssembly.compileStreaming(wasm);
  timing.load = performance.now() - t0;
  return mod;
}

const loading = (async () => {
  // A worker that compiles wfc does not wait for the page; another is
  // given the module in the page's first message ({init: true, module}).
  const mod = fetching ? await compile() : ((await initGiven).module || await compile());
  const go = new Go();
  const t1 = performance.now();
  const instance = await WebAssembly.instantiate(mod, go.importObject);
  go.run(instance); // sets globalThis.wfcHandle, then waits for calls
  timing.start = performance.now() - t1;
  if (typeof self.wfcHandle !== "function") throw new Error("wfc.wasm did not start");
  return mod;
})();
loading.then((mod) => self.postMessage({ loaded: true, module: mod, timing }), (e) => self.postMessage({ failed: String(e && e.message || e) }));

self.onmessage = async (e) => {
  if (e.data.init) { init(e.data); return; }
  const { id, req } = e.data;
  try {
    await loading;
    self.postMessage({ id, out: self.wfcHandle(req) });
  } catch (err) {
    self.postMessage({ id, error: String(err && err.message || err) });
  }
};
