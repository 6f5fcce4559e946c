// The static site's configuration (written into site/ by `npm run build:site`, loaded before the
// page's modules): the page uses the local back-end (backend/local.js: rules and engine in
// WebAssembly, games in IndexedDB) through the same interface as the server's (backend/remote.js
// describes it). The page itself never calls /api/. For scripts written against the served API
// (and the browser tests' helpers), fetch('/api/...') is answered here by the same back-end.
window.CHESS5D_BACKEND = 'local';
// Offline use: the service worker (sw.js) keeps every file of the site once it has been opened.
if ('serviceWorker' in navigator && location.protocol.startsWith('http')) {
  navigator.serviceWorker.register('./sw.js').catch((e) => console.warn('chess5d: no offline copy:', e.message));
}
(function () {
  'use strict';
  const backend = import('./backend/local.js').then((m) => m.backend);
  window.chess5dBackend = backend;
  const apiPath = (url) => {
    const u = new URL(String(url instanceof Request ? url.url : url), location.href);
    return u.origin === location.origin && u.pathname.startsWith('/api/') ? u.pathname + u.search : null;
  };
  const realFetch = window.fetch.bind(window);
  window.fetch = async function (input, init) {
    const path = apiPath(input);
    if (path === null) return realFetch(input, init);
    const method = ((init && init.method) || 'GET').toUpperCase();
    const body = init && typeof init.body === 'string' && init.body ? JSON.parse(init.body) : undefined;
    const b = await backend;
    try {
      // The status is the service's (crates/play's one table, as the server answers).
      const r = await b.respond(method, path, body);
      if (r.text) return new Response(r.ok, { status: r.status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
      return new Response(JSON.stringify(r.ok), { status: r.status, headers: { 'Content-Type': 'application/json' } });
    } catch (e) {
      // A refusal carries its kind, code and status; anything else failed outside the service
      // (the worker, IndexedDB): an internal error.
      const body = { error: e.message || String(e), kind: e.kind ?? 'internal', code: e.code };
      return new Response(JSON.stringify(body), { status: e.status ?? 500, headers: { 'Content-Type': 'application/json' } });
    }
  };
})();
