// One interface over the two ways the page runs wfc: `wfc play`'s server
// (POST api, answered natively) and the static build's WebAssembly, run in
// Web Workers so the page never blocks. Both answer the same JSON requests
// with the same Go function (play.Handle).
//
//   const be = await openBackend();
//   const resp = await be.call({op: "check", files}, {lane: "quick", signal});
//
// Requests of the "quick" lane (check, format, fix, schedule, graph) and of
// the "run" lane (test, sim) go to different workers, so a long test run
// never holds up the diagnostics. Aborting a request through its signal
// stops it: the server cancels its work; a worker is ended and replaced.

export async function openBackend() {
  let kind = "server";
  try {
    const r = await fetch("backend.json", { cache: "no-store" });
    if (r.ok) kind = (await r.json()).backend;
  } catch (e) {
    // Offline with no answer: the static build's cached copy answers
    // backend.json, so only a page without one gets here.
  }
  return kind === "wasm" ? new WasmBackend() : new ServerBackend();
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
}

class Lane {
  // shared holds what the lanes share: the compiled module, once one
  // worker has compiled it, and the timings of loading.
  constructor(shared) { this.shared = shared; this.worker = null; this.next = 1; this.pending = new Map(); this.loaded = null; }
  start() {
    if (this.worker) return;
    const w = new Worker("worker.js");
    this.worker = w;
    this.loaded = new Promise((resolve, reject) => { this.onLoaded = resolve; this.onFailed = reject; });
    this.loaded.catch(() => {});
    w.postMessage({ init: true, module: this.shared.module || null });
    w.onmessage = (e) => {
      const m = e.data;
      if (m.loaded) {
        if (m.module && !this.shared.module) this.shared.module = m.module;
        if (m.timing && m.timing.compile !== undefined) this.shared.timing = m.timing;
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
    // Once the first worker is up, the second starts from its compiled
    // module in the background, so the first test run does not wait.
    this.lanes.quick.loaded.then(() => setTimeout(() => this.lanes.run.start(), 500), () => {});
  }
  ready() { return this.lanes.quick.loaded; }
  timing() { return this.shared.timing; }
  call(req, { signal, lane } = {}) {
    return this.lanes[lane === "run" ? "run" : "quick"].call(req, signal);
  }
}
