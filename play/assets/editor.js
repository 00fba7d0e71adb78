// A light editor: a <textarea> (which keeps the browser's own editing,
// undo, selection, IME and accessibility) over a <pre> that draws the
// same text highlighted, with diagnostics underlined and coverage marked.
// Both use one monospace font without wrapping, so a character's place in
// one is its place in the other; offsets are UTF-16 code units, as the
// handler sends them.
import { tokens } from "./highlight.js";

const TAB = 4;

// hidden are the characters drawn as a mark: bidi controls, zero-width
// and other invisible format characters (as wfc's diag.Escape sees them).
const hidden = /([\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff])/u;

export class Editor {
  // host: the element to draw in; name: the file's name; text: its text.
  // opts.onInput(editor) after each edit; opts.onCaret(editor, marks)
  // when the caret moves into or out of marked text.
  constructor(host, name, text, opts = {}) {
    this.name = name;
    this.opts = opts;
    this.marks = [];
    this.el = document.createElement("div");
    this.el.className = "editor";
    this.gutter = document.createElement("div");
    this.gutter.className = "gutter";
    this.gutter.setAttribute("aria-hidden", "true");
    const scroller = document.createElement("div");
    scroller.className = "scroller";
    this.pre = document.createElement("pre");
    this.pre.setAttribute("aria-hidden", "true");
    this.ta = document.createElement("textarea");
    this.ta.spellcheck = false;
    this.ta.wrap = "off";
    this.ta.setAttribute("autocapitalize", "off");
    this.ta.setAttribute("autocomplete", "off");
    this.ta.setAttribute("aria-label", `${name}: source (Tab indents; Escape then Tab leaves the editor)`);
    this.ta.dataset.file = name;
    this.ta.value = text;
    scroller.append(this.pre, this.ta);
    this.el.append(this.gutter, scroller);
    host.append(this.el);
    this.ta.addEventListener("input", (e) => {
      this.render();
      opts.onInput && opts.onInput(this);
      opts.completer && opts.completer.typed(this, e.data);
    });
    this.ta.addEventListener("blur", () => opts.completer && opts.completer.close());
    this.ta.addEventListener("scroll", () => this.sync());
    this.ta.addEventListener("keydown", (e) => this.key(e));
    this.ta.addEventListener("mousemove", (e) => this.hover(e));
    this.ta.addEventListener("mouseleave", () => opts.onHover && opts.onHover(this, null));
    for (const ev of ["keyup", "click", "focus"]) this.ta.addEventListener(ev, () => this.caret());
    this.escaped = false;
    this.render();
  }

  get value() { return this.ta.value; }
  set value(v) {
    if (v === this.ta.value) return;
    // Replace through the editing commands where the browser has them, so
    // a fix or a format can be undone with Ctrl+Z.
    this.ta.focus({ preventScroll: true });
    this.ta.select();
    if (!document.execCommand || !document.execCommand("insertText", false, v)) this.ta.value = v;
    if (this.ta.value !== v) this.ta.value = v;
    this.ta.setSelectionRange(0, 0);
    this.render();
  }

  show(on) { this.el.hidden = !on; if (on) this.sync(); }

  // setMarks replaces the marks: [{from, to, cls, message}].
  setMarks(marks) {
    this.marks = marks.slice(0, 2000);
    this.render();
  }

  render() {
    const src = this.ta.value;
    const toks = tokens(src);
    const marks = this.marks.map((m) => {
      let { from, to } = m;
      from = Math.max(0, Math.min(from, src.length));
      to = Math.max(from, Math.min(to, src.length));
      if (from === to) { // an empty range: mark the character after it, or before at a line's end
        if (from < src.length && src[from] !== "\n") to = from + 1;
        else if (from > 0 && src[from - 1] !== "\n") from -= 1;
      }
      return { ...m, from, to };
    });
    const pts = new Set([0, src.length]);
    for (const [a, b] of toks) { pts.add(a); pts.add(b); }
    for (const m of marks) { pts.add(m.from); pts.add(m.to); }
    const cuts = [...pts].sort((a, b) => a - b);
    const frag = document.createDocumentFragment();
    let ti = 0;
    for (let k = 0; k + 1 < cuts.length; k++) {
      const a = cuts[k], b = cuts[k + 1];
      if (a === b) continue;
      while (ti < toks.length && toks[ti][1] <= a) ti++;
      const cls = [];
      if (ti < toks.length && toks[ti][0] <= a && toks[ti][1] >= b) cls.push(toks[ti][2]);
      for (const m of marks) if (m.from <= a && m.to >= b && m.cls) cls.push(m.cls);
      const text = src.slice(a, b);
      // Bidi controls and invisible characters are drawn as a thin red
      // mark instead of acting on the text, so the source reads in the
      // order it is stored (a "Trojan Source" line reads as it runs).
      const parts = text.split(hidden);
      let node = frag;
      if (cls.length) {
        node = document.createElement("span");
        node.className = cls.join(" ");
        frag.append(node);
      }
      for (const part of parts) {
        if (!part) continue;
        if (hidden.test(part) && part.length <= 2) {
          const m = document.createElement("span");
          m.className = "t-hidden";
          node.append(m);
        } else {
          node.append(part);
        }
      }
    }
    frag.append("\n ");
    this.pre.replaceChildren(frag);
    // The gutter: line numbers, marked where a diagnostic starts.
    const lines = src.split("\n").length;
    const sev = new Map();
    for (const m of marks) {
      if (!m.severity) continue;
      const line = this.lineOf(m.from);
      if (m.severity === "error" || !sev.has(line)) sev.set(line, m.severity);
    }
    const g = document.createDocumentFragment();
    for (let i = 1; i <= lines; i++) {
      const d = document.createElement("div");
      d.textContent = String(i);
      if (sev.has(i)) d.className = "has-" + sev.get(i);
      g.append(d);
    }
    this.gutter.replaceChildren(g);
    this.sync();
  }

  sync() {
    this.pre.scrollTop = this.ta.scrollTop;
    this.pre.scrollLeft = this.ta.scrollLeft;
    this.gutter.scrollTop = this.ta.scrollTop;
  }

  lineOf(off) {
    let line = 1;
    const src = this.ta.value;
    for (let i = 0; i < off && i < src.length; i++) if (src[i] === "\n") line++;
    return line;
  }

  // reveal selects from..to, scrolls it into view and focuses the editor.
  reveal(from, to) {
    this.ta.focus({ preventScroll: true });
    this.ta.setSelectionRange(from, Math.max(from, to));
    const m = this.metrics();
    const line = this.lineOf(from) - 1;
    const y = line * m.lineH;
    if (y < this.ta.scrollTop || y > this.ta.scrollTop + this.ta.clientHeight - 2 * m.lineH) {
      this.ta.scrollTop = Math.max(0, y - this.ta.clientHeight / 3);
    }
    this.sync();
    this.caret();
  }

  metrics() {
    if (!this._m) {
      const probe = document.createElement("span");
      probe.textContent = "x".repeat(100);
      this.pre.append(probe);
      const w = probe.getBoundingClientRect().width / 100;
      probe.remove();
      const cs = getComputedStyle(this.ta);
      this._m = { charW: w || 7.8, lineH: parseFloat(cs.lineHeight) || 20, padL: parseFloat(cs.paddingLeft), padT: parseFloat(cs.paddingTop) };
    }
    return this._m;
  }

  // offsetAt is the offset under a point of the screen, or -1.
  offsetAt(clientX, clientY) {
    const m = this.metrics();
    const r = this.ta.getBoundingClientRect();
    const x = clientX - r.left - m.padL + this.ta.scrollLeft;
    const y = clientY - r.top - m.padT + this.ta.scrollTop;
    if (x < 0 || y < 0) return -1;
    const line = Math.floor(y / m.lineH);
    const col = Math.floor(x / m.charW);
    const src = this.ta.value;
    let off = 0;
    for (let l = 0; l < line; l++) {
      const nl = src.indexOf("\n", off);
      if (nl < 0) return -1;
      off = nl + 1;
    }
    let vis = 0;
    while (off < src.length && src[off] !== "\n") {
      const w = src[off] === "\t" ? TAB - (vis % TAB) : 1;
      if (col < vis + w) return off;
      vis += w;
      off += src.codePointAt(off) > 0xffff ? 2 : 1;
    }
    return -1;
  }

  marksAt(off) {
    return this.marks.filter((m) => m.message && (m.from <= off && off < Math.max(m.to, m.from + 1)));
  }

  hover(e) {
    const off = this.offsetAt(e.clientX, e.clientY);
    const ms = off < 0 ? [] : this.marksAt(off);
    this.opts.onHover && this.opts.onHover(this, ms.length ? { marks: ms, x: e.clientX, y: e.clientY } : null);
  }

  caret() {
    const off = this.ta.selectionStart;
    const ms = this.marksAt(off);
    const key = ms.map((m) => m.message).join("\n");
    if (key !== this._caretKey) {
      this._caretKey = key;
      this.opts.onCaret && this.opts.onCaret(this, ms);
    }
  }

  // caretXY is where, on the screen, a list under the caret goes.
  caretXY() {
    const m = this.metrics();
    const r = this.ta.getBoundingClientRect();
    const src = this.ta.value;
    const off = this.ta.selectionStart;
    const lineStart = src.lastIndexOf("\n", off - 1) + 1;
    let vis = 0;
    for (let i = lineStart; i < off; i++) vis += src[i] === "\t" ? TAB - (vis % TAB) : 1;
    const line = this.lineOf(off) - 1;
    return { x: r.left + m.padL + vis * m.charW - this.ta.scrollLeft, y: r.top + m.padT + (line + 1) * m.lineH - this.ta.scrollTop };
  }

  key(e) {
    const ta = this.ta;
    if (this.opts.completer && this.opts.completer.key(e, this)) return;
    if (e.key === "Escape") { this.escaped = true; return; }
    if (e.key === "Tab" && !e.ctrlKey && !e.altKey && !e.metaKey) {
      if (this.escaped) { this.escaped = false; return; } // leave the editor
      e.preventDefault();
      if (e.shiftKey) return;
      document.execCommand("insertText", false, "  ");
      return;
    }
    this.escaped = false;
    if (e.key === "Enter" && !e.ctrlKey && !e.metaKey && !e.altKey && !e.shiftKey) {
      const src = ta.value;
      const start = src.lastIndexOf("\n", ta.selectionStart - 1) + 1;
      const indent = /^[ \t]*/.exec(src.slice(start, ta.selectionStart))[0];
      const extra = src[ta.selectionStart - 1] === "{" ? "  " : "";
      if (indent || extra) {
        e.preventDefault();
        document.execCommand("insertText", false, "\n" + indent + extra);
      }
    }
  }
}
