// The editor's highlighting: a small scanner of the language's tokens
// (comments, strings, numbers, names, punctuation) whose names are
// classified by the word table generated from the compiler's own tables
// (words.js: the lexer's keywords, the vocabulary, the test statements).
import { words } from "./words.js";

const classOf = new Map();
for (const w of words.keyword) classOf.set(w, "t-kw");
for (const kind of ["setting", "milestone", "outcome", "factory", "member", "unit", "attr", "op"]) {
  for (const w of words[kind]) if (!classOf.has(w)) classOf.set(w, "t-word");
}
const namespaces = new Set(words.namespace);
const testWords = new Set(words.test);

const nameStart = /[\p{L}_]/u;
const namePart = /[\p{L}\p{N}_]/u;

// tokens returns [from, to, class] for the highlighted tokens of src, in
// order, with offsets in UTF-16 code units (as the textarea counts).
export function tokens(src) {
  const out = [];
  const n = src.length;
  let i = 0;
  let prevDot = false;
  while (i < n) {
    const c = src[i];
    if (c === "/" && src[i + 1] === "/") {
      let j = src.indexOf("\n", i);
      if (j < 0) j = n;
      out.push([i, j, "t-comment"]);
      i = j;
      continue;
    }
    if (c === "/" && src[i + 1] === "*") {
      let j = src.indexOf("*/", i + 2);
      j = j < 0 ? n : j + 2;
      out.push([i, j, "t-comment"]);
      i = j;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < n && src[j] !== '"' && src[j] !== "\n") j += src[j] === "\\" ? 2 : 1;
      j = Math.min(j < n && src[j] === '"' ? j + 1 : j, n);
      out.push([i, j, "t-str"]);
      i = j;
      prevDot = false;
      continue;
    }
    if (c >= "0" && c <= "9") {
      let j = i + 1;
      while (j < n && /[0-9._]/.test(src[j])) j++;
      out.push([i, j, "t-num"]);
      i = j;
      prevDot = false;
      continue;
    }
    const cp = src.codePointAt(i);
    const ch = String.fromCodePoint(cp);
    if (nameStart.test(ch)) {
      let j = i + ch.length;
      while (j < n) {
        const d = String.fromCodePoint(src.codePointAt(j));
        if (!namePart.test(d)) break;
        j += d.length;
      }
      const w = src.slice(i, j);
      let cls = null;
      if (w === "test") {
        cls = /^\s*"/.test(src.slice(j, j + 40)) ? "t-kw" : null;
      } else if (!prevDot && words.keyword.includes(w)) {
        cls = "t-kw";
      } else if (namespaces.has(w) && src[j] === ".") {
        cls = "t-ns";
      } else if (testWords.has(w) && (prevDot || src[j] === "(")) {
        cls = prevDot || ["Send", "Take", "Start", "Fail"].includes(w) ? "t-test" : null;
        if (!cls && classOf.has(w)) cls = classOf.get(w);
      } else if (classOf.has(w)) {
        cls = classOf.get(w);
      }
      if (cls) out.push([i, j, cls]);
      i = j;
      prevDot = false;
      continue;
    }
    prevDot = c === "." ? true : /\s/.test(c) ? prevDot : false;
    i += ch.length;
  }
  return out;
}
