// The playground in a real browser: Debian's chromium, headless, driven by
// playwright-core (pinned by package-lock.json; it downloads no browser).
// Every test runs against both ways of running the page: `wfc play`'s
// server (wfc answering natively) and the static build (`wfc play
// --static`, wfc as WebAssembly in Web Workers) served by a tiny static
// server. Timings are measured and printed, never asserted against the
// clock; screenshots go to $WFC_SCREENSHOTS (default play/test/screenshots).
//
//   cd play/test && npm ci && npm test        (needs go and /usr/bin/chromium)
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serveStatic } from "./static-server.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
// The language's words as the page has them (assets/words.js, generated
// from the vocabulary): read as data, so the tests follow the language.
const vocabulary = (() => {
  const src = fs.readFileSync(path.join(here, "..", "assets", "words.js"), "utf8");
  return JSON.parse(src.slice(src.indexOf("{"), src.lastIndexOf("}") + 1));
})();
const root = path.resolve(here, "../..");
const shots = process.env.WFC_SCREENSHOTS || path.join(here, "screenshots");
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const work = fs.mkdtempSync(path.join(os.tmpdir(), "wfc-play-test-"));
const wfc = path.join(work, "wfc");
fs.mkdirSync(shots, { recursive: true });

// The programs the tests use.
const read = (p) => fs.readFileSync(path.join(root, p), "utf8");
const jobflow = [
  { name: "jobflow.wf", text: read("testdata/examples/jobflow/jobflow.wf") },
  { name: "jobflow_test.wf", text: read("testdata/examples/jobflow/jobflow_test.wf") },
];
const orders = ["fulfilment.wf", "model.wf", "orders_test.wf"].map((n) => ({ name: n, text: read("testdata/examples/orders/" + n) }));
const capped = [{ name: "capped.wf", text: read("docs/capped.wf") }];

// link is the fragment that shares files, as share.js writes it.
function link(files) {
  const raw = zlib.deflateRawSync(Buffer.from(JSON.stringify({ v: 1, files })));
  return "#z=" + raw.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// runWfc runs the wfc binary; files are written to a fresh folder first.
function withFiles(files, fn) {
  const dir = fs.mkdtempSync(path.join(work, "prog-"));
  for (const f of files) fs.writeFileSync(path.join(dir, f.name), f.text);
  return fn(dir);
}
function wfcJSON(args) {
  const r = spawnSync(wfc, args, { encoding: "utf8" });
  return { status: r.status, doc: JSON.parse(r.stdout) };
}

let serverProc, serverURL, staticServer, staticURL;

before(async () => {
  execFileSync("go", ["build", "-o", wfc, "./cmd/wfc"], { cwd: root, stdio: "inherit" });
  // The native way: wfc play on a free port.
  serverProc = spawn(wfc, ["play", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  serverURL = await new Promise((resolve, reject) => {
    let out = "";
    serverProc.stdout.on("data", (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
      if (m) resolve(m[0]);
    });
    serverProc.on("exit", (c) => reject(new Error("wfc play exited " + c)));
  });
  // The static way: wfc play --static, served as files.
  const dir = path.join(work, "static");
  const t0 = Date.now();
  execFileSync(wfc, ["play", "--static", dir], { cwd: root, stdio: "inherit" });
  console.log(`# static build: ${Date.now() - t0} ms, wfc.wasm.gz ${fs.statSync(path.join(dir, "wfc.wasm.gz")).size} bytes`);
  ({ server: staticServer, url: staticURL } = await serveStatic(dir));
});

after(() => {
  serverProc && serverProc.kill();
  staticServer && staticServer.close();
});

async function launch() {
  const profile = fs.mkdtempSync(path.join(work, "profile-"));
  return chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1400, height: 900 },
  });
}

// open loads the page (with files, through a link) and waits for its
// first diagnostics. It records every request and every script error.
async function open(ctx, base, files) {
  const page = await ctx.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  page.on("dialog", (d) => { page.errors.push("dialog: " + d.message()); d.dismiss(); });
  const t0 = Date.now();
  await page.goto(base + (files ? link(files) : ""));
  await page.waitForSelector("body[data-ready]", { timeout: 60000 });
  page.loadMs = Date.now() - t0;
  return page;
}

async function setText(page, file, text) {
  const before = Number(await page.getAttribute("body", "data-checks"));
  await page.click(`[role=tab][data-file="${file}"]`);
  const ta = page.locator(`textarea[data-file="${file}"]`);
  await ta.fill(text);
  await page.waitForFunction((n) => Number(document.body.dataset.checks) > n, before, { timeout: 60000 });
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(shots, name + ".png") });
}

async function view(page, name, selector) {
  await page.click("#tab-" + name);
  if (selector) await page.waitForSelector(selector, { timeout: 60000 });
}

for (const way of ["server", "static"]) {
  describe(`the playground (${way === "server" ? "wfc play" : "static build, WebAssembly"})`, () => {
    let ctx;
    const base = () => (way === "server" ? serverURL : staticURL);
    before(async () => { ctx = await launch(); });
    after(async () => { await ctx.close(); });

    test("a mistake shows its diagnostic at its line; its fix removes it", async () => {
      const page = await open(ctx, base(), jobflow);
      const tm = await page.evaluate(() => window.wfcTimings);
      const wasm = tm.wasm ? ` (WebAssembly: fetched, decompressed and compiled ${Math.round(tm.wasm.load)} ms after the worker started, Go's start ${Math.round(tm.wasm.start)} ms; the first check, sent at once, answered ${Math.round(tm.checks[0])} ms after it was sent)` : "";
      console.log(`# ${way}: page ready (first diagnostics) ${Math.round(tm.ready)} ms after navigation (the page's script ran at ${Math.round(tm.start)} ms, the backend was known at ${Math.round(tm.opened)} ms and ready at ${Math.round(tm.backendReady)} ms)${wasm}; goto to ready ${page.loadMs} ms; machine load ${os.loadavg()[0].toFixed(1)}`);
      const bad = jobflow[0].text.replace("  state Running {", "  stat Running {");
      const line = bad.split("\n").findIndex((l) => l.includes("stat Running")) + 1;
      await setText(page, "jobflow.wf", bad);
      const item = page.locator("#problems li[data-code=WF001]");
      await item.waitFor();
      assert.equal(await item.getAttribute("data-line"), String(line));
      // The gutter marks the line, and the text is underlined there.
      const gutter = page.locator(`#program-pane .editor:not([hidden]) .gutter div:nth-child(${line})`);
      assert.match(await gutter.getAttribute("class"), /has-error/);
      assert.equal(await page.locator("#program-pane .editor:not([hidden]) pre .d-error").first().textContent(), "stat");
      await shot(page, `${way}-diagnostic`);
      await item.locator("button.fix").first().click();
      await page.waitForSelector("#problems li.none");
      assert.ok((await page.inputValue('textarea[data-file="jobflow.wf"]')).includes("  state Running {"));
      assert.deepEqual(page.errors, []);
      await page.close();
    });

    test("completion offers the language's words after Backoff.", async () => {
      const page = await open(ctx, base(), jobflow);
      const ta = page.locator('textarea[data-file="jobflow.wf"]');
      await ta.click();
      await page.keyboard.press("Control+End");
      await page.keyboard.type("\n// Backoff.");
      await page.waitForSelector("#completions:not([hidden]) li");
      // The factories the vocabulary has, in its order (words.js is
      // generated from check/vocab): a new factory needs no edit here.
      assert.deepEqual(await page.$$eval("#completions li", (ls) => ls.map((l) => l.textContent)), vocabulary.factory);
      assert.ok(vocabulary.factory.indexOf("Exponential") === 2, "the keys below pick the third factory, Exponential");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      assert.match(await ta.inputValue(), /\/\/ Backoff\.Exponential$/);
      await page.close();
    });

    test("the schedule timeline puts one mark per attempt at the table's offsets", async () => {
      const page = await open(ctx, base(), capped);
      await view(page, "schedule", "#schedule-pic svg rect.attempt");
      const xs = await page.$$eval("#schedule-pic rect.attempt", (rs) => rs.map((r) => Number(r.getAttribute("x"))));
      // The table, from wfc schedule --format json: each attempt's start.
      const { doc } = withFiles(capped, (dir) => wfcJSON(["schedule", "--format", "json", path.join(dir, "capped.wf")]));
      const s = doc.schedules[0];
      const starts = [];
      for (const r of s.rows) for (let k = r.from; k <= r.to; k++) starts.push(r.starts_ms + (k - r.from) * r.wait_ms);
      assert.equal(xs.length, s.attempts);
      assert.deepEqual(starts, [0, 2000, 6000, 14000, 30000, 62000, 126000, 254000, 510000, 810000, 1110000, 1410000]);
      const last = starts[starts.length - 1];
      for (let k = 0; k < starts.length; k++) {
        const got = (xs[k] - xs[0]) / (xs[xs.length - 1] - xs[0]);
        assert.ok(Math.abs(got - starts[k] / last) < 0.002, `attempt ${k + 1} at ${got}, want ${starts[k] / last}`);
      }
      await shot(page, `${way}-schedule`);
      await page.close();
    });

    test("the graph names every state", async () => {
      for (const files of [jobflow, orders]) {
        const page = await open(ctx, base(), files);
        await view(page, "graph", "#graph-pic svg");
        const drawn = await page.$$eval("#graph-pic .state-name", (ts) => ts.map((t) => t.textContent));
        const declared = [];
        for (const f of files) for (const m of f.text.matchAll(/^\s*(?:state|terminal(?:\s+error)?)\s+(\w+)/gm)) declared.push(m[1]);
        assert.deepEqual([...drawn].sort(), [...declared].sort());
        await shot(page, `${way}-graph-${files[0].name.replace(".wf", "")}`);
        await page.close();
      }
    });

    test("running the tests gives wfc test's verdicts", async () => {
      const failing = [jobflow[0], { name: "jobflow_test.wf", text: jobflow[1].text.replace("Expect.End(Escalated, at: TimeSpan.FromMinutes(3));", "Expect.End(Escalated, at: TimeSpan.FromMinutes(4));") }];
      for (const files of [jobflow, orders, failing]) {
        const page = await open(ctx, base(), files);
        await page.click("#run");
        await page.waitForSelector("body[data-tests]", { timeout: 60000 });
        const got = await page.$$eval("#tests .test", (ds) => ds.map((d) => [d.dataset.name, d.dataset.verdict]));
        const { doc } = withFiles(files, (dir) => wfcJSON(["test", "--format", "json", dir]));
        const want = doc.tests.map((t) => [t.name, t.passed ? "PASS" : "FAIL"]);
        assert.deepEqual(got, want);
        assert.equal(await page.getAttribute("body", "data-tests"), doc.failed ? "FAIL" : "PASS");
        assert.ok(await page.locator("#tests .test svg.wfc-run").count() === want.length, "a run timeline per test");
        console.log(`# ${way}: ${files[0].name}: ${want.length} tests in ${await page.evaluate(() => Math.round(window.wfcTimings.lastTestRun))} ms`);
        if (files === failing) {
          await page.check("#cover");
          await shot(page, `${way}-tests-failing`);
        }
        await page.close();
      }
    });

    test("the simulator moves a run from state to state, and its saved test passes with wfc test", async () => {
      const files = [jobflow[0], { name: "jobflow_test.wf", text: "" }];
      const page = await open(ctx, base(), files);
      await view(page, "sim", "#sim-where[data-state=Queued]");
      await page.fill("#sim-by", "1m");
      await page.click("#sim-advance");
      await page.waitForSelector("#sim-where:has-text('1m:')");
      await page.click("button[data-event=Start]");
      await page.waitForSelector("#sim-where[data-state=Running]");
      assert.match(await page.locator("#sim-graph .node.current + text").textContent(), /Running/);
      // The first window passes: the clock goes to the next deadline.
      await page.click("#sim-next");
      await page.waitForSelector("#sim-lines li:has-text('pass')");
      await page.click("button[data-event=Complete]");
      await page.waitForSelector("#sim-where[data-state=Escalated]");
      await shot(page, `${way}-simulator`);
      await page.click("#sim-save");
      await page.waitForSelector("body[data-saved]");
      const saved = await page.inputValue('textarea[data-file="jobflow_test.wf"]');
      assert.match(saved, /test "simulated run" \{/);
      assert.match(saved, /Expect\.End\(Escalated, at: TimeSpan\.FromMinutes\(6\)\);/);
      const r = withFiles([jobflow[0], { name: "jobflow_test.wf", text: saved }], (dir) => spawnSync(wfc, ["test", dir], { encoding: "utf8" }));
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /--- PASS: simulated run/);
      await page.close();
    });

    test("a hostile program runs no script and makes no request outside the origin", async () => {
      const origin = new URL(base()).origin;
      const outside = [];
      const onReq = (r) => { if (!r.url().startsWith(origin + "/") && !r.url().startsWith("data:")) outside.push(r.url()); };
      ctx.on("request", onReq);
      const evil = `</svg><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">`;
      const files = [
        { name: "hostile.wf", text: read("picture/testdata/hostile.wf") },
        { name: '<img src=x onerror="window.__pwned=3">_test.wf', text: `test "${evil.replace(/"/g, "'")}" {\n  Workflow = Hostile;\n  Send(Go("${evil.replace(/"/g, "'")} javascript:alert(1) \u202e"));\n  Expect.State(A);\n}\n` },
      ];
      const page = await open(ctx, base(), files);
      for (const [v, sel] of [["schedule", "#schedule-pic svg"], ["graph", "#graph-pic svg"], ["tests", "#tests .test"], ["sim", "#sim-where[data-state]"]]) {
        await view(page, v, sel);
      }
      await page.click("#run");
      await page.waitForSelector("body[data-tests]");
      await page.waitForTimeout(300);
      assert.equal(await page.evaluate(() => window.__pwned), undefined);
      assert.equal(await page.locator("script").count(), 1, "only the page's own module script");
      assert.equal(await page.locator("img").count(), 0);
      assert.equal(await page.locator("a[href^=javascript], [href*='javascript:'], [onerror], [onload]").count(), 0);
      // The names are there, as text.
      assert.ok((await page.locator("#tests").textContent()).includes("</svg><script>"));
      assert.ok((await page.locator("#schedule-pic").textContent()).includes("<script>alert(1)</script>"));
      // A bidi override reads as its escape in the views, and as a mark in
      // the editor, never acting on the text around it.
      assert.ok((await page.locator("#tests .transcript").first().textContent()).includes("\\u202e"));
      assert.ok(!(await page.locator("#tests").textContent()).includes("\u202e"));
      assert.ok(await page.locator('#program-pane .editor:not([hidden]) pre .t-hidden').count() >= 2);
      await shot(page, `${way}-hostile`);
      ctx.off("request", onReq);
      assert.deepEqual(outside, []);
      assert.deepEqual(page.errors, []);
      await page.close();
    });

    test("timings: a 200-line program re-checked as you type; a long run stopped while the page answers", async () => {
      // 200 lines: JobFlow with more states.
      let text = jobflow[0].text;
      const extra = [];
      for (let i = 0; extra.join("\n").split("\n").length < 200 - text.split("\n").length; i++) {
        extra.push(`  state Extra${i} {\n    subscribe Complete(Decision decision) as W${i} {\n      Finished { Within = TimeSpan.FromMinutes(${i + 1}); Retries = 2; Unfinished { goto Escalated; } }\n    }\n    on W${i}(Decision decision) { default { goto Queued; } }\n  }`);
      }
      text = text.replace(/\n}\s*$/, "\n" + extra.join("\n") + "\n}\n");
      const lines = text.split("\n").length;
      const page = await open(ctx, base(), [{ name: "big.wf", text }]);
      const times = [];
      for (let k = 0; k < 5; k++) {
        const before = Number(await page.getAttribute("body", "data-checks"));
        const t0 = Date.now();
        await page.locator('textarea[data-file="big.wf"]').press("End");
        await page.keyboard.type(" ");
        await page.waitForFunction((n) => Number(document.body.dataset.checks) > n, before, { timeout: 60000 });
        times.push([Date.now() - t0, await page.evaluate(() => Math.round(window.wfcTimings.lastCheck))]);
      }
      console.log(`# ${way}: re-check of a ${lines}-line program: ${times.map((t) => t[1]).join(", ")} ms in the backend (keystroke to diagnostics, with the 120 ms pause: ${times.map((t) => t[0]).join(", ")} ms)`);
      // A long run: a million-entry transcript, stopped midway.
      const long = jobflow[0].text.replace("Backoff.Exponential(TimeSpan.FromMinutes(5)).MaxAttempts(3).Cap(TimeSpan.FromHours(1))", "Backoff.Fixed(TimeSpan.FromMilliseconds(1)).MaxAttempts(2000000000)")
        .replace("Unfinished { goto Escalated; }", "Unfinished { goto Escalated; } // wfc:ignore WF318");
      let tests = "";
      for (let i = 0; i < 8; i++) tests += `test "long ${i}" { Workflow = JobFlow; Send(Start()); Expect.End(Escalated); }\n`;
      await setText(page, "big.wf", long);
      await page.click("#tests-pane .add");
      await setText(page, "more_test.wf", tests);
      await page.click("#run");
      await page.waitForSelector("#stop:not([hidden])");
      // The page answers while the tests run: an edit is checked.
      const before = Number(await page.getAttribute("body", "data-checks"));
      const t0 = Date.now();
      await page.locator('textarea[data-file="big.wf"]').press("End");
      await page.keyboard.type(" ");
      await page.waitForFunction((n) => Number(document.body.dataset.checks) > n, before, { timeout: 60000 });
      const during = Date.now() - t0;
      // Stop the run if it is still going (on a fast machine it may be
      // over): clicked in the page, so nothing comes between the look and
      // the click.
      const stopped = await page.evaluate(() => { const b = document.getElementById("stop"); if (b.hidden) return false; b.click(); return true; });
      await page.waitForSelector("#run:not([hidden])");
      // (A run whose answer was on its way when Stop was clicked ends with
      // its verdict.)
      const said = await page.textContent("#status");
      assert.match(said, /stopped|PASS|FAIL/);
      console.log(`# ${way}: an edit checked in ${during} ms while the tests ran; ${stopped ? "Stop clicked: " + said : "the run was over before Stop"}`);
      await page.close();
    });

    if (way === "static") {
      test("the static page works offline once loaded", async () => {
        const page = await open(ctx, base(), jobflow);
        await page.evaluate(async () => { await navigator.serviceWorker.ready; });
        await page.reload();
        await page.waitForSelector("body[data-ready]", { timeout: 60000 });
        await ctx.setOffline(true);
        try {
          await page.reload();
          await page.waitForSelector("body[data-ready]", { timeout: 60000 });
          assert.match(await page.textContent("#status"), /0 errors/);
        } finally {
          await ctx.setOffline(false);
        }
        await page.close();
      });
    }
  });
}

describe("wfc play's server", () => {
  test("answers only at its own address, and only the page's files", async () => {
    const port = new URL(serverURL).port;
    const get = (p, headers = {}) => fetch(serverURL + p.replace(/^\//, ""), { headers });
    assert.equal((await get("/")).status, 200);
    assert.equal((await get("/app.js")).status, 200);
    for (const p of ["/../go.mod", "/%2e%2e/go.mod", "/etc/passwd", "/test/play.test.mjs", "/nothing.js"]) {
      assert.equal((await get(p)).status, 404, p);
    }
    // Another Host (DNS rebinding) is refused; curl-like clients can set it.
    const r = spawnSync("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", `Host: evil.example:${port}`, serverURL], { encoding: "utf8" });
    if (r.status === 0) assert.equal(r.stdout, "421");
    const api = await fetch(serverURL + "api", { method: "POST", headers: { "Content-Type": "text/plain" }, body: "{}" });
    assert.equal(api.status, 415);
    const cross = await fetch(serverURL + "api", { method: "POST", headers: { "Content-Type": "application/json", Origin: "http://evil.example" }, body: "{}" });
    assert.equal(cross.status, 403);
  });
});
