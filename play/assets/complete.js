// Completion in the editor (Ctrl+Space, or typing after a `.`): the words
// of the language from the generated table (words.js) — after `Backoff.`
// its factories, after `TimeSpan.` its units, after `Expect.` the
// expectations, after `).` the policy members — and elsewhere the keywords,
// settings, milestones and outcomes with the names the program declares
// (its states, events, slots, enums and members), filtered by the word
// being typed. It is a list, not an analysis: the language server's
// completion, which knows what fits where, is not exported for the page.
import { words } from "./words.js";

const byNamespace = {
  Backoff: words.factory,
  TimeSpan: words.unit,
  Expect: ["State", "End", "GaveUp", "Attempts", "Call"].filter((w) => words.test.includes(w)),
  Workflow: ["Once"],
};

// declared lists the names a program's files declare.
export function declared(texts) {
  const out = new Set();
  const re = /\b(?:state|terminal(?:\s+error)?|event|enum|entity|workflow|as)\s+([\p{L}_][\p{L}\p{N}_]*)/gu;
  for (const t of texts) {
    for (const m of t.matchAll(re)) out.add(m[1]);
    for (const m of t.matchAll(/\benum\s+[\p{L}_][\p{L}\p{N}_]*\s*\{([^}]*)\}/gu)) {
      for (const w of m[1].split(",")) if (/^\s*[\p{L}_][\p{L}\p{N}_]*\s*$/u.test(w)) out.add(w.trim());
    }
  }
  return [...out];
}

// candidates returns the completions at offset off of src, and where the
// word being typed starts.
export function candidates(src, off, names) {
  let start = off;
  while (start > 0 && /[\p{L}\p{N}_]/u.test(src[start - 1])) start--;
  const prefix = src.slice(start, off);
  let pool;
  if (src[start - 1] === ".") {
    const before = src.slice(0, start - 1);
    const ns = /([\p{L}_][\p{L}\p{N}_]*)\s*$/u.exec(before);
    if (ns && byNamespace[ns[1]]) pool = byNamespace[ns[1]];
    else if (/\)\s*$/.test(before)) pool = words.member;
    else pool = names;
  } else {
    pool = [...words.keyword, ...words.setting, ...words.milestone, ...words.outcome, ...words.namespace,
      "Send", "Take", "Start", "Fail", ...names];
  }
  const seen = new Set();
  const out = [];
  for (const w of pool) {
    if (seen.has(w) || !w.toLowerCase().startsWith(prefix.toLowerCase()) || w === prefix) continue;
    seen.add(w);
    out.push(w);
  }
  return { start, prefix, items: out.slice(0, 50) };
}

// Completer shows the list under an editor's caret and inserts the choice.
export class Completer {
  constructor(namesOf) {
    this.namesOf = namesOf;
    this.box = document.createElement("ul");
    this.box.className = "completions";
    this.box.id = "completions";
    this.box.setAttribute("role", "listbox");
    this.box.setAttribute("aria-label", "Completions");
    this.box.hidden = true;
    document.body.append(this.box);
    this.editor = null;
  }

  open(editor) {
    const ta = editor.ta;
    const res = candidates(ta.value, ta.selectionStart, this.namesOf());
    if (!res.items.length) { this.close(); return; }
    this.editor = editor;
    this.res = res;
    this.sel = 0;
    this.box.replaceChildren(...res.items.map((w, i) => {
      const li = document.createElement("li");
      li.id = "completion-" + i;
      li.setAttribute("role", "option");
      li.textContent = w;
      li.addEventListener("mousedown", (e) => { e.preventDefault(); this.sel = i; this.accept(); });
      return li;
    }));
    const at = editor.caretXY();
    this.box.style.left = at.x + "px";
    this.box.style.top = at.y + "px";
    this.box.hidden = false;
    ta.setAttribute("aria-controls", "completions");
    ta.setAttribute("aria-expanded", "true");
    this.mark();
  }

  close() {
    this.box.hidden = true;
    if (this.editor) {
      this.editor.ta.setAttribute("aria-expanded", "false");
      this.editor.ta.removeAttribute("aria-activedescendant");
    }
    this.editor = null;
  }

  mark() {
    [...this.box.children].forEach((li, i) => li.setAttribute("aria-selected", String(i === this.sel)));
    this.editor.ta.setAttribute("aria-activedescendant", "completion-" + this.sel);
    const li = this.box.children[this.sel];
    li && li.scrollIntoView({ block: "nearest" });
  }

  accept() {
    const ed = this.editor;
    const w = this.res.items[this.sel];
    const ta = ed.ta;
    ta.setSelectionRange(this.res.start, ta.selectionStart);
    document.execCommand("insertText", false, w);
    this.close();
  }

  // key handles a key in the editor; it returns true when it used it.
  key(e, editor) {
    if ((e.ctrlKey || e.metaKey) && e.key === " ") { e.preventDefault(); this.open(editor); return true; }
    if (this.box.hidden || this.editor !== editor) return false;
    const n = this.res.items.length;
    switch (e.key) {
      case "ArrowDown": this.sel = (this.sel + 1) % n; this.mark(); break;
      case "ArrowUp": this.sel = (this.sel + n - 1) % n; this.mark(); break;
      case "Enter": case "Tab": this.accept(); break;
      case "Escape": this.close(); break;
      default: return false;
    }
    e.preventDefault();
    return true;
  }

  // typed refreshes an open list, or opens one after a `.`.
  typed(editor, data) {
    if (data === ".") { this.open(editor); return; }
    if (!this.box.hidden && this.editor === editor) {
      if (data && /[\p{L}\p{N}_]/u.test(data)) this.open(editor); else this.close();
    }
  }
}
