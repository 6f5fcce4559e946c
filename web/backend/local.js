// The local back-end of the static site: the game service (crates/local, chess5d-play in
// WebAssembly) answers the page's requests itself, with the server's rules, checks and JSON.
// This file only carries out what the service asks for: rows kept in IndexedDB (so games survive
// a reload), messages to the page's watchers, and work in Web Workers (engine-worker.js: the
// engine's searches, the analysis, the puzzle maker's proof, a game's computer review). Nothing
// here needs a second person,
// so there are no seats, invites, lobby or archive (features below).
import init, { Backend } from '../pkg/chess5d_local.js';
import { address, callOf } from './calls.js';

/** What the service asks for after a request (chess5d_play's effects, as crates/local writes
 * them): rows to store and delete, made puzzles, reviews, engine work to start or stop, messages
 * for the watchers, a puzzle to prove. */
/** @typedef {{store: {id: number}[], delete: number[], made: {id: string}[], store_review: {id: number}[], stop_review: number[], review: EngineTask[], stop: number[], think: EngineTask[], analyse: AnalyseTask[], notify: {path: string, message: any}[], prove?: any}} Effects */
/** Engine work the service hands out (a search, a review), read by engine-worker.js. */
/** @typedef {{game: number, version: number} & Record<string, any>} EngineTask */
/** An analysis board's engine to run. */
/** @typedef {{board: number} & Record<string, any>} AnalyseTask */
/** A refusal of the service: its kind, code, message and HTTP status. */
/** @typedef {{kind: string, code?: string, message: string, status?: number}} Refusal */
/** The service's answer: ok (the call's answer) and effects, or error. */
/** @typedef {{ok?: any, effects: Effects, error?: Refusal}} Answer */

const here = import.meta.url;

// --- IndexedDB: store `games` of {id, record, summary}, store `puzzles` of made puzzles, store
// `reviews` of {id, review} (a game's ended computer review, as GET /api/games/:id/review) ---
const DB = 'chess5d-local';
/** @type {Promise<IDBDatabase> | null} */
let dbPromise = null;
/** @returns {Promise<IDBDatabase>} */
function db() {
  dbPromise ??= new Promise((resolve, reject) => {
    const r = indexedDB.open(DB, 3);
    r.onupgradeneeded = () => {
      for (const name of ['games', 'puzzles', 'reviews']) {
        if (!r.result.objectStoreNames.contains(name)) r.result.createObjectStore(name, { keyPath: 'id' });
      }
    };
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  return dbPromise;
}
/** A transaction on `store`: `f`'s request's result once it completes.
 * @param {IDBTransactionMode} mode @param {(st: IDBObjectStore) => IDBRequest | void} f @param {string} [store]
 * @returns {Promise<any>} */
async function tx(mode, f, store = 'games') {
  const d = await db();
  return new Promise((resolve, reject) => {
    const t = d.transaction(store, mode);
    const out = f(t.objectStore(store));
    t.oncomplete = () => resolve(out && 'result' in out ? out.result : undefined);
    t.onerror = () => reject(t.error);
    t.onabort = () => reject(t.error || new Error('IndexedDB: transaction aborted'));
  });
}

const now = () => new Date().toISOString().slice(0, 19).replace('T', ' ');

// --- the service, with the stored games and made puzzles loaded ---
const service = (async () => {
  await init({ module_or_path: new URL('../pkg/chess5d_local_bg.wasm', here) });
  const res = await fetch(new URL('../puzzles.json', here));
  const s = new Backend(res.ok ? await res.text() : '{"puzzles":[]}');
  for (const row of await tx('readonly', (st) => st.getAll())) s.load_game(row.record);
  for (const p of await tx('readonly', (st) => st.getAll(), 'puzzles')) s.load_made(JSON.stringify(p));
  for (const r of await tx('readonly', (st) => st.getAll(), 'reviews')) s.load_review(JSON.stringify(r));
  return s;
})();
service.then((s) => carry(JSON.parse(s.wake(now())).effects));

const watchers = new Map(); // path -> Set(callback)

/** A refusal of the service as the page's Error: its kind, code, message and the HTTP status the
 * server answers it with (the service says which). */
/** @param {Refusal} e */
function refused(e) {
  return Object.assign(new Error(e.message), { kind: e.kind, code: e.code, status: e.status });
}

/** Does what the service asked for after a request. */
/** @param {Effects} fx */
async function carry(fx) {
  /** @type {Promise<any>[]} */
  const writes = [];
  for (const row of fx.store) writes.push(tx('readwrite', (st) => st.put(row)));
  for (const id of fx.delete) writes.push(tx('readwrite', (st) => st.delete(id)), tx('readwrite', (st) => st.delete(id), 'reviews'));
  for (const p of fx.made) writes.push(tx('readwrite', (st) => st.put(p), 'puzzles'));
  for (const r of fx.store_review) writes.push(tx('readwrite', (st) => st.put(r), 'reviews'));
  for (const id of fx.stop_review) stopReview(id);
  for (const r of fx.review) review(r);
  for (const id of fx.stop) stopAnalysis(id);
  for (const t of fx.think) think(t);
  for (const a of fx.analyse) analyse(a);
  await Promise.all(writes);
  for (const { path, message } of fx.notify) for (const f of watchers.get(path) ?? []) f(message);
}

/** The service's answer to a typed call (calls.js), its effects carried out: `{ok, text,
 * status}` (`status`: the server's HTTP status for it). */
/** @param {string} name @param {Record<string, any>} [args] @returns {Promise<Answer>} */
async function respond(name, args = {}) {
  const s = await service;
  await judgeFirst(s, name, args); // (a mistake's puzzle answer: searched in a worker)
  const r = JSON.parse(s.call(JSON.stringify({ ...args, call: name }), now()));
  if (r.error) throw refused(r.error);
  await carry(r.effects);
  if (r.effects.prove) return prove(s, r.effects.prove);
  return r;
}
/** A typed call's answer. @param {string} name @param {Record<string, any>} [args] */
const call = async (name, args) => (await answered(name, args)).ok;

// --- the engine worker ---
/** @type {Worker | null} */
let worker = null;
let seq = 0;
/** @type {Map<number, EngineTask>} message id -> the service's task */
const tasks = new Map();
/** @param {EngineTask} task */
function think(task) {
  if (!worker) {
    const w = new Worker(new URL('./engine-worker.js', here), { type: 'module' });
    worker = w;
    w.onmessage = async (e) => {
      const { id, moves, info, error, ms } = e.data;
      const t = tasks.get(id);
      tasks.delete(id);
      if (!t) return;
      backend.lastEngineMs = ms ?? null;
      const s = await service;
      await carry(JSON.parse(s.engine_done(t.game, t.version, moves ?? '', info ?? '', error ?? undefined, now())).effects);
    };
    w.onerror = () => { worker = null; };
  }
  tasks.set(++seq, task);
  worker.postMessage({ id: seq, task });
}

// Clocks: the side to move loses on time whether or not anyone watches.
setInterval(async () => {
  const s = await service;
  if (s.clocks_running()) await carry(JSON.parse(s.tick(now())).effects);
}, 200);

// --- analysis boards: each one's engine in a worker of its own ---
/** @type {Map<number, Worker>} board id -> its engine's worker */
const analysing = new Map();
/** @param {number} id */
function stopAnalysis(id) {
  const w = analysing.get(id);
  if (w) { w.terminate(); analysing.delete(id); }
}
/** @param {AnalyseTask} a */
function analyse(a) {
  stopAnalysis(a.board);
  const w = new Worker(new URL('./engine-worker.js', here), { type: 'module' });
  analysing.set(a.board, w);
  w.onmessage = async (e) => {
    if (analysing.get(a.board) !== w) return;
    const s = await service;
    const info = e.data.engine ? JSON.stringify(e.data.engine) : '';
    await carry(JSON.parse(s.analysis_info(a.board, info, e.data.error ?? undefined)).effects);
  };
  w.postMessage({ id: a.board, analyse: a });
}

// --- computer reviews: each one in a worker of its own, reporting after each position ---
/** @type {Map<number, Worker>} game id -> its review's worker */
const reviewing = new Map();
/** @param {number} id */
function stopReview(id) {
  const w = reviewing.get(id);
  if (w) { w.terminate(); reviewing.delete(id); }
}
/** @param {EngineTask} task */
function review(task) {
  stopReview(task.game);
  const w = new Worker(new URL('./engine-worker.js', here), { type: 'module' });
  reviewing.set(task.game, w);
  w.onmessage = async (e) => {
    if (reviewing.get(task.game) !== w) return;
    const { report, error } = e.data;
    if (error || report.startsWith('{"review"')) stopReview(task.game);
    const s = await service;
    await carry(JSON.parse(s.review_report(task.game, report ?? '', error ?? undefined)).effects);
  };
  w.onerror = async (e) => {
    if (reviewing.get(task.game) !== w) return;
    stopReview(task.game);
    const s = await service;
    await carry(JSON.parse(s.review_report(task.game, '', e.message || 'the worker failed')).effects);
  };
  w.postMessage({ id: task.game, review: task });
}

// --- judging a mistake's puzzle answer: its search runs in a worker of its own (up to the
// review's budget, about a second), never on the page's thread; the service judges the submit
// with the worker's figure ---
/** @param {Backend} s @param {string} name @param {Record<string, any>} args */
async function judgeFirst(s, name, args) {
  const id = name === 'act' && args.action === 'submit' ? Number(args.id) : NaN;
  const task = Number.isInteger(id) ? s.judge_task(id) : '';
  if (!task) return;
  const w = new Worker(new URL('./engine-worker.js', here), { type: 'module' });
  try {
    const win = await new Promise((resolve, reject) => {
      w.onmessage = (e) => (e.data.error ? reject(new Error(e.data.error)) : resolve(e.data.win));
      w.onerror = (e) => reject(new Error(e.message || 'the judge failed'));
      w.postMessage({ id: 1, judge: JSON.parse(task) });
    });
    s.judge_given(id, win);
  } finally {
    w.terminate();
  }
}

// --- the puzzle maker: the proof runs in a worker of its own ---
/** @param {Backend} s @param {any} task @returns {Promise<Answer>} */
async function prove(s, task) {
  const w = new Worker(new URL('./engine-worker.js', here), { type: 'module' });
  /** @type {{error?: Refusal} & Record<string, any>} */
  let made;
  try {
    made = await new Promise((resolve, reject) => {
      w.onmessage = (e) => resolve(e.data.made ?? { error: { kind: 'internal', message: e.data.error } });
      w.onerror = (e) => reject(new Error(e.message || 'the proof failed'));
      w.postMessage({ id: 1, puzzle: task });
    });
  } finally {
    w.terminate();
  }
  if (made.error) throw refused(made.error);
  const r = JSON.parse(s.puzzle_made(JSON.stringify(made)));
  if (r.error) throw refused(r.error);
  await carry(r.effects);
  return r;
}

/** Every saved game as one multi-game 5DPGN. */
async function exportAll() {
  const { games } = await call('games');
  /** @type {string[]} */
  const texts = [];
  for (const g of games.sort((/** @type {{id: number}} */ x, /** @type {{id: number}} */ y) => x.id - y.id)) texts.push((await call('game_pgn', { id: g.id })).trim());
  return texts.join('\n\n') + '\n';
}

/** A backup restored (the multi-game 5DPGN of exportAll): `{created: [ids], failed: [{game,
 * line, message}]}`; each game is saved as it is made. */
/** @param {string} text */
async function importGames(text) {
  const s = await service;
  const r = JSON.parse(s.import_games(text, now()));
  await carry(r.effects);
  return r.ok;
}

/** The interface's typed call (see remote.js; no seats here, so headers are ignored), as
 * `{ok, text, status}`. Each answer is also told as a `chess5d-api` event ({method, path, kind},
 * the call's URL as the server has it) on the window: tests wait for it where they would wait
 * for the server's HTTP response. */
/** @param {string} name @param {Record<string, any>} [args] @returns {Promise<Answer>} */
async function answered(name, args = {}) {
  const told = (/** @type {string | null} */ kind) => setTimeout(() => {
    let at = { method: '?', path: name };
    try { at = address(name, args); } catch { /* an unknown call: its name */ }
    dispatchEvent(new CustomEvent('chess5d-api', { detail: { ...at, kind } }));
  });
  try {
    const r = await respond(name, args);
    told(null);
    return r;
  } catch (e) {
    told(e.kind ?? 'internal');
    throw e;
  }
}

/** @type {import('../types/backend.js').Backend} */
export const backend = {
  kind: 'local',
  features: { online: false, invites: false, lobby: false, archive: false, analysis: true, puzzleMaker: true, backup: true },
  call,
  /** The answer with its HTTP status, as the server gives it, of a method and URL path (for
   * scripts' `fetch` on the static site: the URL read back into its call by calls.js's table). */
  async respond(method, path, body) {
    const c = callOf(method, path, body);
    if (!c) throw Object.assign(new Error(`no ${method} ${path.split('?')[0]}`), { kind: 'not_found', code: 'no_request', status: 404 });
    return answered(c.name, c.args);
  },
  watch(path, onMessage, { onOpen } = {}) {
    if (onOpen) onOpen(() => {}); // nothing to say to a local game (no seats)
    let set = watchers.get(path);
    if (!set) watchers.set(path, (set = new Set()));
    set.add(onMessage);
    // The first message, as the server's socket sends it: the state now. (The watched path is
    // the socket's URL, `/api/games/:id/ws` or `/api/analysis/:id/ws`: the one the service's
    // effects name.)
    const [, kind, id] = path.split('/').slice(1);
    const board = kind === 'analysis';
    call(board ? 'analysis' : 'game', { id }).then((v) => onMessage(board ? { engine: v.engine } : v)).catch(() => {
      if (!board) onMessage({ deleted: Number(id) });
    });
    return () => {
      set.delete(onMessage);
      // As on the server: when the board's socket closes, the board is dropped.
      if (board && !set.size) call('delete_analysis', { id }).catch(() => {});
    };
  },
  exportAll,
  importGames,
  lastEngineMs: null,
};
export default backend;
