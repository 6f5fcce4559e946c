// The page's back-end interface, and its remote implementation (the server's REST + WebSocket
// API of API.md). The page never calls fetch or WebSocket for the API itself: it talks to one of
// two back-ends with the same shape, chosen by backend/index.js:
//   - remote (this file): `chess5d serve`, with online seats, the lobby and the archive;
//   - local (backend/local.js): rules and engine in WebAssembly, games in IndexedDB (the static
//     site; js/site-src/config.js selects it with window.CHESS5D_BACKEND = 'local').
//
// The interface:
//   backend.kind        'remote' or 'local'.
//   backend.features    what the back-end offers: { online, invites, lobby, archive, analysis,
//                       puzzleMaker, backup } (booleans; the page hides what is false). backup:
//                       exportAll() -> Promise<string> (every game, one multi-game 5DPGN) and
//                       importGames(text) -> Promise<{created, failed}> (the games of a backup:
//                       the static site's games live in one browser, a backup moves them).
//   backend.call(name, args?, headers?) -> Promise
//                       a typed call of the game service (crates/play's `call::Call`: name
//                       'create_game', 'game', 'act'...; args its fields: {id, body, query,
//                       action, n}), the same on both back-ends: this file sends it to its URL
//                       (the table of calls.js, the one place of the page that knows the
//                       API's URLs), local.js hands it to the WebAssembly service as it is. Its
//                       answer as request's below.
//   backend.address(name, args?) -> {method, path}   (remote only)
//                       the URL of a call (for the seat tokens online.js keeps per game).
//   backend.request(method, path, body?, headers?) -> Promise   (remote only)
//                       an API call ('/api/...'): the answer's JSON (or its text when it is not
//                       JSON, e.g. a 5DPGN export); rejects with an Error whose .kind is the
//                       refusal's kind (API.md: 'not_found', 'conflict'...) and .code its
//                       reason ('game_over'...). headers: e.g. the seat token
//                       (X-Chess5d-Seat), ignored where there are no seats.
//   backend.text(path) -> Promise<string>
//                       a text answer (5DPGN of a game, a puzzle, an analysis variation).
//                       A game's computer review goes through request too, the same on both:
//                       POST /api/games/:id/review starts it (the server's budgeted job, the
//                       static site's worker), GET .../review answers its progress and result
//                       (the server's JSON: `review` is `chess5d review --json`'s object),
//                       DELETE .../review stops it (API.md).
//   backend.watch(path, onMessage, { onOpen, reconnect }?) -> stop()
//                       the messages of a '/api/.../ws' path as objects, until stop() is called;
//                       onOpen(send) on every (re)connection (send(object) writes to the
//                       socket); reconnect (default true) reopens a closed connection after 1 s.

import { address } from './calls.js';

/** An API call to the server.
 * @param {string} method @param {string} path @param {any} [body] @param {Record<string, string>} [headers] */
async function request(method, path, body, headers = {}) {
  /** @type {Record<string, string>} */
  const sent = { ...headers };
  if (body !== undefined || method !== 'GET') sent['Content-Type'] = 'application/json';
  /** @type {RequestInit} */
  const opts = { method, headers: sent };
  if (body !== undefined) opts.body = JSON.stringify(body);
  const res = await fetch(path, opts);
  const text = await res.text();
  let data = null;
  let json = true;
  try { data = text ? JSON.parse(text) : null; } catch { json = false; data = { error: text }; }
  if (!res.ok) throw Object.assign(new Error((data && data.error) || `HTTP ${res.status}`), { status: res.status, kind: data && data.kind, code: data && data.code });
  return json ? data : text;
}

/** A text answer (5DPGN). @param {string} path */
async function text(path) {
  const res = await fetch(path);
  const body = await res.text();
  if (!res.ok) {
    let msg = body;
    try { msg = JSON.parse(body).error || body; } catch { /* plain text */ }
    throw Object.assign(new Error(msg || `HTTP ${res.status}`), { status: res.status });
  }
  return body;
}

/** A typed call, sent to its URL.
 * @param {string} name @param {any} [args] @param {Record<string, string>} [headers] */
function call(name, args = {}, headers = {}) {
  const { method, path } = address(name, args);
  return request(method, path, args.body, headers);
}

/**
 * @param {string} path @param {(message: any) => void} onMessage
 * @param {import('../types/backend.js').WatchOptions} [options]
 */
function watch(path, onMessage, { onOpen, reconnect = true } = {}) {
  /** @type {WebSocket | null} */
  let ws = null;
  let stopped = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const open = () => {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    ws = new WebSocket(`${proto}://${location.host}${path}`);
    const me = ws;
    ws.onopen = () => { if (!stopped && onOpen) onOpen((m) => me.send(JSON.stringify(m))); };
    ws.onmessage = (m) => { if (!stopped) onMessage(JSON.parse(m.data)); };
    ws.onclose = () => { if (!stopped && reconnect) timer = setTimeout(() => { if (!stopped) open(); }, 1000); };
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    if (ws) { ws.onclose = null; ws.onmessage = null; ws.close(); }
  };
}

/** @type {import('../types/backend.js').Backend} */
export const backend = {
  kind: 'remote',
  features: { online: true, invites: true, lobby: true, archive: true, analysis: true, puzzleMaker: true, backup: false },
  call,
  address,
  request,
  text,
  watch,
};
export default backend;
