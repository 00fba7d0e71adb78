// One interface over the two ways the page runs wfc: `wfc play`'s server
// (POST api, answered natively) and the static build's WebAssembly, run in
// Web Workers so the page never blocks. Both answer the same JSON requests
// with the same Go function (play.Handle).
//
//   const be = openBackend();
//   const resp = await be.call({op: "check", files}, {lane: "quick", signal});
//
// Requests of the "quick" lane (check, format, fix, schedule, graph) and of
// the "run" lane (test, sim) go to different workers, so a long test run
// never holds up the diagnostics. Aborting a request through its signal
// stops it: the server cancels its work; a worker is ended and replaced.
//
// The page says which in its <meta name="wfc-backend">: "server" as
// `wfc play` serves it, "wasm" as the static build writes it. Reading it
// costs no request, so the static page's first worker starts (and
// fetches wfc) as soon as this module runs.

export function openBackend() {
  const m = document.querySelector('meta[name="wfc-backend"]');
  return m && m.content === "wasm" ? new WasmBackend() : new ServerBackend();
}

class ServerBackend {
  constructor() { this.kind = "server"; }
  async call(req, { signal } = {}) {
    const r = await fetch("api", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(req), signal,
    });
    if (!r.ok) throw new Error(`wfc play answered ${r.status}: ${await r.text()}`);
    return r.json();
  }
  ready() { return Promise.resolve(); }
  settled() {}
}

class Lane {
  // shared holds what the lanes share: the compiled module, once one
  // worker has compiled it, and the timings of loading.
  constructor(shared) { this.shared = shared; this.worker = null; this.next = 1; this.pending = new Map(); this.loaded = null; }
  start() {
    if (this.worker) return;
    // The worker's name says whether it compiles wfc itself (the first
    // one: it starts fetching before anything else) or is given the
    // module another worker compiled.
    const given = this.shared.module || null;
    const w = new Worker("worker.js", { name: given ? "given" : "compile" });
    this.worker = w;
    this.loaded = new Promise((resolve, reject) => { this.onLoaded = resolve; this.onFailed = reject; });
    this.loaded.catch(() => {});
    w.postMessage({ init: true, module: given });
    w.onmessage = (e) => {
      const m = e.data;
      if (m.loaded) {
        if (m.module && !this.shared.module) this.shared.module = m.module;
        if (m.timing && m.timing.load !== undefined) this.shared.timing = m.timing;
        this.onLoaded();
        return;
      }
      if (m.failed) { this.onFailed(new Error(m.failed)); return; }
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error) p.reject(new Error(m.error)); else p.resolve(JSON.parse(m.out));
    };
    w.onerror = (e) => { this.fail(new Error("the worker failed: " + (e.message || "unknown error"))); };
  }
  fail(err) {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    if (this.worker) this.worker.terminate();
    this.worker = null;
  }
  call(req, signal) {
    this.start();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (signal) {
        if (signal.aborted) { this.pending.delete(id); reject(new DOMException("stopped", "AbortError")); return; }
        signal.addEventListener("abort", () => {
          if (!this.pending.has(id)) return;
          // A request cannot be interrupted inside WebAssembly: end the
          // worker, and with it the request; the next call starts another.
          this.fail(new DOMException("stopped", "AbortError"));
        }, { once: true });
      }
      this.worker.postMessage({ id, req: JSON.stringify(req) });
    });
  }
}

class WasmBackend {
  constructor() {
    this.kind = "wasm";
    this.shared = { module: null, timing: null };
    this.lanes = { quick: new Lane(this.shared), run: new Lane(this.shared) };
    this.lanes.quick.start();
  }
  ready() { return this.lanes.quick.loaded; }
  // settled is called once the page has shown its first diagnostics: the
  // second worker then starts from the compiled module, so the first test
  // run does not wait, and not before, so it never competes with the
  // first check for the machine.
  settled() {
    this.lanes.quick.loaded.then(() => this.lanes.run.start(), () => {});
  }
  timing() { return this.shared.timing; }
  call(req, { signal, lane } = {}) {
    return this.lanes[lane === "run" ? "run" : "quick"].call(req, signal);
  }
}
