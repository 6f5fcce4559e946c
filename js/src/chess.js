// The Chess class of the seed library (5d-chess-js's API) over the chess5d core in
// WebAssembly. `core` (the wasm-bindgen exports: Core, variants, fenable, version) is in scope:
// build.mjs wraps this file for CommonJS, ES modules and a <script> tag.

/** Text for the core: strings as they are, objects and arrays as JSON. */
function asText(what, value) {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  throw new Error(`${what}: expected a string or an object, got ${typeof value}`);
}

/** Runs a core call, turning its errors into Errors that name the function. */
function call(name, f) {
  try {
    return f();
  } catch (e) {
    const msg = e && e.message !== undefined ? e.message : String(e);
    throw new Error(`${name}: ${msg}`);
  }
}

/** Whether a call succeeds (the `...able` functions never throw). */
function able(f) {
  try {
    f();
    return true;
  } catch (e) {
    return false;
  }
}

const FORMATS = ['object', 'json', 'notation', 'notation_short'];

function checkFormat(name, format) {
  if (format === undefined || format === null) return 'object';
  if (!FORMATS.includes(format)) {
    throw new Error(`${name}: unknown format '${format}': use ${FORMATS.map((f) => `'${f}'`).join(', ')}`);
  }
  return format;
}

/** A list out of the core (JSON for `object`/`json`, newline-delimited notation). */
function listOut(format, text) {
  return format === 'object' ? JSON.parse(text) : text;
}

function flag(name, arg, value, fallback) {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw new Error(`${name}: ${arg} must be a boolean, got ${typeof value}`);
  return value;
}

class Chess {
  /**
   * A new game: `importData` (optional) is a record to replay (any notation, or Action
   * objects), `variant` (optional) a variant name or short name, or a Board object.
   */
  constructor(importData, variant) {
    /** Kept for 5d-chess-js compatibility: verdicts here are proven, never cut off by time. */
    this.checkmateTimeout = 60000;
    /** Kept for compatibility: detection is always on (it is cheap in this library). */
    this.skipDetection = false;
    /** Whether print() writes to the console. */
    this.enableConsole = true;
    this._variant = asText('new Chess', variant);
    this._core = call('new Chess', () => new core.Core(this._variant));
    if (importData !== undefined && importData !== null && importData !== '') {
      this.import(importData, variant);
    }
  }

  // Fields (getters).

  /** The position now, as a Board object. */
  get board() {
    return JSON.parse(this._core.board());
  }
  /** The action number of the side to move's next action (5d-chess-js 1.2: the turn). */
  get actionNumber() {
    return this._core.actionNumber();
  }
  /** The Board objects of the start, after each action, and with the moves under way. */
  get boardHistory() {
    return JSON.parse(this._core.boardHistory());
  }
  /** The actions played, as Action objects. */
  get actionHistory() {
    return JSON.parse(this._core.actionHistory());
  }
  /** The moves of the action under way, as Move objects. */
  get moveBuffer() {
    return JSON.parse(this._core.moveBuffer());
  }
  /** 'white' or 'black': the side to move. */
  get player() {
    return this._core.player();
  }
  /** Whether the side to move is in check. */
  get inCheck() {
    return this._core.inCheck();
  }
  /** Whether the side to move is checkmated (proven by a complete search). */
  get inCheckmate() {
    return call('inCheckmate', () => this._core.inCheckmate());
  }
  /** Whether the side to move is stalemated (proven by a complete search). */
  get inStalemate() {
    return call('inStalemate', () => this._core.inStalemate());
  }
  /** The MD5 of the position's 5DFEN boards. */
  get hash() {
    return this._core.hash();
  }
  /** The variants: `[{name, shortName}]`. */
  get variants() {
    return JSON.parse(core.variants());
  }

  // Functions.

  /** Replays a record from the start of `variant` (or the record's own start). Throws. */
  import(importData, variant, skipDetection) {
    const text = asText('import', importData);
    const v = variant === undefined || variant === null ? this._variant : asText('import', variant);
    call('import', () => this._core.import(text, v));
    this._variant = v;
  }
  /** Whether `import` would succeed. Never throws. */
  importable(importData, variant) {
    return able(() => {
      const c = new core.Core('');
      c.import(asText('importable', importData), variant === undefined || variant === null ? this._variant : asText('importable', variant));
    });
  }
  /** Back to the start (of `variant`, if given). Throws on an unknown variant. */
  reset(variant) {
    const v = variant === undefined || variant === null ? this._variant : asText('reset', variant);
    call('reset', () => this._core.reset(v));
    this._variant = v;
  }
  /** Plays the moves of an action and submits it; nothing changes on an error. Throws. */
  action(action, skipDetection) {
    call('action', () => this._core.action(asText('action', action)));
  }
  /** Whether `action` would succeed. Never throws. */
  actionable(action, skipDetection) {
    return able(() => this._core.copy().action(asText('actionable', action)));
  }
  /** A new Chess object with the same state. */
  copy() {
    const c = Object.create(Chess.prototype);
    Object.assign(c, this);
    c._core = this._core.copy();
    return c;
  }
  /**
   * Every legal action of the side to move (complete: our proven search), in `format`.
   * Throws while moves of an action are under way.
   */
  actions(format, activeOnly, presentOnly, newActiveTimelinesOnly) {
    const f = checkFormat('actions', format);
    const text = call('actions', () =>
      this._core.actions(
        f,
        flag('actions', 'activeOnly', activeOnly, true),
        flag('actions', 'presentOnly', presentOnly, true),
        flag('actions', 'newActiveTimelinesOnly', newActiveTimelinesOnly, true),
      ),
    );
    return listOut(f, text);
  }
  /** The opponent's moves that would capture a royal piece if the side to move passed. */
  checks(format) {
    const f = checkFormat('checks', format);
    return listOut(f, call('checks', () => this._core.checks(f)));
  }
  /** Plays one move of the action under way. Throws. */
  move(move, skipDetection) {
    call('move', () => this._core.playMove(asText('move', move)));
  }
  /** Whether `move` can be played now. Never throws. */
  moveable(move, skipDetection) {
    return able(() => this._core.copy().playMove(asText('moveable', move)));
  }
  /** The pseudo-legal moves of the side to move (none in checkmate or stalemate). */
  moves(format, activeOnly, presentOnly, skipDetection) {
    const f = checkFormat('moves', format);
    const text = call('moves', () =>
      this._core.moves(
        f,
        flag('moves', 'activeOnly', activeOnly, true),
        flag('moves', 'presentOnly', presentOnly, true),
        !flag('moves', 'skipDetection', skipDetection, false),
      ),
    );
    return listOut(f, text);
  }
  /** Submits the action under way. Throws. */
  submit(skipDetection) {
    call('submit', () => this._core.submit());
  }
  /** Whether `submit` would succeed. Never throws. */
  submittable(skipDetection) {
    return able(() => this._core.copy().submit());
  }
  /** Takes back the last move of the action under way. Throws. */
  undo() {
    call('undo', () => this._core.undo());
  }
  /** Whether `undo` would succeed. Never throws. */
  undoable() {
    return this._core.undoable();
  }
  /** Submits without moving (for engines; the game itself has no pass). Throws. */
  pass(skipDetection) {
    call('pass', () => this._core.pass());
  }
  /** Whether `pass` would succeed. Never throws. */
  passable(skipDetection) {
    return able(() => this._core.copy().pass());
  }
  /**
   * The record: 5DPGN with headers ('5dpgn', 'notation', 'notation_short', the default),
   * Action objects ('object'), their JSON ('json'), or the long form ('long').
   */
  export(format) {
    const f = format === undefined || format === null ? '5dpgn' : format;
    const text = call('export', () => this._core.export(f));
    return f === 'object' ? JSON.parse(text) : text;
  }
  /** 5DFEN: the start's boards, or with `full` every board now (one per line). */
  fen(board, full) {
    return this._core.fen(full === true);
  }
  /** Whether 5DFEN text (optionally with 5DPGN headers) is a valid position. Never throws. */
  fenable(fen) {
    return typeof fen === 'string' && core.fenable(fen);
  }
  /** The position as text; written to the console (unless enableConsole is false). */
  print() {
    const text = this._core.print();
    if (this.enableConsole) console.log(text);
    return text;
  }
}

Chess.version = core.version();
