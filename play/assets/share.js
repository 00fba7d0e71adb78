// Sharing: the program and its tests live in the URL's fragment, deflated
// and in base64url, so a link holds them and nothing is sent anywhere (a
// fragment never reaches a server). The browser's own CompressionStream
// does the compression: no third-party code.

const PREFIX = "#z=";

function toBase64url(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(s) {
  const b = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
  return out;
}

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

// encode returns the fragment for files ([{name, text}]).
export async function encode(files) {
  const json = new TextEncoder().encode(JSON.stringify({ v: 1, files }));
  return PREFIX + toBase64url(await pipe(json, new CompressionStream("deflate-raw")));
}

// decode reads files from a fragment, or returns null. A fragment is
// anyone's input: it must hold a list of {name, text} strings, and names
// are checked again by the handler.
export async function decode(hash) {
  if (!hash.startsWith(PREFIX)) return null;
  try {
    const raw = await pipe(fromBase64url(hash.slice(PREFIX.length)), new DecompressionStream("deflate-raw"));
    if (raw.length > 4 << 20) return null;
    const doc = JSON.parse(new TextDecoder().decode(raw));
    if (!doc || !Array.isArray(doc.files)) return null;
    const files = doc.files.filter((f) => f && typeof f.name === "string" && typeof f.text === "string").slice(0, 32);
    // A name the handler would refuse (it takes letters, digits, _, - and
    // ., ending in .wf) is replaced, so a link cannot make every request fail.
    const seen = new Set();
    return files.length ? files.map((f, i) => {
      let name = f.name;
      if (!/^[A-Za-z0-9_.-]{1,96}\.wf$/.test(name) || seen.has(name)) name = `file${i + 1}${/_test\.wf$/.test(f.name) ? "_test" : ""}.wf`;
      seen.add(name);
      return { name, text: f.text };
    }) : null;
  } catch (e) {
    return null;
  }
}
