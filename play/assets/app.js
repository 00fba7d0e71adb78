// The playground's page: files in editors, diagnostics as you type,
// fixes, format, and the views (schedule timelines, state graphs, test
// runs with their run timelines and coverage, the simulator). Everything
// wfc computes comes from the backend (backend.js); this module only shows
// it. Text from a program is only ever put in the page as text
// (textContent); pictures come from wfc's own SVG renderer, parsed as SVG
// and checked to hold only its elements before they are shown.
import { openBackend } from "./backend.js";
import { Editor } from "./editor.js";
import { encode, decode } from "./share.js";
import { examples } from "./examples.js";
import { Completer, declared } from "./complete.js";

const $ = (id) => document.getElementById(id);

// visible makes a text from a program safe to read: control, bidi and
// invisible characters become escapes (\u202e), as wfc's own output and
// pictures write them, so a name cannot read differently from what it is.
// Line breaks and tabs stay.
export function visible(s) {
  return String(s).replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\u2028\u2029]/g,
    (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}
// Timings, in ms since navigation began (performance.now()'s origin):
// start is when this script began to run, opened when the backend was
// known (the static build's worker started), backendReady when wfc could
// answer, ready when the first diagnostics were shown.
const timings = (window.wfcTimings = { start: performance.now(), checks: [] });

const state = {
  files: [], // [{name, text}]
  editors: new Map(), // name → Editor
  active: { program: null, tests: null },
  focused: null, // the last editor used
  diags: [],
  tests: null,
  cover: false,
  view: "problems",
  sim: null, // the simulator's scenario
  checkSeq: 0,
};
let backend;
const completer = new Completer(() => declared(state.files.map((f) => f.text)));

const isTest = (name) => name.endsWith("_test.wf");

// ---------- status, theme ----------

function status(text, bad = false) {
  const s = $("status");
  s.textContent = visible(text);
  s.classList.toggle("bad", bad);
}

function initTheme() {
  const sel = $("theme");
  let saved = "";
  try { saved = localStorage.getItem("wfc-theme") || ""; } catch (e) { /* storage may be off */ }
  sel.value = saved;
  const apply = () => {
    if (sel.value) document.documentElement.dataset.theme = sel.value;
    else delete document.documentElement.dataset.theme;
    try { localStorage.setItem("wfc-theme", sel.value); } catch (e) { /* ignore */ }
  };
  sel.addEventListener("change", apply);
  apply();
}

// ---------- files and editors ----------

function setFiles(files) {
  for (const ed of state.editors.values()) ed.el.remove();
  state.editors.clear();
  state.files = files.map((f) => ({ name: f.name, text: f.text }));
  state.active = { program: null, tests: null };
  for (const f of state.files) addEditor(f);
  const firstP = state.files.find((f) => !isTest(f.name));
  const firstT = state.files.find((f) => isTest(f.name));
  state.active.program = firstP ? firstP.name : null;
  state.active.tests = firstT ? firstT.name : null;
  state.sim = null;
  state.tests = null;
  renderTabs();
}

function addEditor(f) {
  const pane = isTest(f.name) ? "#tests-pane" : "#program-pane";
  const host = document.querySelector(pane + " .editor-host");
  const ed = new Editor(host, f.name, f.text, {
    completer,
    onInput: (e) => { fileOf(e.name).text = e.value; state.focused = e.name; changed(); },
    onHover: (e, h) => tooltip(h),
    onCaret: (e, ms) => { state.focused = e.name; if (ms.length) status(ms.map((m) => m.message).join(" · ")); },
  });
  state.editors.set(f.name, ed);
}

function fileOf(name) { return state.files.find((f) => f.name === name); }

function renderTabs() {
  for (const [pane, key] of [["#program-pane", "program"], ["#tests-pane", "tests"]]) {
    const tabs = document.querySelector(pane + " .tabs");
    tabs.replaceChildren();
    for (const f of state.files) {
      if (isTest(f.name) !== (key === "tests")) continue;
      const b = document.createElement("button");
      b.type = "button";
      b.setAttribute("role", "tab");
      b.textContent = f.name;
      b.dataset.file = f.name;
      const on = state.active[key] === f.name;
      b.setAttribute("aria-selected", String(on));
      b.tabIndex = on ? 0 : -1;
      b.addEventListener("click", () => { state.active[key] = f.name; renderTabs(); state.editors.get(f.name).ta.focus(); });
      tabs.append(b);
    }
  }
  for (const [name, ed] of state.editors) ed.show(state.active.program === name || state.active.tests === name);
}

function addFile(test) {
  let base = test ? "more_test.wf" : "more.wf";
  for (let k = 2; fileOf(base); k++) base = test ? `more${k}_test.wf` : `more${k}.wf`;
  const f = { name: base, text: test ? "" : "" };
  state.files.push(f);
  addEditor(f);
  state.active[test ? "tests" : "program"] = f.name;
  renderTabs();
  state.editors.get(f.name).ta.focus();
  changed();
}

// ---------- requests ----------

async function call(req, opts = {}) {
  return backend.call({ ...req, files: state.files }, opts);
}

let checkTimer = 0, viewTimer = 0, hashTimer = 0;

function changed() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, 120);
  clearTimeout(hashTimer);
  hashTimer = setTimeout(saveHash, 400);
  clearTimeout(viewTimer);
  if (state.view === "schedule" || state.view === "graph") viewTimer = setTimeout(refreshView, 350);
}

async function check() {
  const seq = ++state.checkSeq;
  const t0 = performance.now();
  let resp;
  try {
    resp = await call({ op: "check" });
  } catch (e) {
    status("wfc: " + e.message, true);
    return;
  }
  if (seq !== state.checkSeq) return; // an older answer
  const ms = performance.now() - t0;
  timings.checks.push(ms);
  timings.lastCheck = ms;
  if (resp.error) { status(resp.error, true); return; }
  state.diags = resp.diagnostics || [];
  showDiagnostics();
  const e = resp.errors, w = resp.warnings;
  status(`${e} error${e === 1 ? "" : "s"}, ${w} warning${w === 1 ? "" : "s"} · checked in ${ms.toFixed(0)} ms (${backend.kind === "wasm" ? "WebAssembly" : "wfc play"})`, e > 0);
  if (!timings.ready) {
    timings.ready = performance.now();
    document.body.dataset.ready = "1";
  }
  document.body.dataset.checks = String(timings.checks.length);
}

function showDiagnostics() {
  applyMarks();
  const ul = $("problems");
  ul.replaceChildren();
  $("problem-count").textContent = state.diags.length ? String(state.diags.length) : "";
  if (!state.diags.length) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = "No problems.";
    ul.append(li);
    return;
  }
  state.diags.forEach((d, i) => {
    const li = document.createElement("li");
    li.dataset.code = d.code;
    li.dataset.file = d.file;
    li.dataset.line = String(d.line);
    const where = document.createElement("button");
    where.type = "button";
    where.className = "where";
    where.textContent = `${d.file}:${d.line}:${d.column}`;
    where.title = "Go to the problem";
    where.addEventListener("click", () => reveal(d.file, d.from, d.to));
    const sev = document.createElement("span");
    sev.className = "sev-" + d.severity;
    sev.textContent = `${d.severity}[${d.code}]`;
    const msg = document.createElement("span");
    msg.className = "msg";
    msg.textContent = visible(d.message);
    li.append(where, sev, msg);
    (d.fixes || []).forEach((f, k) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "fix";
      b.textContent = visible((f.machine_applicable ? "Fix: " : "Apply: ") + f.title);
      b.addEventListener("click", () => applyFix(i, k, d.code));
      li.append(b);
    });
    ul.append(li);
  });
}

// applyMarks draws the diagnostics, the failed expectations and (when
// asked) what no test covered, in each file's editor.
function applyMarks() {
  const byFile = new Map();
  const add = (file, m) => { if (!byFile.has(file)) byFile.set(file, []); byFile.get(file).push(m); };
  for (const d of state.diags) {
    add(d.file, { from: d.from, to: d.to, cls: "d-" + d.severity, severity: d.severity, message: `${d.severity}[${d.code}]: ${d.message}` });
  }
  if (state.tests) {
    for (const t of state.tests.tests) {
      for (const f of t.failures) add(f.file, { from: f.from, to: f.to, cls: "d-fail", severity: "error", message: `test "${t.name}": ${f.expect}: ${f.message}` });
    }
    if (state.cover && state.tests.coverage) {
      for (const w of state.tests.coverage) {
        for (const it of w.items) if (!it.covered) add(it.file, { from: it.from, to: it.to, cls: "c-miss", message: "not covered: " + it.what });
      }
    }
  }
  for (const [name, ed] of state.editors) ed.setMarks(byFile.get(name) || []);
}

function reveal(file, from, to) {
  const ed = state.editors.get(file);
  if (!ed) return;
  state.active[isTest(file) ? "tests" : "program"] = file;
  renderTabs();
  ed.reveal(from, to);
}

async function applyFix(index, fix, code) {
  const resp = await call({ op: "fix", diagnostic: index, fix, code });
  if (resp.error) { status(resp.error, true); return; }
  replaceFiles(resp.files || []);
}

function replaceFiles(files) {
  for (const f of files) {
    const mine = fileOf(f.name);
    if (!mine) continue;
    mine.text = f.text;
    state.editors.get(f.name).value = f.text;
  }
  changed();
}

async function format() {
  const name = state.focused && fileOf(state.focused) ? state.focused : state.active.program;
  if (!name) return;
  const resp = await call({ op: "format", file: name });
  if (resp.error) { status(resp.error, true); return; }
  replaceFiles(resp.files || []);
  status(`formatted ${name}`);
}

// ---------- tooltips ----------

function tooltip(h) {
  const tip = $("tooltip");
  if (!h) { tip.hidden = true; return; }
  tip.replaceChildren();
  h.marks.forEach((m, i) => {
    if (i) tip.append("\n");
    tip.append(visible(m.message));
  });
  tip.hidden = false;
  tip.style.left = Math.min(h.x + 12, window.innerWidth - 540) + "px";
  tip.style.top = h.y + 18 + "px";
}

// ---------- pictures ----------

const svgElements = new Set(["svg", "title", "desc", "style", "g", "rect", "line", "text", "circle", "path", "polygon"]);

// picture parses an SVG made by wfc's renderer and returns it as a node,
// after checking that it holds only the renderer's elements and no
// handler or link (defence in depth: the renderer escapes every text, and
// the page's Content-Security-Policy runs no inline script anyway).
export function picture(svgText) {
  const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const root = doc.documentElement;
  if (root.nodeName !== "svg") return document.createTextNode("(no picture)");
  for (const el of root.querySelectorAll("*")) {
    if (!svgElements.has(el.localName)) { el.remove(); continue; }
    for (const a of [...el.attributes]) {
      if (/^on/i.test(a.name) || /href$/i.test(a.name)) el.removeAttribute(a.name);
    }
  }
  root.querySelectorAll("style").forEach((s) => s.remove());
  // On the page a picture's parts are buttons (a state, a timeline): it is
  // a group named by its title, not an image whose parts are hidden.
  const title = root.querySelector("title");
  root.setAttribute("role", "group");
  if (title) root.setAttribute("aria-label", title.textContent);
  return document.importNode(root, true);
}

function show(hostId, svgText) {
  const host = $(hostId);
  host.replaceChildren(svgText ? picture(svgText) : document.createTextNode(""));
  return host;
}

// ---------- views ----------

function selectView(name) {
  state.view = name;
  for (const tab of document.querySelectorAll(".view-tabs [role=tab]")) {
    const on = tab.id === "tab-" + name;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    $(tab.getAttribute("aria-controls")).hidden = !on;
  }
  refreshView();
}

async function refreshView() {
  switch (state.view) {
    case "schedule": return showSchedule();
    case "graph": return showGraph();
    case "tests": if (!state.tests) return runTests(); return;
    case "sim": if (!state.sim) return simReset(); return;
  }
}

async function showSchedule() {
  const resp = await call({ op: "schedule" });
  if (resp.error) { status(resp.error, true); return; }
  if (resp.errors > 0) {
    show("schedule-pic", "");
    $("schedule-pic").textContent = "The program has errors, so it has no schedule (see Problems).";
    $("schedule-text").textContent = "";
    return;
  }
  const host = show("schedule-pic", resp.svg);
  $("schedule-text").textContent = visible(resp.text);
  for (const g of host.querySelectorAll(".timeline")) {
    keyboard(g, `Go to ${g.querySelector("text").textContent}`);
    g.addEventListener("click", () => revealLine(g.dataset.file, +g.dataset.line, +g.dataset.column));
  }
}

// revealLine jumps to a line and column (1-based, code points).
function revealLine(file, line, col) {
  const f = fileOf(file);
  if (!f) return;
  let off = 0;
  for (let l = 1; l < line; l++) off = f.text.indexOf("\n", off) + 1;
  let k = 1;
  while (k < col && off < f.text.length) { off += f.text.codePointAt(off) > 0xffff ? 2 : 1; k++; }
  reveal(file, off, off);
}

async function showGraph() {
  const resp = await call({ op: "graph" });
  if (resp.error) { status(resp.error, true); return; }
  const host = $("graph-pic");
  host.replaceChildren();
  for (const w of resp.workflows || []) host.append(picture(w.svg));
  if (!(resp.workflows || []).length) host.textContent = "No workflow to draw.";
  wireStates(host);
}

// keyboard makes a part of a picture a button a keyboard reaches.
function keyboard(el, label) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", label);
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); el.dispatchEvent(new MouseEvent("click")); }
  });
}

// wireStates makes a picture's states jump to their declarations.
function wireStates(host) {
  for (const g of host.querySelectorAll("[data-state]")) {
    keyboard(g, `Go to state ${g.dataset.state}`);
    g.addEventListener("click", () => {
      const name = g.dataset.state;
      for (const f of state.files) {
        const m = new RegExp(`(state|terminal(\\s+error)?)\\s+${name.replace(/[^\p{L}\p{N}_]/gu, "")}\\b`, "u").exec(f.text);
        if (m) { reveal(f.name, m.index, m.index + m[0].length); return; }
      }
    });
  }
}

// ---------- tests ----------

let testRun = null;

async function runTests() {
  selectViewQuiet("tests");
  if (testRun) testRun.abort();
  const ctl = new AbortController();
  testRun = ctl;
  $("run").hidden = true;
  $("stop").hidden = false;
  status("running the tests…");
  const t0 = performance.now();
  let resp;
  try {
    resp = await call({ op: "test", cover: true }, { lane: "run", signal: ctl.signal });
  } catch (e) {
    if (e.name === "AbortError") status("the test run was stopped");
    else status("wfc: " + e.message, true);
    return;
  } finally {
    if (testRun === ctl) { testRun = null; $("run").hidden = false; $("stop").hidden = true; }
  }
  timings.lastTestRun = performance.now() - t0;
  const host = $("tests");
  host.replaceChildren();
  host.className = "tests";
  if (resp.error) { status(resp.error, true); return; }
  if (resp.errors > 0) {
    state.tests = null;
    host.textContent = "The program has errors; no test was run (see Problems).";
    status("FAIL: the program has errors; no test was run", true);
    $("test-count").textContent = "";
    return;
  }
  state.tests = resp.tests;
  const rep = resp.tests;
  $("test-count").textContent = `${rep.passed}/${rep.passed + rep.failed}`;
  for (const t of rep.tests) host.append(testBlock(t));
  if (!rep.tests.length) host.textContent = "No tests to run: write `test \"…\" { … }` in a *_test.wf file.";
  if (rep.coverage) {
    const p = document.createElement("p");
    p.className = "hint";
    p.textContent = visible("Coverage: " + rep.coverage.map((w) => `${w.workflow} ${w.percent.toFixed(1)}%`).join(", "));
    host.append(p);
  }
  applyMarks();
  const verdict = rep.failed ? "FAIL" : "PASS";
  status(`${verdict}: ${rep.passed} passed, ${rep.failed} failed · ${timings.lastTestRun.toFixed(0)} ms`, rep.failed > 0);
  document.body.dataset.tests = verdict;
}

function selectViewQuiet(name) {
  if (state.view !== name) {
    state.view = name;
    for (const tab of document.querySelectorAll(".view-tabs [role=tab]")) {
      const on = tab.id === "tab-" + name;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      $(tab.getAttribute("aria-controls")).hidden = !on;
    }
  }
}

function testBlock(t) {
  const div = document.createElement("div");
  div.className = "test " + (t.passed ? "pass" : "fail");
  div.dataset.name = t.name;
  div.dataset.verdict = t.passed ? "PASS" : "FAIL";
  const head = document.createElement("p");
  const v = document.createElement("span");
  v.className = "verdict";
  v.textContent = t.passed ? "--- PASS" : "--- FAIL";
  const name = document.createElement("button");
  name.type = "button";
  name.className = "where";
  name.textContent = visible(t.name);
  name.title = "Go to the test";
  name.addEventListener("click", () => reveal(t.file, t.from, t.from));
  head.append(v, " ", name, visible(` (${t.workflow})`));
  div.append(head);
  if (t.error) {
    const e = document.createElement("p");
    e.className = "failure";
    e.textContent = visible("the run stopped: " + t.error);
    div.append(e);
  }
  for (const f of t.failures) {
    const e = document.createElement("p");
    e.className = "failure";
    const w = document.createElement("button");
    w.type = "button";
    w.className = "where";
    w.textContent = `${f.file}:${f.line}:${f.column}`;
    w.addEventListener("click", () => reveal(f.file, f.from, f.to));
    e.append(w, visible(` ${f.expect}: ${f.message}`));
    div.append(e);
  }
  const lines = transcriptList(t.lines, new Set(t.failures.map((f) => f.entry)));
  if (t.svg) {
    const pic = document.createElement("div");
    pic.className = "pic";
    pic.append(picture(t.svg));
    linkEntries(pic, lines);
    wireStates(pic);
    div.append(pic);
  }
  const det = document.createElement("details");
  det.open = !t.passed;
  const sum = document.createElement("summary");
  sum.textContent = `Transcript (${t.lines.length} entries)`;
  det.append(sum, lines);
  div.append(det);
  return div;
}

function transcriptList(lines, bad = new Set()) {
  const ol = document.createElement("ol");
  ol.className = "transcript";
  ol.start = 0;
  lines.forEach((l, i) => {
    const li = document.createElement("li");
    li.textContent = visible(l);
    li.dataset.entry = String(i);
    if (bad.has(i)) li.className = "bad";
    ol.append(li);
  });
  return ol;
}

// linkEntries makes each mark of a run timeline show its transcript line.
function linkEntries(pic, ol) {
  for (const g of pic.querySelectorAll("[data-entry]")) {
    g.addEventListener("click", () => {
      const li = ol.querySelector(`li[data-entry="${g.dataset.entry}"]`);
      if (!li) return;
      ol.closest("details") && (ol.closest("details").open = true);
      for (const x of ol.querySelectorAll(".hit")) x.classList.remove("hit");
      li.classList.add("hit");
      li.scrollIntoView({ block: "nearest" });
    });
  }
}

// ---------- the simulator ----------

function simReset(workflow) {
  state.sim = { workflow: workflow || "", actions: [], failures: [], now: 0, history: [] };
  return simStep();
}

async function simStep() {
  const s = state.sim;
  const resp = await call({ op: "sim", sim: { workflow: s.workflow, actions: s.actions, failures: s.failures, now: s.now, name: $("sim-name").value } }, { lane: "run" });
  $("sim-error").textContent = "";
  if (resp.error) {
    $("sim-error").textContent = visible(resp.error + (resp.diagnostics ? "\n" + resp.diagnostics.filter((d) => d.severity === "error").map((d) => d.message).join("\n") : ""));
    if (s.history.length) { const prev = s.history.pop(); Object.assign(s, prev); }
    return;
  }
  const st = resp.sim;
  s.workflow = st.workflow;
  s.now = st.now;
  s.last = st;
  renderSim(st);
}

function simDo(mutate) {
  const s = state.sim;
  s.history.push({ actions: s.actions.slice(), failures: s.failures.map((f) => ({ ...f })), now: s.now });
  mutate(s);
  return simStep();
}

function renderSim(st) {
  const wsel = $("sim-workflow");
  wsel.replaceChildren(...st.workflows.map((w) => { const o = document.createElement("option"); o.value = w; o.textContent = visible(w); return o; }));
  wsel.value = st.workflow;
  const where = !st.started ? "not started" : st.ended ? `ended in ${st.state}` : `in ${st.state}`;
  $("sim-where").textContent = visible(`${st.now_text}: ${where}`);
  $("sim-where").dataset.state = st.state;
  $("sim-start").hidden = !st.can_start;
  const next = $("sim-next");
  next.disabled = !st.has_next;
  next.textContent = st.has_next ? `Advance to the next deadline (${st.next_text})` : "No deadline ahead";
  // Events.
  const evs = $("sim-events");
  evs.replaceChildren();
  for (const ev of st.events) {
    const row = document.createElement("div");
    row.className = "row" + (ev.subscribed ? "" : " off");
    const inputs = ev.params.map((p) => {
      let el;
      if (p.members && p.members.length) {
        el = document.createElement("select");
        for (const m of p.members) { const o = document.createElement("option"); o.value = m; o.textContent = visible(m); el.append(o); }
      } else {
        el = document.createElement("input");
        el.size = 10;
        el.value = p.type === "string" ? '""' : p.type === "int" || p.type === "decimal" ? "0" : p.type === "bool" ? "true" : p.type === "TimeSpan" ? "TimeSpan.Zero" : p.name;
      }
      el.setAttribute("aria-label", `${ev.name}: ${p.type} ${p.name}`);
      return el;
    });
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = visible(`Send ${ev.name}`);
    b.dataset.event = ev.name;
    b.title = ev.subscribed ? `${st.state} subscribes to ${ev.name}` : `${st.state || "the run"} does not accept ${ev.name} now: it will be rejected`;
    b.addEventListener("click", () => simDo((s) => s.actions.push({ kind: "send", at: s.now, event: ev.name, args: inputs.map((i) => i.value) })));
    row.append(b, ...inputs);
    evs.append(row);
  }
  if (!st.events.length) evs.textContent = "The workflow declares no event.";
  const slots = $("sim-slots");
  slots.replaceChildren();
  for (const sl of st.slots) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = visible(`Take ${sl}`);
    b.dataset.slot = sl;
    b.addEventListener("click", () => simDo((s) => s.actions.push({ kind: "take", at: s.now, slot: sl })));
    slots.append(b);
  }
  if (!st.slots.length) slots.textContent = "No slot to take in this state.";
  const steps = $("sim-steps");
  steps.replaceChildren();
  for (const name of st.steps) {
    const row = document.createElement("div");
    row.className = "row";
    const f = state.sim.failures.find((x) => x.step === name) || { step: name, times: 0, always: false };
    const n = document.createElement("input");
    n.type = "number"; n.min = "0"; n.value = String(f.times || 0); n.style.width = "5em";
    n.setAttribute("aria-label", `attempts of ${name} that fail`);
    const all = document.createElement("input");
    all.type = "checkbox"; all.checked = !!f.always;
    const lab = document.createElement("label");
    lab.append(all, " every attempt");
    const upd = () => simDo((s) => {
      s.failures = s.failures.filter((x) => x.step !== name);
      const times = Math.max(0, parseInt(n.value, 10) || 0);
      if (all.checked || times > 0) s.failures.push({ step: name, times, always: all.checked });
    });
    n.addEventListener("change", upd);
    all.addEventListener("change", upd);
    const l = document.createElement("span");
    l.textContent = visible(`"${name}": fail the first`);
    row.append(l, n, "attempts, or", lab);
    steps.append(row);
  }
  if (!st.steps.length) steps.textContent = "The workflow has no durable step.";
  const g = show("sim-graph", st.graph);
  wireStates(g);
  const lines = transcriptList(st.lines);
  const pic = show("sim-run", st.svg);
  linkEntries(pic, lines);
  wireStates(pic);
  $("sim-lines").replaceWith(lines);
  lines.id = "sim-lines";
  $("sim-save").disabled = !st.started;
}

function simAdvanceBy() {
  const t = parseDuration($("sim-by").value);
  if (t === null) { $("sim-error").textContent = "write a duration such as 30s, 5m, 1h30m or 250ms"; return; }
  return simDo((s) => { s.now = Math.min(s.now + t, Number.MAX_SAFE_INTEGER); });
}

// parseDuration reads wfc's duration notation (1d2h3m4s5ms) into ticks.
function parseDuration(text) {
  const re = /(\d+(?:\.\d+)?)(ms|d|h|m|s)/gy;
  const per = { d: 864e9, h: 36e9, m: 6e8, s: 1e7, ms: 1e4 };
  const s = text.trim();
  if (!s) return null;
  let t = 0, at = 0, m;
  re.lastIndex = 0;
  while ((m = re.exec(s))) { t += Math.round(parseFloat(m[1]) * per[m[2]]); at = re.lastIndex; }
  return at === s.length ? t : null;
}

function simSave() {
  const st = state.sim && state.sim.last;
  if (!st || !st.test) return;
  let name = state.active.tests;
  if (!name) {
    const f = { name: "main_test.wf", text: "" };
    for (let k = 2; fileOf(f.name); k++) f.name = `main${k}_test.wf`;
    state.files.push(f);
    addEditor(f);
    name = f.name;
    state.active.tests = name;
    renderTabs();
  }
  const f = fileOf(name);
  const sep = f.text && !f.text.endsWith("\n\n") ? (f.text.endsWith("\n") ? "\n" : "\n\n") : "";
  f.text = f.text + sep + st.test;
  state.editors.get(name).value = f.text;
  changed();
  status(`saved the run as a test in ${name}`);
  document.body.dataset.saved = name;
}

// ---------- sharing ----------

async function saveHash() {
  try {
    const h = await encode(state.files);
    history.replaceState(null, "", location.pathname + location.search + h);
  } catch (e) { /* a browser without CompressionStream: no link */ }
}

async function share() {
  await saveHash();
  try {
    await navigator.clipboard.writeText(location.href);
    status("Link copied: it holds the program; nothing was sent anywhere.");
  } catch (e) {
    status("The address bar holds the link to this program.");
  }
}

// ---------- start ----------

function loadExample(name) {
  const ex = examples.find((e) => e.name === name);
  if (ex) { setFiles(ex.files); changed(); }
}

async function main() {
  // The backend is opened first (the static build's worker then fetches
  // and compiles wfc while the page lays itself out).
  backend = openBackend();
  timings.opened = performance.now();
  document.body.dataset.backend = backend.kind;
  initTheme();
  const sel = $("example");
  for (const ex of examples) {
    const o = document.createElement("option");
    o.value = ex.name;
    o.textContent = ex.name;
    sel.append(o);
  }
  sel.addEventListener("change", () => { if (sel.value) loadExample(sel.value); });
  const shared = await decode(location.hash);
  if (shared) setFiles(shared);
  else { setFiles(examples[0].files); sel.value = examples[0].name; }
  $("format").addEventListener("click", format);
  $("run").addEventListener("click", runTests);
  $("stop").addEventListener("click", () => testRun && testRun.abort());
  $("share").addEventListener("click", share);
  for (const b of document.querySelectorAll(".pane .add")) b.addEventListener("click", () => addFile(b.dataset.test === "1"));
  const tabs = [...document.querySelectorAll(".view-tabs [role=tab]")];
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => selectView(tab.id.slice(4)));
    tab.addEventListener("keydown", (e) => {
      const d = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
      if (!d) return;
      const next = tabs[(i + d + tabs.length) % tabs.length];
      next.focus();
      selectView(next.id.slice(4));
    });
  });
  $("cover").addEventListener("change", (e) => { state.cover = e.target.checked; applyMarks(); });
  $("sim-workflow").addEventListener("change", (e) => simReset(e.target.value));
  $("sim-start").addEventListener("click", () => simDo((s) => s.actions.push({ kind: "start", at: s.now })));
  $("sim-next").addEventListener("click", () => { const st = state.sim.last; if (st && st.has_next) simDo((s) => { s.now = st.next; }); });
  $("sim-advance").addEventListener("click", simAdvanceBy);
  $("sim-undo").addEventListener("click", () => { const s = state.sim; if (s && s.history.length) { Object.assign(s, s.history.pop()); simStep(); } });
  $("sim-reset").addEventListener("click", () => simReset(state.sim && state.sim.workflow));
  $("sim-save").addEventListener("click", simSave);
  document.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === "Enter") { e.preventDefault(); runTests(); }
    if (e.altKey && e.shiftKey && (e.key === "F" || e.key === "f")) { e.preventDefault(); format(); }
  });
  window.addEventListener("hashchange", async () => {
    const files = await decode(location.hash);
    if (files && JSON.stringify(files) !== JSON.stringify(state.files)) { setFiles(files); changed(); }
  });
  if (backend.kind === "wasm") {
    // The first check is sent at once: the worker answers it as soon as
    // wfc has started, with nothing in between.
    status("Loading wfc (WebAssembly)…");
    backend.ready().then(() => {
      timings.wasm = backend.timing();
      timings.backendReady = performance.now();
    }, (e) => status("wfc could not start: " + e.message, true));
  } else {
    timings.backendReady = performance.now();
  }
  await check();
  // What the first diagnostics do not need waits for them, so it never
  // competes with them: the worker for test runs, and the service worker
  // (which fetches every file of the page again to keep them offline).
  backend.settled();
  if (backend.kind === "wasm" && "serviceWorker" in navigator) navigator.serviceWorker.register("sw.js").catch(() => {});
}

main();
