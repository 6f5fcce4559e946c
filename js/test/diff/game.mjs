// One random game played on both libraries at once, comparing every documented field and
// function of the 5d-chess-js API at every step. Differences go to `sink(diff)`.
import { prng } from './prng.mjs';
import { outcome, outcomeDiffs, callOf, getOf, short, valueDiffs, identity } from './compare.mjs';
import { pickStart } from './positions.mjs';
import { knownFor } from './known.mjs';

export const MOVE_FORMATS = ['object', 'json', 'notation', 'notation_short', '5dpgn'];
export const PGN_TOKENS = ['active', 'timeline', 'superphysical'];
export const EXPORT_FORMATS = [undefined, 'object', 'json', 'notation', 'notation_short', '5dpgn', '5dpgn_inline', '5dpgn_active', '5dpgn_timeline', '5dpgn_superphysical', '5dpgn_inline_active_timeline_superphysical'];
/** The first place where two JSON values differ, as `path: a vs b`. */
function firstDifference(a, b, path = '') {
  if (JSON.stringify(a) === JSON.stringify(b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[k], b[k], `${path}.${k}`);
      if (d) return d;
    }
  }
  return `${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`.slice(0, 400);
}

/** Every format whose export reads back (the 5d-chess-js ones and ours), for the round trips. */
export const ROUND_TRIP_FORMATS = ['object', 'json', '5dpgn', 'notation', 'notation_short', '5dpgn_inline', '5dpgn_active_timeline_superphysical', '5dpgn inline active', 'canonical', 'long'];
const BOOL_ARGS = [[], [true], [true, true], [true, true, false], [true, true, true], [true, false, false], [true, false, true], [false, false, false], [false, false, true], [false, true, false], [false, true, true]];

/** A random 5dpgn format with a random subset of tokens (in a random order). */
function pgnFormat(rnd, tokens = PGN_TOKENS) {
  const t = tokens.filter(() => rnd.chance(0.5));
  for (let i = t.length - 1; i > 0; i--) {
    const j = rnd.int(i + 1);
    [t[i], t[j]] = [t[j], t[i]];
  }
  return ['5dpgn', ...t].join('_');
}

function argLabel(args) {
  return '(' + args.map((a) => (a === undefined ? 'undefined' : typeof a === 'string' ? `'${a.length > 40 ? a.slice(0, 40) + '…' : a}'` : short(a, 40))).join(', ') + ')';
}

/** Captures console output while `f` runs. */
function quietly(f) {
  const out = [];
  const saved = {};
  for (const k of ['log', 'info', 'warn', 'error', 'debug']) {
    saved[k] = console[k];
    console[k] = (...a) => out.push(`${k}: ${a.map(String).join(' ')}`);
  }
  try {
    return { res: outcome(f), console: out };
  } finally {
    Object.assign(console, saved);
  }
}

function isTravel(m) {
  return m.start.timeline !== m.end.timeline || m.start.turn !== m.end.turn;
}

/**
 * The position and move buffer as a canonical string (pieces, boards and moves by identity;
 * not key order or the hasMoved flags): two libraries "diverge" when these differ.
 */
export function positionKey(lib) {
  const b = lib.board;
  const boards = [];
  // Timelines by rank (the libraries may label the even start timelines differently).
  const num = (l) => (l === '-0' || Object.is(l, -0) ? -0.5 : l === '+0' ? 0.5 : Number(l));
  const ranks = b.timelines.map((tl) => num(tl.timeline)).sort((x, y) => x - y);
  for (const tl of b.timelines) {
    const rank = ranks.indexOf(num(tl.timeline));
    for (const tu of tl.turns) {
      boards.push(`L#${rank}T${tu.turn}${tu.player}:` + tu.pieces.map((p) => `${p.player[0]}${p.piece}${p.position.coordinate}`).sort().join(','));
    }
  }
  return `${b.player}|${boards.sort().join('|')}|${lib.moveBuffer.map(identity).join(',')}`;
}

export class Game {
  constructor({ Theirs, Ours, seed, variant, timeout, sink, maxActions, fullRate, actionsCap, stats, roundTrip = true }) {
    Object.assign(this, { Theirs, Ours, seed, timeout, sink, maxActions, fullRate, actionsCap, stats, roundTrip });
    this.rnd = prng(seed);
    this.start = pickStart(this.rnd, variant);
    this.step = 0;
    this.stepCtx = {};
    this.actionsSlow = false;
    // The known differences met so far in this game (a later divergence follows from one).
    this.knownSeen = new Set();
  }

  /** Reports the differences between two outcomes of `call` with `args`. */
  cmp(call, args, t, o, ctx = {}) {
    this.stats.calls = (this.stats.calls || 0) + 1;
    const tm = (this.stats.time ||= {});
    const tc = (tm[call] ||= [0, 0]);
    tc[0] += t.ms || 0;
    tc[1] += o.ms || 0;
    // A call as long as their search's timeout may have run into it (a verdict after it is no
    // verdict); for the self-test, "ours" is 5d-chess-js too.
    if ((t.ms || 0) >= this.timeout * 0.8) this.stepCtx.theirsTimedOut = true;
    if ((o.ms || 0) >= this.timeout * 0.8) this.stepCtx.oursTimedOut = true;
    const diffs = outcomeDiffs(t, o);
    for (const d of diffs) {
      const full = {
        call,
        args: typeof args === 'string' ? args : argLabel(args),
        ...d,
        seed: this.seed,
        variant: this.start.name,
        step: this.step,
        repro: () => this.repro(),
        ctx: {
          start: this.start.pgn || this.start.variant,
          refuted: () => this.verdictRefuted(),
          promotionChecksOnly: () => this.promotionChecksOnly(),
          ...this.stepCtx,
          ...ctx,
          theirsOutcome: t,
          oursOutcome: o,
        },
      };
      const k = knownFor(full);
      if (k) this.knownSeen.add(k.id);
      this.sink(full);
    }
    return diffs.length === 0;
  }

  /**
   * Whether 5d-chess-js's own move rules refute a verdict of its that the side to move has no
   * action (mate, stalemate): a legal action from the start of the action under way, found by
   * ours, that 5d-chess-js itself plays move by move and then calls submittable (with its
   * skipDetection, so that the verdict under test does not decide). Memoised per step and
   * position.
   */
  verdictRefuted() {
    const key = `${this.step}|${this.t.hash}|${this.t.moveBuffer.length}`;
    if (this.refutedMemo && this.refutedMemo.key === key) return this.refutedMemo.value;
    let value = false;
    try {
      const o = this.o.copy();
      while (o.moveBuffer.length) o.undo();
      const acts = o.actions('object', false, false, false, 1);
      if (acts.length) {
        const t = this.t.copy();
        t.checkmateTimeout = this.timeout;
        while (t.moveBuffer.length) t.undo();
        for (const m of acts[0].moves) t.move(m);
        // Its own test of a complete action (no royal piece in check, no present board left)
        // without its verdict (documented: skipDetection skips the mate and stalemate search).
        t.skipDetection = true;
        value = t.submittable() === true;
      }
    } catch (e) {
      if (process.env.DIFF_DEBUG) console.error('verdictRefuted:', e.message);
      value = false;
    }
    if (process.env.DIFF_DEBUG && !value) console.error('verdictRefuted: no refutation;', 'ours mate', this.o.inCheckmate, 'stalemate', this.o.inStalemate);
    this.refutedMemo = { key, value };
    return value;
  }

  /**
   * Whether every check ours sees now (the opponent's captures of a royal piece after a pass,
   * checks('object')) is a pawn's or brawn's capture onto its last rank: a promotion.
   */
  promotionChecksOnly() {
    try {
      const checks = this.o.checks('object');
      return checks.length > 0 && checks.every((m) => m.promotion);
    } catch (e) {
      return false;
    }
  }

  /** `f` on a copy of theirs with their mate and stalemate search skipped (skipDetection). */
  theirsWithoutVerdict(f) {
    return outcome(() => {
      const c = this.t.copy();
      c.skipDetection = true;
      return f(c);
    });
  }

  /** The game's hash, with and without the moves under way (an export may leave them out). */
  gameHashes() {
    const out = [this.t.hash];
    try {
      const c = this.o.copy();
      while (c.moveBuffer.length) c.undo();
      out.push(c.hash);
    } catch (e) {
      /* the hash with the moves under way only */
    }
    return out;
  }

  /** How to reach the position of this step: start, their 5DPGN record and move buffer. */
  repro() {
    try {
      const s = this.start;
      const pgn = this.t.export('5dpgn');
      const buf = this.t.moveBuffer;
      const start = s.variant ? `variant '${s.variant}'` : `custom start ${JSON.stringify(s.pgn)}`;
      return `${start}; 5d-chess-js export('5dpgn'): ${JSON.stringify(pgn)}${buf.length ? `; then move(): ${JSON.stringify(buf)}` : ''}`;
    } catch (e) {
      return `(no repro: ${e.message})`;
    }
  }

  /** Runs `f` on both libraries (theirs first) and compares. Returns both outcomes. */
  both(call, args, f, ctx) {
    const t = outcome(() => f(this.t, 'theirs'));
    const o = outcome(() => f(this.o, 'ours'));
    this.cmp(call, args, t, o, typeof ctx === 'function' ? ctx(t, o) : ctx);
    return { t, o };
  }

  fn(call, ...args) {
    return this.both(call, args, (lib) => callOf(lib, call, ...args));
  }

  /** Creates both instances at the start position (constructor, import or reset). */
  setup() {
    const { Theirs, Ours } = this;
    // Defaults of a fresh instance.
    const ft = outcome(() => new Theirs());
    const fo = outcome(() => new Ours());
    this.cmp('new Chess', '()', { status: ft.status, value: ft.status, error: ft.error }, { status: fo.status, value: fo.status, error: fo.error });
    if (ft.status === 'ok' && fo.status === 'ok') {
      for (const f of ['checkmateTimeout', 'skipDetection', 'enableConsole']) {
        this.cmp(f, 'default', outcome(() => getOf(ft.value, f)), outcome(() => getOf(fo.value, f)));
      }
    }
    // import('', variant) on a new instance (5d-chess-js may ignore the variant there).
    if (this.start.variant) {
      this.both('import', `('', '${this.start.variant}') on a new instance, then board`, (lib, who) => {
        const c = new (who === 'theirs' ? Theirs : Ours)();
        c.import('', this.start.variant);
        return c.board;
      });
    }
    const how = this.rnd.int(2);
    const s = this.start;
    const make = (C) => {
      if (s.variant) {
        if (how === 0) return new C(undefined, s.variant);
        const c = new C();
        if (how === 1) c.reset(s.variant);
        else c.import('', s.variant);
        return c;
      }
      if (how === 0) return new C(s.pgn);
      const c = new C();
      c.import(s.pgn);
      return c;
    };
    const label = s.variant ? ['new Chess(undefined, v)', 'reset(v)', "import('', v)"][how] : ['new Chess(pgn)', 'import(pgn)', 'import(pgn)'][how];
    const t = outcome(() => make(Theirs));
    const o = outcome(() => make(Ours));
    this.cmp('setup', `${label} ${s.name}`, { status: t.status, value: t.status, error: t.error }, { status: o.status, value: o.status, error: o.error });
    if (t.status !== 'ok') return false;
    this.t = t.value;
    if (o.status !== 'ok') {
      this.sink({ call: 'setup', args: `${label} ${s.name}`, kind: 'game-abandoned', theirs: 'ok', ours: o.error.message, seed: this.seed, variant: s.name, step: 0, ctx: {} });
      return false;
    }
    this.o = o.value;
    for (const lib of [this.t, this.o]) lib.checkmateTimeout = this.timeout;
    // A Board object as the variant (documented; 5d-chess-js 1.2.1 may ignore it).
    if (s.pgn && this.rnd.chance(0.5)) {
      const board = this.t.board;
      this.both('new Chess', '(undefined, Board object of a custom start), then fen()/board', (lib, who) => {
        const c = new (who === 'theirs' ? Theirs : Ours)(undefined, board);
        return { fen: c.fen(), board: c.board };
      });
    }
    return true;
  }

  /** Theirs' verdicts, timed first (their later calls use the cache), and whether they timed out. */
  verdicts() {
    const out = {};
    for (const f of ['inCheckmate', 'inStalemate']) {
      const t = outcome(() => this.t[f]);
      out[f] = t;
      if (t.ms >= this.timeout * 0.8) this.stepCtx.theirsTimedOut = true;
      // (ours too: for the self-test, where "ours" is 5d-chess-js again)
      const o = outcome(() => getOf(this.o, f));
      out['ours ' + f] = o;
      if (o.ms >= this.timeout * 0.8) this.stepCtx.oursTimedOut = true;
    }
    return out;
  }

  observeLight(verd) {
    for (const f of ['board', 'actionNumber', 'moveBuffer', 'player', 'inCheck', 'hash']) {
      this.both(f, 'field', (lib) => getOf(lib, f));
    }
    for (const f of ['inCheckmate', 'inStalemate']) {
      this.cmp(f, 'field', verd[f], verd['ours ' + f], { theirsMs: verd[f].ms });
    }
    this.fn('undoable');
    // Their submittable() includes their verdict search: whether it says yes without it.
    this.both('submittable', [], (lib) => callOf(lib, 'submittable'), () => ({
      theirsSubmittableWithoutVerdict: this.theirsWithoutVerdict((c) => c.submittable()).value === true,
    }));
    // Their passable() tries the pass on a copy(): whether that copy fails is noted.
    this.both('passable', [], (lib) => callOf(lib, 'passable'), () => ({
      theirsCopyThrows: outcome(() => this.t.copy()).status === 'throws',
      // Whether their pass succeeds once their verdict search is skipped (skipDetection).
      theirsPassWithoutVerdict: this.theirsWithoutVerdict((c) => c.pass()).status === 'ok',
    }));
    this.movesObj = {};
    this.movesCall([]);
    this.movesCall(['notation_short']);
  }

  /** moves(...args), with the object-format lists of the same arguments as context. */
  movesCall(args, call = 'moves') {
    const key = JSON.stringify(args.slice(1));
    const objArgs = ['object', ...args.slice(1)];
    const getObj = () => {
      if (!this.movesObj[call + key]) {
        const t = outcome(() => callOf(this.t, call, ...objArgs));
        const o = outcome(() => callOf(this.o, call, ...objArgs));
        this.movesObj[call + key] = { t, o };
      }
      return this.movesObj[call + key];
    };
    return this.both(call, args, (lib) => callOf(lib, call, ...args), (t, o) => {
      const obj = getObj();
      // (whether a pass came before, and whether theirs answered nothing: see known.mjs's actions-broken)
      const ctx = { theirsMs: t.ms, hadPass: this.hadPass === true, theirsEmpty: t.status === 'ok' && t.value === '' };
      if (obj.t.status === 'ok' && obj.o.status === 'ok' && Array.isArray(obj.t.value) && Array.isArray(obj.o.value)) {
        const ids = new Set(obj.t.value.map(identity));
        const oids = new Set(obj.o.value.map(identity));
        ctx.objDiff = { extra: obj.o.value.filter((m) => !ids.has(identity(m))), missing: obj.t.value.filter((m) => !oids.has(identity(m))) };
      }
      return ctx;
    });
  }

  observeFull() {
    const { rnd } = this;
    for (const f of ['boardHistory', 'actionHistory', 'variants']) this.both(f, 'field', (lib) => getOf(lib, f));
    // moves: every format with the default arguments, then random argument combinations.
    // (a random half of the formats at each full step: all of them over a game)
    for (const f of [...MOVE_FORMATS, pgnFormat(rnd), pgnFormat(rnd), 'no_such_format']) if (f === 'object' || rnd.chance(0.5)) this.movesCall([f]);
    for (let i = 0; i < 2; i++) {
      const b = rnd.pick(BOOL_ARGS);
      this.movesCall([rnd.pick([...MOVE_FORMATS, pgnFormat(rnd)]), ...b]);
    }
    if (rnd.chance(0.2)) this.movesCall(['object', 'yes']);
    // checks
    for (const f of [undefined, 'object', 'json', 'notation', 'notation_short', '5dpgn', pgnFormat(rnd)]) this.both('checks', [f], (lib) => callOf(lib, 'checks', f));
    // actions (only where 5d-chess-js is quick: few present timelines; capped by its past time)
    const board = this.t.board;
    const present = board.timelines.filter((tl) => tl.present).length;
    if (!this.actionsSlow && present <= 2 && board.timelines.length <= 3) {
      for (const f of [rnd.pick([undefined, 'object', 'json']), rnd.pick(['5dpgn', pgnFormat(rnd), 'notation_short'])]) {
        const b = rnd.pick(BOOL_ARGS.filter((x) => x.length <= 3));
        const r = this.movesCall([f, ...b], 'actions');
        if (r.t.ms > this.actionsCap) this.actionsSlow = true;
      }
    }
    // export
    for (const f of EXPORT_FORMATS) this.both('export', [f], (lib) => callOf(lib, 'export', f));
    // fen
    this.fn('fen');
    this.fn('fen', null, true);
    // copy(): same answers, and independent of the original.
    this.both('copy', '() then board/hash/export/moveBuffer/player', (lib) => {
      const c = callOf(lib, 'copy');
      return { board: c.board, hash: c.hash, export: c.export('5dpgn'), moveBuffer: c.moveBuffer, player: c.player, actionNumber: c.actionNumber };
    });
    this.both('copy', '() then play on the copy: original unchanged', (lib) => {
      const before = lib.hash;
      const c = callOf(lib, 'copy');
      const ms = c.moves('object');
      if (ms.length) c.move(ms[0]);
      else if (c.submittable()) c.submit();
      return lib.hash === before;
    });
    // state() round trip.
    this.both('state', '() content', (lib) => callOf(lib, 'state'));
    this.both('state', 'JSON round trip into a new instance: board/hash/export/moves/moveBuffer', (lib, who) => {
      const s = JSON.parse(JSON.stringify(callOf(lib, 'state')));
      const C = who === 'theirs' ? this.Theirs : this.Ours;
      const c = new C();
      c.checkmateTimeout = this.timeout;
      callOf(c, 'state', s);
      const t0 = performance.now();
      const moves = c.moves('notation_short');
      // Their moves() is [] once their mate search times out (no verdict): noted as elsewhere.
      if (who === 'theirs' && performance.now() - t0 >= this.timeout * 0.8) this.stepCtx.theirsTimedOut = true;
      return { board: c.board, hash: c.hash, export: c.export('5dpgn'), moves, moveBuffer: c.moveBuffer, player: c.player, actionNumber: c.actionNumber };
    }, () => ({
      // Each library's moves in the game the state was taken from (is a round trip exact?).
      theirsBefore: outcome(() => this.t.moves('notation_short')),
      oursBefore: outcome(() => this.o.moves('notation_short')),
      priorKnown: [...this.knownSeen],
    }));
    // compare()
    const hist = this.t.boardHistory;
    const other = hist[rnd.int(hist.length)];
    const cur = this.t.board;
    this.both('compare', '(board, same board)', (lib) => callOf(lib, 'compare', cur, cur));
    this.both('compare', '(board, earlier board)', (lib) => callOf(lib, 'compare', cur, other));
    this.both('compare', '(earlier board, board, "board")', (lib) => callOf(lib, 'compare', other, cur, 'board'));
    this.both('compare', '(JSON board, board, "board")', (lib) => callOf(lib, 'compare', JSON.stringify(cur), cur, 'board'));
    const tm = this.movesObj['moves[]']?.t;
    const ml = tm && tm.status === 'ok' ? tm.value : [];
    if (ml.length >= 1) {
      const a = ml[rnd.int(ml.length)];
      const b = ml[rnd.int(ml.length)];
      this.both('compare', '(move, same move, "move")', (lib) => callOf(lib, 'compare', a, JSON.parse(JSON.stringify(a)), 'move'));
      this.both('compare', '(move a, move b, "move")', (lib) => callOf(lib, 'compare', a, b, 'move'));
      this.both('compare', '(JSON move, move, "move")', (lib) => callOf(lib, 'compare', JSON.stringify(a), a, 'move'));
    }
    // print(): console behaviour with enableConsole false (default) and true.
    for (const enable of [false, true]) {
      this.both('print', `() enableConsole=${enable}`, (lib) => {
        const saved = lib.enableConsole;
        lib.enableConsole = enable;
        try {
          const r = quietly(() => callOf(lib, 'print'));
          if (r.res.status !== 'ok') throw new Error(r.res.error.message);
          return { returned: r.res.value, console: r.console.join('\n') };
        } finally {
          lib.enableConsole = saved;
        }
      });
    }
    // moveable: a sample of their moves in each input form, every move in one list only, junk.
    const tn = outcome(() => this.t.moves('notation_short'));
    const tl = outcome(() => this.t.moves('notation'));
    const notes = tn.status === 'ok' && typeof tn.value === 'string' ? tn.value.split('\n').filter(Boolean) : [];
    const longs = tl.status === 'ok' && typeof tl.value === 'string' ? tl.value.split('\n').filter(Boolean) : [];
    for (let k = 0; k < Math.min(3, ml.length); k++) {
      const i = rnd.int(ml.length);
      this.both('moveable', '(Move object from their list)', (lib) => callOf(lib, 'moveable', ml[i]), { move: ml[i] });
      this.both('moveable', '(JSON Move from their list)', (lib) => callOf(lib, 'moveable', JSON.stringify(ml[i])), { move: ml[i] });
      if (notes.length === ml.length) this.both('moveable', `(their notation_short) '${notes[i]}'`.replace(/'.*'/, "'…'"), (lib) => callOf(lib, 'moveable', notes[i]), { move: ml[i], text: notes[i] });
      if (longs.length === ml.length) this.both('moveable', '(their notation)', (lib) => callOf(lib, 'moveable', longs[i]), { move: ml[i], text: longs[i] });
    }
    const od = this.movesObj['moves[]'];
    if (od && od.o.status === 'ok' && Array.isArray(od.o.value) && od.t.status === 'ok') {
      const ids = new Set(od.t.value.map(identity));
      for (const m of od.o.value.filter((x) => !ids.has(identity(x))).slice(0, 4)) {
        this.both('moveable', '(Move only in our list)', (lib) => callOf(lib, 'moveable', m), { move: m, onlyOurs: true });
      }
    }
    for (const junk of ['zz9', '', '(0T1)Kz9', '{}', 42]) this.both('moveable', `(junk ${JSON.stringify(junk)})`, (lib) => callOf(lib, 'moveable', junk));
    // actionable
    const buf = this.t.moveBuffer;
    this.both('actionable', '(moveBuffer as Move array)', (lib) => callOf(lib, 'actionable', buf));
    this.both('actionable', '(moveBuffer as JSON)', (lib) => callOf(lib, 'actionable', JSON.stringify(buf)));
    this.both('actionable', '(junk)', (lib) => callOf(lib, 'actionable', 'junk'));
    const hist2 = this.t.actionHistory;
    if (hist2.length) {
      const last = hist2[hist2.length - 1];
      this.both('actionable', '(last played Action object: wrong side)', (lib) => callOf(lib, 'actionable', last));
    }
    // fenable, fen setter, import of each other's export.
    this.crossChecks();
  }

  crossChecks() {
    const { Theirs, Ours, rnd } = this;
    const fens = {};
    for (const [who, lib] of [['theirs', this.t], ['ours', this.o]]) {
      const f = outcome(() => lib.fen());
      if (f.status === 'ok' && typeof f.value === 'string') fens[who] = f.value;
    }
    const junkFen = '[r*nbqk*bnr*/p*p*p*:0:1:w]';
    for (const [label, text] of [['their fen()', fens.theirs], ['our fen()', fens.ours], ['junk', junkFen], ['empty', '']]) {
      if (text === undefined) continue;
      this.both('fenable', `(${label})`, (lib) => callOf(lib, 'fenable', text));
    }
    if (fens.theirs !== undefined) {
      this.both('fen', '(their fen() text) setter on a new instance, then board/hash/fen', (lib, who) => {
        const c = new (who === 'theirs' ? Theirs : Ours)();
        const r = callOf(c, 'fen', fens.theirs);
        return { returned: r, board: c.board, hash: c.hash, fen: c.fen(), moves: c.moves('notation_short') };
      }, { input: fens.theirs });
    }
    // Exports of each library, imported (importable, import) into both (5d-chess-js replays
    // with detection: slow, so at a third of the full steps).
    if (!rnd.chance(0.35)) return;
    const fmt = rnd.pick(['5dpgn', 'json', 'object', 'notation', pgnFormat(rnd, ['active', 'timeline', 'superphysical', 'inline'])]);
    for (const [src, lib] of [['their', this.t], ['our', this.o]]) {
      const ex = outcome(() => lib.export(fmt));
      if (ex.status !== 'ok') continue;
      const data = ex.value;
      const variant = this.start.variant;
      this.both('importable', `(${src} export('${fmt}'))`, (l) => callOf(l, 'importable', data), { hadPass: this.hadPass === true, input: data });
      this.both('import', `(${src} export('${fmt}')${variant && typeof data !== 'string' ? ', variant' : ''}) into a new instance, then board/hash/actionHistory`, (l, who) => {
        const c = new (who === 'theirs' ? Theirs : Ours)();
        if (variant && typeof data !== 'string') c.import(data, variant);
        else if (!variant && typeof data !== 'string') c.import(data, this.start.pgn ? undefined : undefined);
        else c.import(data);
        return { board: c.board, hash: c.hash, actionHistory: c.actionHistory, actionNumber: c.actionNumber };
      }, { hadPass: this.hadPass === true, gameHashes: this.gameHashes(), input: data });
    }
  }

  /** Bad input to every mutating call: error or not, and nothing changed (compared by hash/buffer). */
  badInputs() {
    const { rnd } = this;
    const cases = [
      ['move', () => ['zz9']],
      ['move', () => [null]],
      ['move', () => [{}]],
      ['action', () => ['junk']],
      ['action', () => [[]]],
    ];
    const [call, args] = rnd.pick(cases);
    const a = args();
    this.both(call, a, (lib) => {
      const before = lib.hash + JSON.stringify(lib.moveBuffer);
      let err = null;
      try {
        callOf(lib, call, ...a);
      } catch (e) {
        if (e.__missing) throw e;
        err = e;
      }
      return { threw: err !== null, unchanged: lib.hash + JSON.stringify(lib.moveBuffer) === before };
    });
    for (const f of ['submit', 'undo', 'pass']) {
      const able = { submit: 'submittable', undo: 'undoable', pass: 'passable' }[f];
      if (!this.t[able]() && rnd.chance(0.5)) {
        this.both(f, `() when not ${able}`, (lib) => {
          const before = lib.hash + JSON.stringify(lib.moveBuffer);
          let threw = false;
          try {
            callOf(lib, f);
          } catch (e) {
            if (e.__missing) throw e;
            threw = true;
          }
          return { threw, unchanged: lib.hash + JSON.stringify(lib.moveBuffer) === before };
        });
      }
    }
    // Mutating calls with bad input on new instances.
    for (const [call, a] of [['import', ['junk']], ['fen', ['junk']], ['reset', ['no_such_variant']], ['import', ['1. e4', 'no_such_variant']]]) {
      if (!rnd.chance(0.3)) continue;
      this.both(call, a, (lib, who) => {
        const c = new (who === 'theirs' ? this.Theirs : this.Ours)();
        const before = c.hash;
        let threw = false;
        try {
          callOf(c, call, ...a);
        } catch (e) {
          if (e.__missing) throw e;
          threw = true;
        }
        return { threw, unchanged: c.hash === before };
      });
    }
  }

  /** Whether both positions agree (board and move buffer); if not, tries to resync ours. */
  inSync() {
    const t = outcome(() => positionKey(this.t));
    const o = outcome(() => positionKey(this.o));
    if (t.status === 'ok' && o.status === 'ok' && t.value === o.value) return true;
    // Resync: ours from their record and move buffer.
    const tries = [
      (c) => c.import(this.t.export('5dpgn')),
      (c) => (this.start.variant ? c.import(this.t.export('json'), this.start.variant) : c.import(this.t.export('json'))),
      (c) => c.import(this.t.export('5dpgn_superphysical')),
    ];
    for (const load of tries) {
      try {
        const c = new this.Ours();
        if (this.t.actionHistory.length) load(c);
        else if (this.start.variant) c.reset(this.start.variant);
        else c.import(this.start.pgn);
        for (const [m, text] of this.bufferNotations()) {
          try {
            c.move(m);
          } catch (e) {
            if (text === null) throw e;
            c.move(text);
          }
        }
        if (positionKey(c) === t.value) {
          this.o = c;
          c.checkmateTimeout = this.timeout;
          this.stats.resyncs = (this.stats.resyncs || 0) + 1;
          return true;
        }
      } catch (e) {
        if (process.env.DIFF_DEBUG) console.error("resync:", e.message);
      }
    }
    this.sink({ call: 'game', args: '(after the step)', kind: 'diverged', theirs: 'position', ours: 'different position, resync failed', seed: this.seed, variant: this.start.name, step: this.step, ctx: { priorKnown: [...this.knownSeen] } });
    return false;
  }

  /** Their move buffer as [Move, their long notation] pairs. */
  bufferNotations() {
    const buf = this.t.moveBuffer;
    if (!buf.length) return [];
    const c = this.t.copy();
    for (let i = 0; i < buf.length; i++) c.undo();
    c.skipDetection = true;
    const out = [];
    for (const m of buf) {
      const objs = c.moves('object', false, false, false);
      const notes = c.moves('notation', false, false, false).split('\n').filter(Boolean);
      const i = objs.findIndex((x) => identity(x) === identity(m));
      out.push([m, i >= 0 && notes.length === objs.length ? notes[i] : null]);
      c.move(m);
    }
    return out;
  }

  /** Plays one random step on both libraries; false when the game is over. */
  playStep() {
    const { rnd, t } = this;
    const buffer = t.moveBuffer.length;
    const submittable = t.submittable();
    if (submittable && (buffer > 0 || rnd.chance(0.5)) && rnd.chance(0.85)) return this.apply('submit', []);
    if (t.undoable() && rnd.chance(0.06)) return this.apply('undo', []);
    if (rnd.chance(0.04) && t.passable()) return (this.hadPass = true), this.apply('pass', []);
    const spatial = rnd.chance(0.1);
    const args = rnd.chance(0.15) ? ['object', true, false, spatial] : ['object', true, true, spatial];
    const key = args[2] && !args[3] ? '[]' : JSON.stringify(args.slice(1));
    const cached = this.movesObj && this.movesObj['moves' + key];
    const m = cached ? cached.t : outcome(() => t.moves(...args));
    let list = m.status === 'ok' ? m.value : [];
    if (!list.length) {
      if (t.passable()) return (this.hadPass = true), this.apply('pass', []);
      if (t.undoable() && rnd.chance(0.3)) return this.apply('undo', []);
      return false;
    }
    const travel = list.filter(isTravel);
    const pool = travel.length && rnd.chance(0.3) ? travel : list;
    const mv = rnd.pick(pool);
    // Sometimes a whole one-move action through action(), in one of its input forms.
    if (buffer === 0 && rnd.chance(0.12)) {
      const c = t.copy();
      let ok = false;
      try {
        c.move(mv);
        ok = c.submittable();
      } catch (e) {
        ok = false;
      }
      if (ok) {
        const k = rnd.int(4);
        let input = [[mv], JSON.stringify([mv]), { moves: [mv] }][k];
        let form = ['Move array', 'JSON Move array', 'Action object', '5dpgn'][k];
        if (k === 3) {
          // Their 5DPGN of the action: the last line of the copy's export after submitting
          // (their export can throw: then the Move array).
          try {
            c.submit();
            const ex = c.export('5dpgn').trim().split('\n');
            input = ex[ex.length - 1].replace(/^\d+\.\s*/, '').split(' / ').pop();
            if (t.player === 'white') input = ex[ex.length - 1].replace(/^\d+\.\s*/, '').split(' / ')[0];
          } catch (e) {
            input = [mv];
            form = 'Move array';
          }
        }
        return this.apply('action', [input], { move: mv, form });
      }
    }
    const form = rnd.int(4);
    let input = mv;
    if (form === 1) input = JSON.stringify(mv);
    else if (form >= 2) {
      const f = form === 2 ? 'notation_short' : 'notation';
      const all = outcome(() => t.moves(f, ...args.slice(1)));
      const lines = all.status === 'ok' && typeof all.value === 'string' ? all.value.split('\n').filter(Boolean) : [];
      const i = list.indexOf(mv);
      if (lines.length === list.length) input = lines[i];
    }
    return this.apply('move', [input], { move: mv, form: ['object', 'json', 'notation_short', 'notation'][form] });
  }

  apply(call, args, ctx = {}) {
    const label = call === 'move' || call === 'action' ? `(${ctx.form}) during play` : '() during play';
    const t = outcome(() => callOf(this.t, call, ...args));
    const o = outcome(() => callOf(this.o, call, ...args));
    // (with their times: a submit that ran into their search's timeout is noted as such)
    this.cmp(call, label, { status: t.status, value: null, error: t.error, ms: t.ms }, { status: o.status, value: null, error: o.error, ms: o.ms }, { input: args[0], ...ctx });
    if (t.status !== 'ok') return false;
    this.stats.ops = (this.stats.ops || 0) + 1;
    return true;
  }

  play(maxSteps) {
    if (!this.setup()) return;
    for (this.step = 0; this.step < maxSteps; this.step++) {
      this.stepCtx = {};
      if (this.t.actionNumber > this.maxActions) break;
      const verd = this.verdicts();
      this.observeLight(verd);
      if (this.step === 0 || this.rnd.chance(this.fullRate)) this.observeFull();
      if (this.rnd.chance(this.fullRate)) this.badInputs();
      if (!this.inSync()) break;
      if (!this.playStep()) break;
      if (!this.inSync()) break;
    }
    this.stats.steps = (this.stats.steps || 0) + this.step;
    if (this.roundTrip) this.roundTrips();
  }

  /** Whether a game of ours has a pass (an action that leaves boards unplayed). */
  hasPass(game) {
    return game.state().core.actions.some((a) => a.pass);
  }

  /** How many passes end a game of ours. */
  trailingPasses(game) {
    const actions = game.state().core.actions;
    let n = 0;
    while (n < actions.length && actions[actions.length - 1 - n].pass) n++;
    return n;
  }

  /**
   * Ours against itself at the end of every game: for every export format f, import(export(f))
   * into a new instance (with the game's variant for the formats that carry no start) gives
   * the same game: the same actions (passes included) and boards. Any failure is a difference
   * no known entry accepts.
   */
  roundTrips() {
    const o = this.o;
    const game = o.copy();
    while (game.moveBuffer.length) game.undo();
    const want = { actionHistory: game.actionHistory, hash: game.hash, board: game.board };
    const variant = this.start.variant;
    for (const f of ROUND_TRIP_FORMATS) {
      this.stats.roundTrips = (this.stats.roundTrips || 0) + 1;
      const ex = outcome(() => o.export(f));
      // Our canonical 5DPGN and the long form have no pass (5DPGN has none): they refuse.
      if (ex.status !== 'ok' && (f === 'canonical' || f === 'long') && this.hasPass(game)) continue;
      const got = outcome(() => {
        const data = o.export(f);
        const c = new this.Ours();
        // Objects, JSON and the long form (moves only) carry no start: the game's variant, or a
        // custom start's record.
        if (typeof data !== 'string' || f === 'json' || f === 'long') c.import(data, variant || this.start.pgn);
        else c.import(data);
        return { actionHistory: c.actionHistory, hash: c.hash, board: c.board };
      });
      // A text record cannot end with a pass (README: Records with a pass): read back, it is the
      // game without some or all of its trailing passes (an empty one at the end is not shown;
      // the moves of a last action that leaves boards unplayed read as moves under way).
      const trailing = typeof ex.value === 'string' ? this.trailingPasses(game) : 0;
      let ok = got.status === 'ok' && JSON.stringify(got.value) === JSON.stringify(want);
      if (!ok && trailing > 0 && got.status === 'ok') {
        const n = got.value.actionHistory.length;
        ok = n >= want.actionHistory.length - trailing && n < want.actionHistory.length &&
          JSON.stringify(got.value.actionHistory) === JSON.stringify(want.actionHistory.slice(0, n));
      }
      if (!ok) {
        this.sink({
          call: 'roundtrip',
          args: `import(export('${f}'))`,
          kind: got.status === 'ok' ? 'another game' : 'throws',
          theirs: JSON.stringify(want).slice(0, 300),
          ours: got.status === 'ok' ? `${firstDifference(want, got.value)}` : String(got.error),
          seed: this.seed,
          variant: this.start.name,
          step: this.step,
          repro: () => `${this.repro()}; ours export('${f}'): ${JSON.stringify(outcome(() => o.export(f)).value).slice(0, 2000)}`,
          ctx: { hadPass: this.hadPass === true },
        });
      }
    }
  }
}
