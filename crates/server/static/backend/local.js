// The local back-end of the static site: the API of API.md answered in the browser. Games are
// chess5d-play in WebAssembly (the server's own JSON), the engine thinks in a Web Worker
// (engine-worker.js), games are kept in IndexedDB and survive a reload. Nothing here needs a
// second person, so there are no seats, invites, lobby or archive (features below).
import init, { LocalGame, info, puzzle_info } from '../pkg/chess5d_local.js';

const here = import.meta.url;
const ready = init({ module_or_path: new URL('../pkg/chess5d_local_bg.wasm', here) });

class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}
const bad = (m) => new ApiError(400, m);
const notFound = (m) => new ApiError(404, m);

// --- IndexedDB: store `games` of {id, record, summary} ---
const DB = 'chess5d-local';
let dbPromise = null;
function db() {
  dbPromise ??= new Promise((resolve, reject) => {
    const r = indexedDB.open(DB, 2);
    r.onupgradeneeded = () => {
      for (const name of ['games', 'puzzles']) {
        if (!r.result.objectStoreNames.contains(name)) r.result.createObjectStore(name, { keyPath: 'id' });
      }
    };
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  return dbPromise;
}
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
const dbGet = (id) => tx('readonly', (s) => s.get(id));
const dbAll = () => tx('readonly', (s) => s.getAll());
const dbPut = (row) => tx('readwrite', (s) => s.put(row));
const dbDelete = (id) => tx('readwrite', (s) => s.delete(id));
const madeAll = () => tx('readonly', (s) => s.getAll(), 'puzzles'); // {id: n, name, mate_in, to_move, pgn}
const madePut = (p) => tx('readwrite', (s) => s.put(p), 'puzzles');

const now = () => new Date().toISOString().slice(0, 19).replace('T', ' ');

// --- games in memory ---
const games = new Map(); // id -> LocalGame
const watchers = new Map(); // path -> Set(callback)

async function load(id) {
  await ready;
  if (games.has(id)) return games.get(id);
  const row = await dbGet(id);
  if (!row) throw notFound(`no game ${id}`);
  const g = LocalGame.restore(row.record);
  games.set(id, g);
  kick(id, g);
  return g;
}

async function nextId() {
  const rows = await dbAll();
  return rows.reduce((m, r) => Math.max(m, r.id), 0) + 1;
}

async function save(id, g) {
  const t = now();
  await dbPut({ id, record: g.record(t), summary: JSON.parse(g.summary(t)) });
}

function view(g, at) { return JSON.parse(g.view(at)); }

/** After a change: store, tell the watchers, ask the engine if it is to move. */
async function changed(id, g) {
  kick(id, g);
  await save(id, g);
  notify(id, g);
}
function notify(id, g) {
  const set = watchers.get(`/api/games/${id}/ws`);
  if (set) { const v = view(g); for (const f of set) f(v); }
}

// --- the engine worker ---
let worker = null;
let seq = 0;
const pending = new Map(); // task id -> {id, g, version}
function kick(id, g) {
  if (!g.engine_to_move()) return;
  worker ??= startWorker();
  g.set_engine_busy(true);
  const task = JSON.parse(g.engine_task());
  const n = ++seq;
  pending.set(n, { id, g, version: g.version() });
  worker.postMessage({ id: n, task });
}
function startWorker() {
  const w = new Worker(new URL('./engine-worker.js', here), { type: 'module' });
  w.onmessage = async (e) => {
    const p = pending.get(e.data.id);
    pending.delete(e.data.id);
    if (!p || games.get(p.id) !== p.g) return;
    if (p.g.version() !== p.version) { // the game changed meanwhile (resigned, deleted...)
      if (p.g.engine_to_move === undefined) return;
      p.g.set_engine_busy(false);
      await changed(p.id, p.g);
      return;
    }
    backend.lastEngineMs = e.data.ms;
    if (e.data.error) p.g.engine_failed(e.data.error);
    else {
      try { p.g.engine_apply(e.data.moves, e.data.info); } catch (err) { p.g.engine_failed(err.message); }
    }
    await changed(p.id, p.g);
  };
  w.onerror = (e) => {
    for (const [n, p] of pending) { pending.delete(n); p.g.engine_failed(e.message || 'the engine worker failed'); changed(p.id, p.g); }
    worker = null;
  };
  return w;
}

// Clocks: the side to move loses on time whether or not anyone watches.
setInterval(() => {
  for (const [id, g] of games) if (g.clock_running() && g.check_time()) changed(id, g);
}, 200);

// --- puzzles: the server's list, bundled at build time ---
let puzzleList = null;
async function puzzles() {
  puzzleList ??= fetch(new URL('../puzzles.json', here)).then((r) => (r.ok ? r.json() : { puzzles: [] }));
  return puzzleList;
}

// --- the routes ---
function parse(path) {
  const u = new URL(path, 'http://local');
  return { parts: u.pathname.replace(/^\/api\//, '').split('/').filter(Boolean), q: u.searchParams };
}

async function request(method, path, body) {
  await ready;
  const { parts, q } = parse(path);
  const [head, a, b] = parts;
  const wrap = (f) => { try { return f(); } catch (e) { throw e instanceof ApiError ? e : bad(e.message || String(e)); } };
  if (head === 'info' && method === 'GET') return JSON.parse(info());
  if (head === 'games' && !a) {
    if (method === 'GET') {
      const rows = await dbAll();
      return { games: rows.map((r) => r.summary).sort((x, y) => y.id - x.id) };
    }
    if (method === 'POST') {
      const id = await nextId();
      const g = wrap(() => LocalGame.create(JSON.stringify(body ?? {}), id, now()));
      games.set(id, g);
      await changed(id, g);
      return { ...view(g), seat: null, invite: null };
    }
  }
  if (head === 'games' && a) {
    const id = Number(a);
    if (!Number.isInteger(id)) throw notFound(`no game ${a}`);
    const g = await load(id);
    if (!b && method === 'GET') {
      const at = q.get('at');
      return view(g, at === null ? undefined : Number(at));
    }
    if (!b && method === 'DELETE') {
      games.delete(id);
      await dbDelete(id);
      for (const f of watchers.get(`/api/games/${id}/ws`) ?? []) f({ deleted: id });
      return { deleted: id };
    }
    if (b === 'moves' && method === 'GET') {
      return wrap(() => JSON.parse(g.moves(Number(q.get('l')), Number(q.get('t')), q.get('square') ?? '')));
    }
    if (b === 'pgn' && method === 'GET') return g.pgn();
    if (method === 'POST' && ['move', 'undo', 'submit', 'resign', 'draw', 'abort'].includes(b)) {
      try { g.act(b, JSON.stringify(body ?? {})); } catch (e) {
        const m = e.message || String(e);
        throw new ApiError(/over|turn|no move|already|no draw|too late|engines do not/.test(m) ? 409 : 400, m);
      }
      await changed(id, g);
      return view(g);
    }
    if (method === 'POST' && b === 'retry-engine') {
      throw new ApiError(409, 'the engine has had no problem to retry');
    }
  }
  if (head === 'user-puzzles' && !a && method === 'POST') return makePuzzle(body ?? {});
  if (head === 'puzzles') {
    const builtin = (await puzzles()).puzzles.map((p) => ({ ...p, ...JSON.parse(puzzle_info(p.pgn)) }));
    const made = (await madeAll()).sort((x, y) => x.id - y.id).map((p) => ({ ...p, id: `user-${p.id}`, made: true }));
    const list = [...builtin, ...made];
    if (!a && method === 'GET') {
      const rows = await dbAll();
      const status = new Map();
      for (const r of rows) {
        const p = JSON.parse(r.record).puzzle;
        if (p && p.status !== 'playing' && status.get(p.id) !== 'solved') status.set(p.id, p.status);
      }
      return { puzzles: list.map(({ pgn, ...p }) => ({ ...p, status: status.get(p.id) ?? 'unsolved' })) };
    }
    const p = list.find((x) => x.id === a);
    if (!p) throw notFound(`no puzzle ${a}`);
    if (b === 'pgn' && method === 'GET') return p.pgn;
    if (!b && method === 'POST') {
      const id = await nextId();
      const g = wrap(() => LocalGame.puzzle(posed(p.pgn), p.id, p.name, p.mate_in, id, now()));
      games.set(id, g);
      await changed(id, g);
      return view(g);
    }
  }
  if (head === 'analysis') return analysisRequest(method, a, b, q, body, wrap);
  if (head === 'my-games' && method === 'POST') return { games: [] };
  if (head === 'challenges' && method === 'GET') return { challenges: [] };
  throw notFound(`${method} /api/${parts.join('/')} is not available in the static site (it needs chess5d serve)`);
}

// --- analysis boards: a scratch game (two humans) and the engine's analysis in its own worker ---
const boards = new Map(); // id -> {g, from, base, info, worker}
let nextBoard = 0;
const idleInfo = () => ({ running: false, depth: 0, eval: null, nodes: 0, nps: 0, pv: [], lines: [], error: null });
/** The count of best lines asked for (`multipv` of POST .../start), checked as the server checks it. */
const MAX_LINES = 8;
function multipvOf(body) {
  const v = body?.multipv;
  if (v === undefined || v === null) return 3;
  if (Number.isInteger(v) && v >= 1 && v <= MAX_LINES) return v;
  throw bad(`'multipv' must be a whole number from 1 to ${MAX_LINES}, got ${JSON.stringify(v)}`);
}
function boardState(id, bd) {
  return { ...view(bd.g), fen: bd.g.fen(), analysis: { id, game: bd.from, base_actions: bd.base, tried: Math.max(0, bd.g.action_count() - bd.base) } };
}
function boardNotify(id, bd) {
  for (const f of watchers.get(`/api/analysis/${id}/ws`) ?? []) f({ engine: bd.info });
}
function boardStop(id, bd) {
  if (bd.worker) { bd.worker.terminate(); bd.worker = null; }
  bd.info.running = false;
}
function boardStart(id, bd, multipv) {
  boardStop(id, bd);
  const task = JSON.parse(bd.g.engine_task());
  bd.info = { ...idleInfo(), running: true };
  const w = new Worker(new URL('./engine-worker.js', here), { type: 'module' });
  bd.worker = w;
  w.onmessage = (e) => {
    if (bd.worker !== w) return;
    if (e.data.error) { bd.info = { ...bd.info, running: false, error: `the engine failed: ${e.data.error}` }; boardStop(id, bd); }
    else bd.info = { ...bd.info, ...e.data.engine };
    boardNotify(id, bd);
  };
  w.postMessage({ id, analyse: { start: task.start, actions: task.actions, multipv } });
}
async function analysisRequest(method, a, b, q, body, wrap) {
  if (!a && method === 'POST') {
    body ??= {};
    if (body.game !== undefined && body.import !== undefined) throw bad("give either 'game' or 'import', not both");
    if (body.game === undefined && body.import === undefined) throw bad("give 'game' (an id) or 'import' (a text)");
    const id = ++nextBoard;
    let g, from = null, gamePgn;
    if (body.import !== undefined) {
      if (body.at !== undefined) throw bad("'at' goes with 'game'");
      g = wrap(() => LocalGame.create(JSON.stringify({ import: body.import }), id, now()));
      gamePgn = g.pgn();
    } else {
      const src = await load(Number(body.game));
      g = wrap(() => src.analysis(body.at ?? undefined, id, now()));
      from = Number(body.game);
      // The whole game: the export hangs the tried actions on it as a variation.
      gamePgn = src.pgn();
    }
    const bd = { g, from, base: g.action_count(), gamePgn, info: idleInfo(), worker: null };
    boards.set(id, bd);
    return boardState(id, bd);
  }
  const id = Number(a);
  const bd = boards.get(id);
  if (!bd) throw notFound(`no analysis board ${a}`);
  if (!b && method === 'GET') return { ...boardState(id, bd), engine: bd.info };
  if (!b && method === 'DELETE') { boardStop(id, bd); boards.delete(id); return { deleted: id }; }
  if (b === 'moves' && method === 'GET') return wrap(() => JSON.parse(bd.g.moves(Number(q.get('l')), Number(q.get('t')), q.get('square') ?? '')));
  if (b === 'pgn' && method === 'GET') return wrap(() => bd.g.variation(bd.base, bd.gamePgn));
  if (method === 'POST' && ['move', 'undo', 'submit', 'takeback'].includes(b)) {
    const args = b === 'takeback' ? { floor: bd.base } : (body ?? {});
    try { bd.g.act(b, JSON.stringify(args)); } catch (e) { throw new ApiError(/no move|no action|over/.test(e.message) ? 409 : 400, e.message); }
    boardStop(id, bd);
    bd.info = idleInfo();
    boardNotify(id, bd);
    return boardState(id, bd);
  }
  if (method === 'POST' && b === 'start') {
    const extra = Object.keys(body ?? {}).filter((k) => k !== 'multipv');
    if (extra.length) throw bad(`invalid JSON body: unknown field \`${extra[0]}\`, expected \`multipv\``);
    boardStart(id, bd, multipvOf(body));
    boardNotify(id, bd);
    return bd.info;
  }
  if (method === 'POST' && b === 'stop') { boardStop(id, bd); boardNotify(id, bd); return bd.info; }
  throw notFound(`${method} /api/analysis/${a}/${b ?? ''} is not available in the static site`);
}

// --- the puzzle maker: the proof runs in a worker of its own ---
/** A made puzzle's record is posed before its solution (its variation): the 5DFEN part only. */
function posed(pgn) {
  return /\[Goal /.test(pgn) ? pgn.replace(/\n\([^]*$/, '\n*\n') : pgn;
}
async function makePuzzle(body) {
  if (body.import !== undefined && body.game !== undefined) throw bad("give either 'import' or 'game', not both");
  if (body.import === undefined && body.game === undefined) throw bad("give the position: 'import' (5DFEN/5DPGN text) or 'game' (an id, with 'at')");
  if (body.mate_in !== undefined && !(Number.isInteger(body.mate_in) && body.mate_in >= 1 && body.mate_in <= 3)) {
    throw bad(`the goal must be mate in 1 to 3, not ${body.mate_in}`);
  }
  let text = body.import;
  if (text === undefined) {
    const g = await load(Number(body.game));
    text = g.analysis(body.at ?? undefined, 0, now()).fen();
  }
  const w = new Worker(new URL('./engine-worker.js', here), { type: 'module' });
  let made;
  try {
    made = await new Promise((resolve, reject) => {
      w.onmessage = (e) => (e.data.error ? reject(bad(e.data.error)) : resolve(e.data.made));
      w.onerror = (e) => reject(new ApiError(500, e.message || 'the proof failed'));
      w.postMessage({ id: 1, puzzle: { text, from_game: body.game !== undefined, mate_in: body.mate_in, name: body.name } });
    });
  } finally {
    w.terminate();
  }
  const n = (await madeAll()).reduce((m, p) => Math.max(m, p.id), 0) + 1;
  await madePut({ id: n, ...made });
  return { id: `user-${n}`, ...made };
}

/** Every saved game as one multi-game 5DPGN. */
async function exportAll() {
  await ready;
  const rows = (await dbAll()).sort((x, y) => x.id - y.id);
  const texts = [];
  for (const r of rows) {
    const g = games.get(r.id) ?? LocalGame.restore(r.record);
    texts.push(g.pgn().trim());
  }
  return texts.join('\n\n') + '\n';
}

/** The interface's request (see remote.js; no seats here, so headers are ignored). Each answer is
 * also told as a `chess5d-api` event ({method, path, status}) on the window: tests wait for it
 * where they would wait for the server's HTTP response. */
async function answered(method, path, body) {
  const told = (status) => setTimeout(() => dispatchEvent(new CustomEvent('chess5d-api', { detail: { method, path, status } })));
  try {
    const r = await request(method, path, body);
    told(200);
    return r;
  } catch (e) {
    told(e.status || 400);
    throw e;
  }
}

export const backend = {
  kind: 'local',
  features: { online: false, invites: false, lobby: false, archive: false, analysis: true, puzzleMaker: true },
  request: answered,
  async text(path) {
    if (path === '/api/games/pgn' || path === '/api/export') return exportAll();
    const r = await answered('GET', path);
    return typeof r === 'string' ? r : JSON.stringify(r);
  },
  watch(path, onMessage, { onOpen } = {}) {
    if (onOpen) onOpen(() => {}); // nothing to say to a local game (no seats)
    let set = watchers.get(path);
    if (!set) watchers.set(path, (set = new Set()));
    set.add(onMessage);
    const ab = /^\/api\/analysis\/(\d+)\/ws$/.exec(path);
    if (ab) {
      const bd = boards.get(Number(ab[1]));
      if (bd) onMessage({ engine: bd.info });
      return () => {
        set.delete(onMessage);
        // As on the server: when the board's socket closes, the board is dropped.
        if (bd && !set.size) { boardStop(Number(ab[1]), bd); boards.delete(Number(ab[1])); }
      };
    }
    const m = /^\/api\/games\/(\d+)\/ws$/.exec(path);
    if (m) load(Number(m[1])).then((g) => onMessage(view(g))).catch(() => onMessage({ deleted: Number(m[1]) }));
    return () => set.delete(onMessage);
  },
  exportAll,
  ApiError,
  lastEngineMs: null,
};
export default backend;
