// The Chess class of 5d-chess-js 1.2 (its API, call by call) over the chess5d core in
// WebAssembly. `rules()` (the wasm-bindgen exports of the rules module: Core, CoreError, Out,
// Cursor, variants, version; compiled and instantiated on its first call), `core` (the same
// once it is loaded, else null), `__version` (the core's version), `__require` (Node's
// require, or null) and `__scriptSrc` (the script's URL in a page, or null) are in scope:
// build.mjs wraps this file for CommonJS, ES modules and a <script> tag. The engine (review()) is a second module, chess5d-engine.js,
// loaded on first use (see `engineModule`).
//
// Objects cross from the core as compact Int32Arrays (crates/wasm/src/objects.rs describes
// the layouts) and are built here; the numbers of the getters are cached until the game
// changes, and each call builds fresh objects from them (callers may change what they get).

const COLORS = ['white', 'black'];
const FILES = 'abcdefghijklmnopqrstuvwxyz';
// Piece letters by our role numbers (crates/rules Role as u8): 1 pawn, 2 knight...
const LETTERS = ['', '', 'N', 'B', 'R', 'Q', 'K', 'U', 'D', 'S', 'W', 'C', 'Y'];
const POS_LEN = 5;
const MOVE_LEN = 39;
// 'a1', 'b1'... by y * 8 + x.
const COORDS = Array.from({ length: 64 }, (_, i) => FILES[i % 8] + (Math.floor(i / 8) + 1));

function position(a, i) {
  const x = a[i + 3];
  const y = a[i + 4];
  return {
    timeline: a[i],
    turn: a[i + 1],
    player: COLORS[a[i + 2]],
    coordinate: COORDS[y * 8 + x],
    rank: y + 1,
    file: x + 1,
  };
}

function moveAt(a, i) {
  return {
    promotion: a[i + 1] ? LETTERS[a[i + 1]] : null,
    enPassant: a[i + 17] ? position(a, i + 18) : null,
    castling: a[i + 23]
      ? { start: position(a, i + 24), end: position(a, i + 24 + POS_LEN), realEnd: position(a, i + 24 + 2 * POS_LEN) }
      : null,
    start: position(a, i + 2),
    end: position(a, i + 7),
    player: COLORS[a[i]],
    realEnd: position(a, i + 12),
  };
}

/** A list of Move objects: count, then the moves. */
function moveList(a) {
  const n = a[0];
  const out = new Array(n);
  for (let k = 0, i = 1; k < n; k++, i += MOVE_LEN) out[k] = moveAt(a, i);
  return out;
}

/** Action objects from index `i`: [objects, next index]. */
function actionAt(a, i) {
  const action = { action: a[i], player: COLORS[a[i + 1]], moves: new Array(a[i + 2]) };
  let j = i + 3;
  for (let k = 0; k < action.moves.length; k++, j += MOVE_LEN) action.moves[k] = moveAt(a, j);
  return [action, j];
}

function actionList(a) {
  const n = a[0];
  if (n === 0) return [];
  const out = new Array(n);
  for (let k = 0, i = 1; k < n; k++) [out[k], i] = actionAt(a, i);
  return out;
}

/** A Board object from index `i`: [object, next index]. */
function boardAt(a, i) {
  const width = a[i + 2];
  const height = a[i + 3];
  const board = { action: a[i], player: COLORS[a[i + 1]], timelines: new Array(a[i + 4]), width, height };
  let j = i + 5;
  for (let t = 0; t < board.timelines.length; t++) {
    const l = a[j];
    const timeline = { timeline: l, player: COLORS[a[j + 1]], turns: new Array(a[j + 4]), active: a[j + 2] === 1, present: a[j + 3] === 1 };
    j += 5;
    for (let b = 0; b < timeline.turns.length; b++) {
      const turnNumber = a[j];
      const player = COLORS[a[j + 1]];
      const pieces = new Array(a[j + 2]);
      j += 3;
      for (let p = 0; p < pieces.length; p++, j += 5) {
        const x = a[j];
        const y = a[j + 1];
        pieces[p] = {
          position: { timeline: l, turn: turnNumber, player, coordinate: COORDS[y * 8 + x], rank: y + 1, file: x + 1 },
          piece: LETTERS[a[j + 2]],
          player: COLORS[a[j + 3]],
          hasMoved: a[j + 4] === 1,
        };
      }
      timeline.turns[b] = { turn: turnNumber, player, pieces, width, height };
    }
    board.timelines[t] = timeline;
  }
  return [board, j];
}

function boardList(a) {
  const n = a[0];
  const out = new Array(n);
  for (let k = 0, i = 1; k < n; k++) [out[k], i] = boardAt(a, i);
  return out;
}

/** An Error from a core error: the message once prefixed with the call, and its `code`. */
function toError(name, e) {
  if (core !== null && e instanceof core.CoreError) {
    const err = new Error(`${name}: ${e.message}`);
    err.code = e.code;
    e.free();
    return err;
  }
  return e;
}

function call(name, f) {
  try {
    return f();
  } catch (e) {
    throw toError(name, e);
  }
}

/** Text for the core: strings as they are, objects and arrays as JSON. */
function asText(name, value) {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  const err = new Error(`${name}: expected a string or an object, got ${typeof value}`);
  err.code = 'bad_argument';
  throw err;
}

/** An optional boolean argument: the default when absent, else its truth (as 1.2 reads it). */
function flag(value, fallback) {
  return value === undefined || value === null ? fallback : Boolean(value);
}

function formatOf(format) {
  return typeof format === 'string' ? format : 'object';
}

/** A core list kept for the cache: text, the numbers of objects, or `null` (an empty array). */
function keep(out) {
  try {
    if (out.nothing()) return null;
    const text = out.text();
    return text !== undefined ? text : out.numbers();
  } finally {
    out.free();
  }
}

/** A kept list as the format asks: the text, fresh objects built by `build`, or their JSON. */
function fromKept(kept, format, build) {
  if (kept === null) return [];
  if (typeof kept === 'string') return kept;
  if (kept.length === 1 && kept[0] === 0) return format === 'json' ? '[]' : [];
  const objects = build(kept);
  return format === 'json' ? JSON.stringify(objects) : objects;
}

/** A core list out as the format asks: objects built by `build`, their JSON, or text. */
function listOut(out, format, build) {
  return fromKept(keep(out), format, build);
}

/** A new core of `variant` (the rules module loaded first if need be). */
function newCore(variant) {
  return new (rules().Core)(variant);
}

class Chess {
  /**
   * A new game: `importData` (optional) is a record to replay (5DPGN, the action notation,
   * Action objects or their JSON), `variant` (optional) a variant name or short name,
   * `custom`, or a Board object.
   */
  constructor(importData, variant) {
    /** Kept for 5d-chess-js compatibility: verdicts here are proven, never cut off by time. */
    this.checkmateTimeout = 60000;
    /** With true, moves() lists moves even in checkmate or stalemate. */
    this.skipDetection = false;
    /** Whether print() writes to the console. */
    this.enableConsole = false;
    this._variant = asText('new Chess', variant);
    // The standard start's core is made on first use (as 1.2 does its work): a plain
    // `new Chess()` loads no WebAssembly. A variant is checked now (an unknown one throws).
    this._c = this._variant === '' ? null : call('new Chess', () => newCore(this._variant === 'custom' ? '' : this._variant));
    this._cache = {};
    if (importData !== undefined && importData !== null && importData !== '') {
      this.import(importData, variant);
    }
  }

  /** The game's core (made on first use for the standard start). */
  get _core() {
    return this._c === null ? (this._c = newCore('')) : this._c;
  }
  set _core(c) {
    this._c = c;
  }

  /** Before a change: a copy that still shares its core with another object takes its own. */
  _own() {
    if (this._shared) {
      if (this._c !== null) this._c = this._c.copy();
      this._shared = false;
    }
  }

  /** After a change: the cached answers are for another position. */
  _changed() {
    this._cache = {};
    this._player = undefined;
    this._actionNumber = undefined;
  }

  _numbers(key, f) {
    const c = this._cache;
    return c[key] === undefined ? (c[key] = f()) : c[key];
  }

  // Fields (getters).

  /** The position now, as a Board object. */
  get board() {
    const c = this._cache;
    return boardAt(c.board === undefined ? (c.board = this._core.board()) : c.board, 0)[0];
  }
  /** The action number of the side to move's next action (the turn: 1, 1, 2, 2...). */
  get actionNumber() {
    const n = this._actionNumber;
    return n === undefined ? (this._actionNumber = this._core.actionNumber()) : n;
  }
  /** The Board objects of the start, after each action, and with the moves under way. */
  get boardHistory() {
    const c = this._cache;
    return boardList(c.boardHistory === undefined ? (c.boardHistory = this._core.boardHistory()) : c.boardHistory);
  }
  /** The actions played, as Action objects. */
  get actionHistory() {
    const c = this._cache;
    return actionList(c.actionHistory === undefined ? (c.actionHistory = this._core.actionHistory()) : c.actionHistory);
  }
  /** The moves of the action under way, as Move objects. */
  get moveBuffer() {
    const c = this._cache;
    return moveList(c.moveBuffer === undefined ? (c.moveBuffer = this._core.moveBuffer()) : c.moveBuffer);
  }
  /** 'white' or 'black': the side to move. */
  get player() {
    const p = this._player;
    return p === undefined ? (this._player = this._core.player()) : p;
  }
  /** Whether the side to move is in check. */
  get inCheck() {
    return this._numbers('inCheck', () => this._core.inCheck());
  }
  /** Whether the side to move is checkmated (proven by a complete search). */
  get inCheckmate() {
    return this._numbers('inCheckmate', () => call('inCheckmate', () => this._core.inCheckmate()));
  }
  /** Whether the side to move is stalemated (proven by a complete search). */
  get inStalemate() {
    return this._numbers('inStalemate', () => call('inStalemate', () => this._core.inStalemate()));
  }
  /** The MD5 of the position's 5DFEN boards (the 5DPGN full state hash). */
  get hash() {
    return this._numbers('hash', () => this._core.hash());
  }
  /** The variants of 5d-chess-js 1.2: `[{name, shortName}]` (every chess5d variant: Chess.allVariants). */
  get variants() {
    const list = LIBRARY_VARIANTS_OF();
    const out = new Array(list.length);
    for (let i = 0; i < out.length; i++) out[i] = { name: list[i].name, shortName: list[i].shortName };
    return out;
  }

  // Functions.

  /** Replays a record from the start of `variant` (or the record's own start). Throws. */
  import(importData, variant) {
    const text = asText('import', importData);
    const v = variant === undefined || variant === null ? this._variant : asText('import', variant);
    this._own();
    call('import', () => this._core.import(text, v));
    this._variant = v;
    this._changed();
  }
  /** Whether `import` would succeed. Never throws. */
  importable(importData, variant) {
    try {
      const c = newCore('');
      try {
        const v = variant === undefined || variant === null ? this._variant : asText('importable', variant);
        c.import(asText('importable', importData), v);
      } finally {
        c.free();
      }
      return true;
    } catch (e) {
      if (core !== null && e instanceof core.CoreError) e.free();
      return false;
    }
  }
  /** Back to the start (of `variant`, if given). Throws on an unknown variant. */
  reset(variant) {
    const v = variant === undefined || variant === null ? '' : asText('reset', variant);
    this._own();
    call('reset', () => this._core.reset(v));
    if (v !== '') this._variant = v;
    this._changed();
  }
  /** Plays the moves of an action and submits it; nothing changes on an error. Throws. */
  action(action) {
    this._own();
    call('action', () => this._core.action(asText('action', action)));
    this._changed();
  }
  /** Whether `action` would succeed. Never throws. */
  actionable(action) {
    try {
      return this._core.actionable(asText('actionable', action));
    } catch (e) {
      return false;
    }
  }
  /** A new Chess object with the same state. */
  copy() {
    // Copy on write: both share the core (and its cached answers) until either changes.
    const c = Object.create(Chess.prototype);
    Object.assign(c, this);
    this._shared = true;
    c._shared = true;
    return c;
  }
  /**
   * The state as a JSON-compatible object (for a copy in a Web Worker: `state(s)` restores
   * it); with an argument, restores a state. Throws on a state this library did not write.
   */
  state(state) {
    if (state === undefined) {
      return {
        checkmateTimeout: this.checkmateTimeout,
        skipDetection: this.skipDetection,
        enableConsole: this.enableConsole,
        variant: this._variant,
        core: this._numbers('state', () => deepFreeze(JSON.parse(this._core.state()))),
      };
    }
    const s = typeof state === 'string' ? JSON.parse(state) : state;
    if (!s || typeof s !== 'object' || !s.core) {
      const err = new Error('state: not a state of this library (give what state() returned)');
      err.code = 'bad_state';
      throw err;
    }
    this._own();
    call('state', () => this._core.setState(JSON.stringify(s.core)));
    for (const k of ['checkmateTimeout', 'skipDetection', 'enableConsole']) if (k in s) this[k] = s[k];
    this._variant = typeof s.variant === 'string' ? s.variant : '';
    this._changed();
    return undefined;
  }
  /**
   * 0 when two Boards (`type` 'board', the default) or two Moves ('move') are the same, else a
   * consistent non-zero number (for sorting). Inputs: objects, their JSON, raw arrays, and for
   * moves a notation string of the position now.
   */
  compare(input1, input2, type) {
    const key = (type === 'move' ? (v) => this._moveKey(v) : boardKey);
    const a = key(input1);
    const b = key(input2);
    return a < b ? -1 : a > b ? 1 : 0;
  }
  _moveKey(v) {
    let m = typeof v === 'string' && !/^\s*[[{]/.test(v) ? null : typeof v === 'string' ? JSON.parse(v) : v;
    if (m === null) {
      // Notation: read it as a move of the position now.
      const c = this._core.copy();
      try {
        c.playMove(v);
        const list = moveList(c.moveBuffer());
        m = list[list.length - 1];
      } catch (e) {
        if (e instanceof core.CoreError) e.free();
        return `text:${v}`;
      } finally {
        c.free();
      }
    }
    if (Array.isArray(m)) return JSON.stringify(m);
    const p = (q) => (q ? [q.timeline, q.turn, q.player, q.rank, q.file] : null);
    return JSON.stringify([p(m.start), p(m.end), m.promotion || null]);
  }
  /**
   * Every legal action of the side to move (complete: our proven search), in `format`. A
   * fifth argument `limit` (a number) stops after that many; without it, more than 200,000
   * actions is an error (iterate with actionsIter()). Throws while moves of an action are
   * under way.
   */
  actions(format, activeOnly, presentOnly, newActiveTimelinesOnly, limit) {
    const f = formatOf(format);
    const n = typeof limit === 'number' && limit >= 0 ? Math.floor(limit) : -1;
    const out = call('actions', () =>
      this._core.actions(f, flag(activeOnly, true), flag(presentOnly, true), flag(newActiveTimelinesOnly, true), n),
    );
    return listOut(out, f, actionList);
  }
  /** The legal actions one at a time (a generator: never holds them all), as actions() writes them. */
  *actionsIter(format, activeOnly, presentOnly, newActiveTimelinesOnly) {
    const f = formatOf(format);
    const cursor = call('actionsIter', () =>
      this._core.actionsCursor(flag(activeOnly, true), flag(presentOnly, true), flag(newActiveTimelinesOnly, true)),
    );
    try {
      for (;;) {
        const out = call('actionsIter', () => cursor.next(f));
        if (out === undefined) return;
        const item = listOut(out, 'object', actionList);
        yield typeof item === 'string' ? item.replace(/\n$/, '') : f === 'json' ? JSON.stringify(item[0]) : item[0];
      }
    } finally {
      cursor.free();
    }
  }
  /** The opponent's moves that would capture a royal piece if the side to move passed. */
  checks(format) {
    const f = formatOf(format);
    return listOut(call('checks', () => this._core.checks(f)), f, moveList);
  }
  /** Plays one move of the action under way. Throws. */
  move(move) {
    this._own();
    call('move', () => this._core.playMove(asText('move', move)));
    this._changed();
  }
  /** Whether `move` can be played now. Never throws. */
  moveable(move) {
    try {
      this._own();
      return this._core.moveable(asText('moveable', move));
    } catch (e) {
      return false;
    }
  }
  /**
   * The moves of the side to move (none in checkmate or stalemate, unless skipDetection):
   * `format`, `activeOnly`, `presentOnly` (the default: the boards that must be played) and
   * `spatialOnly` (no jumps), in 5d-chess-js's order.
   */
  moves(format, activeOnly, presentOnly, spatialOnly) {
    const f = formatOf(format);
    const a = flag(activeOnly, true);
    const p = flag(presentOnly, true);
    const s = flag(spatialOnly, false);
    const detect = !this.skipDetection;
    const key = `moves:${f}:${a}:${p}:${s}:${detect}`;
    const answer = this._numbers(key, () => keep(call('moves', () => this._core.moves(f, a, p, s, detect))));
    return fromKept(answer, f, moveList);
  }
  /** Submits the action under way. Throws. */
  submit() {
    this._own();
    call('submit', () => this._core.submit());
    this._changed();
  }
  /** Whether `submit` would succeed. Never throws. */
  submittable() {
    return this._core.submittable();
  }
  /** Takes back the last move of the action under way. Throws. */
  undo() {
    this._own();
    call('undo', () => this._core.undo());
    this._changed();
  }
  /** Whether `undo` would succeed. Never throws. */
  undoable() {
    return this._core.undoable();
  }
  /** Ends the action without moving on the boards left (for engines: the game has no pass). Throws. */
  pass() {
    this._own();
    call('pass', () => this._core.pass(!this.skipDetection));
    this._changed();
  }
  /** Whether `pass` would succeed. Never throws. */
  passable() {
    return this._core.passable(!this.skipDetection);
  }
  /**
   * The record: Action objects ('object', the default), their JSON ('json'), 5DPGN as
   * 5d-chess-js writes it ('5dpgn' with tokens, 'notation'), our canonical 5DPGN
   * ('canonical') or the long form ('long').
   */
  export(format) {
    if (format === 'object') return this.actionHistory;
    // As 1.2.1: `5dpgn` when no format is given; a string is read by the words it contains.
    const f = typeof format === 'string' ? format : '5dpgn';
    const answer = this._numbers(`export:${f}`, () => keep(call('export', () => this._core.export(f))));
    return fromKept(answer, f, actionList);
  }
  /**
   * 5DFEN of the start's boards; `fen(text)` starts again from 5DFEN boards (throws on bad
   * text); `fen(null, true)` gives every board of the position now.
   */
  fen(fen, full) {
    if (typeof fen === 'string') {
      this._own();
      call('fen', () => this._core.setFen(fen));
      this._variant = 'custom';
      this._changed();
      return undefined;
    }
    return this._numbers(full === true ? 'fenFull' : 'fen', () => this._core.fen(full === true));
  }
  /** Whether fen(text) would succeed on this game. Never throws. */
  fenable(fen) {
    return typeof fen === 'string' && this._core.fenable(fen);
  }
  /**
   * The position as text, drawn as 5d-chess-js draws it (`print('chess5d')`: our diagram);
   * also written to the console when enableConsole is true.
   */
  print(style) {
    const ours = style === 'chess5d';
    const text = this._numbers(ours ? 'print:chess5d' : 'print', () => this._core.print(ours));
    if (this.enableConsole) console.log(text);
    return text;
  }

  /**
   * (A chess5d extension, not in 5d-chess-js.) The computer review of the game's submitted
   * actions, as `chess5d review --json` makes it: per action its evaluation before and after,
   * the engine's best action and line where it differs, its class by the drop in its player's
   * expected score (`inaccuracy`, `mistake`, `blunder`) and accuracy; each side's accuracy.
   * `options`: `depth` (actions, 1 to 63), `movetime` (ms per position), `nodes` (per position):
   * by default each position is searched to depth 4 within 1.2 s; `progress(searched,
   * positions)` is called after each position, and returning `false` stops the review (the
   * actions reviewed so far are returned, `cancelled: true`). Runs synchronously: in a page, call
   * it from a Web Worker. The engine is a second module, loaded here on first use (in a page:
   * its <script> tag, or `await Chess.loadEngine()`, first).
   */
  review(options) {
    const o = options === undefined || options === null ? {} : options;
    const bad = (what) => {
      const err = new Error(`review: ${what}`);
      err.code = 'bad_argument';
      throw err;
    };
    if (typeof o !== 'object') bad(`options must be an object, got ${typeof o}`);
    for (const k of Object.keys(o)) {
      if (!['depth', 'movetime', 'nodes', 'progress'].includes(k)) bad(`unknown option '${k}' (depth, movetime, nodes, progress)`);
    }
    const whole = (k, min, max) => {
      const v = o[k];
      if (v === undefined || v === null) return 0;
      if (!Number.isInteger(v) || v < min || v > max) bad(`'${k}' must be a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`);
      return v;
    };
    const depth = whole('depth', 1, 63);
    const movetime = whole('movetime', 1, 3600000);
    const nodes = whole('nodes', 1, Number.MAX_SAFE_INTEGER);
    if (o.progress !== undefined && typeof o.progress !== 'function') bad(`'progress' must be a function, got ${typeof o.progress}`);
    const engine = engineModule('review');
    let c = null;
    try {
      // The engine module has its own memory: the game crosses as this library's state.
      c = new engine.Core('');
      c.setState(this._core.state());
      return JSON.parse(c.review(depth, movetime, nodes, o.progress));
    } catch (e) {
      if (e instanceof engine.CoreError) {
        const err = new Error(`review: ${e.message}`);
        err.code = e.code;
        e.free();
        throw err;
      }
      throw e;
    } finally {
      if (c) c.free();
    }
  }
}

const ENGINE_FILE = 'chess5d-engine.js';
let engine = null;

/**
 * The engine module (wasm-bindgen's exports, with the engine's Core), loaded on first use: a
 * page's `<script src=".../chess5d-engine.js">` (the global Chess5dEngine), else Node's
 * require of the file beside this one. Throws `engine_not_loaded` in a page without it.
 */
function engineModule(name) {
  if (engine) return engine;
  const g = typeof globalThis !== 'undefined' ? globalThis : null;
  if (g && g.Chess5dEngine) return (engine = g.Chess5dEngine);
  if (typeof __require === 'function') return (engine = __require(`./${ENGINE_FILE}`));
  const err = new Error(
    `${name}: the engine module is not loaded: in a page, add <script src=".../dist/${ENGINE_FILE}"> or await Chess.loadEngine() first`,
  );
  err.code = 'engine_not_loaded';
  throw err;
}

/**
 * (A chess5d extension.) Loads the engine module review() needs; resolves when it is there. In
 * Node review() loads it by itself; in a page this adds its <script> tag (beside chess5d.js).
 */
Chess.loadEngine = function loadEngine() {
  try {
    engineModule('loadEngine');
    return Promise.resolve();
  } catch (e) {
    if (typeof document === 'undefined' || !__scriptSrc) return Promise.reject(e);
  }
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = new URL(ENGINE_FILE, __scriptSrc).href;
    s.onload = () => {
      try {
        engineModule('loadEngine');
        resolve();
      } catch (e) {
        reject(e);
      }
    };
    s.onerror = () => reject(new Error(`loadEngine: cannot load ${s.src}`));
    document.head.appendChild(s);
  });
};

/** Freezes an object and everything in it (a cached answer handed out to callers). */
function deepFreeze(o) {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

/** A Board's identity for compare(): its timelines' boards, pieces and who moves. */
function boardKey(v) {
  const b = typeof v === 'string' ? JSON.parse(v) : v;
  if (Array.isArray(b)) return JSON.stringify(b);
  if (!b || !Array.isArray(b.timelines)) return JSON.stringify(b);
  const lines = b.timelines
    .map((t) => [
      t.timeline,
      t.turns.map((turn) => [
        turn.turn,
        turn.player,
        turn.pieces
          .map((p) => `${p.player[0]}${p.piece}${p.position.coordinate}`)
          .sort()
          .join(','),
      ]),
    ])
    .sort((x, y) => x[0] - y[0]);
  return JSON.stringify([b.player, lines]);
}

// Asked of the core on first use, not at require (start-up time).
let libraryVariants = null;
const LIBRARY_VARIANTS_OF = () => libraryVariants || (libraryVariants = JSON.parse(rules().variants(false)));
Chess.version = __version;
let allVariants = null;
/** Every variant of chess5d (5d-chess-js 1.2's seven, the others, and Custom). */
Object.defineProperty(Chess, 'allVariants', {
  get: () => allVariants || (allVariants = JSON.parse(rules().variants(true))),
  enumerable: true,
});
