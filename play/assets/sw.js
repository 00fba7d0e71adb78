// The static build's service worker: the page works offline once loaded.
// It caches every file the build lists (version.json) when installed, and
// answers from the network first, from the cache when offline, so a new
// build is picked up at once while a lost connection loses nothing.
"use strict";
const PREFIX = "wfc-play-";

self.addEventListener("install", (e) => {
  e.waitUntil((async () => {
    const v = await (await fetch("version.json", { cache: "no-store" })).json();
    const cache = await caches.open(PREFIX + v.version);
    await cache.addAll(["./", "version.json", ...v.files]);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (e) => {
  e.waitUntil((async () => {
    let v = null;
    try { v = await (await fetch("version.json", { cache: "no-store" })).json(); } catch (err) { /* offline: keep every cache */ }
    if (v) {
      for (const k of await caches.keys()) {
        if (k.startsWith(PREFIX) && k !== PREFIX + v.version) await caches.delete(k);
      }
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (e) => {
  const req = e.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  e.respondWith((async () => {
    try {
      return await fetch(req);
    } catch (err) {
      const hit = await caches.match(req, { ignoreSearch: true });
      if (hit) return hit;
      throw err;
    }
  })());
});
