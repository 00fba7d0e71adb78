// The static build's worker: it loads wfc compiled to WebAssembly (sent
// gzipped, decompressed here, so it travels compressed from any static
// host) and answers the page's requests with it, one at a time.
"use strict";
importScripts("wasm_exec.js");

// The first worker fetches and compiles the module and hands the compiled
// module back to the page, which gives it to the next worker: only one
// download and one compilation per page.
const timing = {};
let init;
const initGiven = new Promise((resolve) => { init = resolve; });

async function compile() {
  const t0 = performance.now();
  const resp = await fetch("wfc.wasm.gz");
  if (!resp.ok) throw new Error("wfc.wasm.gz: " + resp.status);
  const bytes = await new Response(resp.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  timing.fetch = performance.now() - t0;
  const mod = await WebAssembly.compile(bytes);
  timing.compile = performance.now() - t0 - timing.fetch;
  return mod;
}

const loading = (async () => {
  const given = await initGiven; // the page's first message: {init: true, module?}
  const mod = given.module || await compile();
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
