// The static site's configuration (written into site/ by `npm run build:site`, loaded before the
// page's modules): the page uses the local back-end (backend/local.js: rules and engine in
// WebAssembly, games in IndexedDB) through the same interface as the server's (backend/remote.js
// describes it). The page itself never calls /api/. For scripts written against the served API
// (and the browser tests' helpers), fetch('/api/...') is answered here by the same back-end.
window.CHESS5D_BACKEND = 'local';
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
      const r = await b.request(method, path, body);
      if (typeof r === 'string') return new Response(r, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
      return new Response(JSON.stringify(r), { status: method === 'POST' && /^\/api\/(games|analysis|user-puzzles|puzzles\/[^/]+)$/.test(path) ? 201 : 200, headers: { 'Content-Type': 'application/json' } });
    } catch (e) {
      return new Response(JSON.stringify({ error: e.message || String(e) }), { status: e.status || 400, headers: { 'Content-Type': 'application/json' } });
    }
  };
})();
