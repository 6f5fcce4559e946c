// The static site's configuration (written into site/ by `npm run build:site`): the page uses the
// local back-end (rules and engine in WebAssembly, games in IndexedDB). Loaded before the page's
// scripts. Until every call of the page goes through the back-end interface, the API's fetches
// and WebSockets are answered here by the local back-end, in the page: nothing goes to /api/.
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
    // Tests wait for this event where they would wait for the server's HTTP response.
    const told = (status) => setTimeout(() => dispatchEvent(new CustomEvent('chess5d-api', { detail: { method, path, status } })));
    try {
      const r = await b.request(method, path, body);
      told(200);
      if (typeof r === 'string') return new Response(r, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
      return new Response(JSON.stringify(r), { status: method === 'POST' && /^\/api\/(games|analysis|user-puzzles|puzzles\/[^/]+)$/.test(path) ? 201 : 200, headers: { 'Content-Type': 'application/json' } });
    } catch (e) {
      told(e.status || 400);
      return new Response(JSON.stringify({ error: e.message || String(e) }), { status: e.status || 400, headers: { 'Content-Type': 'application/json' } });
    }
  };
  const RealWebSocket = window.WebSocket;
  class LocalSocket {
    constructor(url) {
      this.url = String(url);
      this.readyState = 0;
      this.onopen = this.onmessage = this.onclose = this.onerror = null;
      const path = new URL(this.url.replace(/^ws/, 'http')).pathname;
      backend.then((b) => {
        if (this.readyState === 3) return;
        this.readyState = 1;
        if (this.onopen) this.onopen({});
        this.stop = b.watch(path, (m) => { if (this.readyState === 1 && this.onmessage) this.onmessage({ data: JSON.stringify(m) }); });
      });
    }
    send() {}
    close() { this.readyState = 3; if (this.stop) this.stop(); }
  }
  LocalSocket.CONNECTING = 0; LocalSocket.OPEN = 1; LocalSocket.CLOSING = 2; LocalSocket.CLOSED = 3;
  window.WebSocket = function (url, protocols) {
    const u = new URL(String(url).replace(/^ws/, 'http'));
    if (u.host === location.host && u.pathname.startsWith('/api/')) return new LocalSocket(url);
    return new RealWebSocket(url, protocols);
  };
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
})();
