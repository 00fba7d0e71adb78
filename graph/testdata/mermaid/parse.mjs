// Parses the Mermaid diagrams named on the command line with Mermaid's own
// parser (mermaid.parse: no layout, no browser); prints each diagram's type
// and exits 1 at the first that does not parse. Mermaid sanitizes labels
// with DOMPurify, which needs a DOM: jsdom provides one.
import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';

const { window } = new JSDOM('');
globalThis.window = window;
globalThis.document = window.document;
const { default: mermaid } = await import('mermaid');

mermaid.initialize({ startOnLoad: false });
for (const file of process.argv.slice(2)) {
  try {
    const res = await mermaid.parse(readFileSync(file, 'utf8'));
    console.log(`${file}: ${res.diagramType}`);
  } catch (e) {
    console.error(`${file}: ${e.message ?? e}`);
    process.exit(1);
  }
}
