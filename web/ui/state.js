// Layer 1 (basics): the board view's state (class Board: the game page's, which the game, the
// analysis, the review, a shared game, the course and the editor draw on), what a game state
// says (its present), and the typed calls through the back-end door (class Door). The router
// (app.js) makes one of each and passes them in (types/pages.d.ts: Services); no module here
// holds one of its own.
import { address } from '../backend/calls.js';

/** A position on a board: timeline, time (half-moves), square. */
/** @typedef {{l: number, t: number, sq: string}} Square */
/** An engine line pinned or hovered as arrows: its k first actions. */
/** @typedef {{line: number, k: number}} Line */
/** The board drawn: the layout of boards.js (its fields are that module's). */
/** @typedef {{w: number, h: number, gx: number, gy: number, left: number, maxT: number, col: (t: number) => number} & Record<string, any>} Layout */
/** @typedef {{x: number, y: number, w: number, h: number}} Box */

/**
 * The state of the board view: the game page's one model, which the game, its analysis, its
 * review and a shared game's view draw and act on (the modules of layers 2 and 3 and the input
 * modules). Every field is declared here, with its type: a field added elsewhere is a type error
 * (`npx tsc -p .`). Other pages keep their state in their own controllers (web/pages/).
 */
export class Board {
  /** @type {any} the live game state from the back-end */
  state = null;
  /** @type {any} the state drawn (live or review) */
  shown = null;
  /** @type {number | null} action count under review, or null */
  review = null;
  /** @type {any} with review: the variation move shown (state.variations), or null */
  variation = null;
  flip = false;
  /** @type {Square | null} */
  selected = null;
  /** @type {Promise<void> | null} the selection being fetched (its destinations) */
  selecting = null;
  /** @type {Map<string, any[]>} "l,t,sq" -> [move] */
  dests = new Map();
  /** @type {(() => void) | null} stops following the game live (backend.watch) */
  unwatch = null;
  /** @type {string | null} the id of the game followed */
  wsGame = null;
  /** @type {Box} the SVG's view box */
  vb = { x: 0, y: 0, w: 1000, h: 700 };
  /** @type {Box | null} the box around every board */
  bounds = null;
  /** @type {Layout | null} */
  layout = null;
  /** @type {{w: number, h: number} | null} the view's size on the screen */
  viewSize = null;
  /** @type {ResizeObserver | null} */
  viewObserver = null;
  /** @type {number} the camera's animation frame */
  anim = 0;
  /** @type {number} the height the view's tools take at the top */
  toolsTop = 0;
  /** @type {number} where the insets end, from the view's top */
  insetsBottom = 0;
  /** @type {number} the next board to play on that "Next board" shows */
  toPlayStep = 0;
  /** @type {string | undefined} the boards that must move, last drawn */
  mustKey = undefined;
  /**
   * The camera: 'present' follows the present, 'fit' shows everything, 'free' stays where the
   * player put it (moved only by Go to present, Fit all or a click in the notation).
   * @type {'present' | 'fit' | 'free'}
   */
  cam = 'present';
  camLock = false;     // the player locked the view: Submit and replies do not bring it back
  /** @type {string | undefined} 'game:actions' last drawn live (a new action brings the camera back) */
  followed = undefined;
  layoutKey = '';
  /** @type {any} */
  clockBase = null;
  /** @type {{id: string, state: any, unwatch?: (() => void) | null, info?: any} & Record<string, any> | null} the analysis board, while analysing */
  analysis = null;
  /** @type {{id: string, text: string, unwatch: () => void} | null} a shared game's view (#/view/...) */
  view = null;
  /** @type {((hit: Square) => void) | null} while the position editor is open (#/editor): what a
   * click on a square does (the editor's model is its own, ui/editor.js) */
  edit = null;
  /** @type {Line | null} the engine line pinned as arrows */
  pv = null;
  /** @type {Line | null} the same, under the pointer (drawn instead of the pinned one) */
  pvHover = null;
  /** @type {{count: number, present: any} | null} the present when the action being built started */
  actionPresent = null;
  /** @type {(() => string) | null} the status line while the engine thinks */
  thinking = null;
  /** @type {string | null} the notation's HTML, last drawn */
  notationHtml = null;
  // Hooks of the computer review (computer-review.js, a layer above): the mark of an action in
  // the notation (panel.js), the best action's arrows [[move, color]] (multiverse.js), and a
  // call after each side panel drawn (panel.js).
  /** @type {((n: number) => string | null) | null} */
  actionMark = null;
  /** @type {(() => [any, string][]) | null} */
  bestArrows = null;
  /** @type {((s: any) => void) | null} */
  onSide = null;
  /** Hook of move-input.js (a layer above): a call after each side panel drawn.
   * @type {((s: any) => void) | null} */
  onMoveInput = null;

  /** Back to no game: what the game page's controller does when it is left. */
  clear() {
    this.state = null;
    this.shown = null;
    this.review = null;
    this.variation = null;
    this.selected = null;
    this.dests = new Map();
    this.pv = null;
    this.pvHover = null;
  }

  /** The state being played on: the analysis board's or the game's. @returns {any} */
  cur() { return this.analysis ? this.analysis.state : this.state; }

  /** The typed call of an action (`move`, `undo`, `submit`, `resign`, `retry-engine`...) on
   * what is being played on: the analysis board or the game.
   * @param {string} action @param {any} [body] @returns {[string, any]} */
  target(action, body) {
    if (this.analysis) return ['analysis_act', { id: this.analysis.id, action, body }];
    if (action === 'retry-engine') return ['retry_engine', { id: this.state.id }];
    return ['act', { id: this.state.id, action, body }];
  }
}

/** The present of a state, the pending moves of the action being built taken into account. */
/** @param {any} s a game state @returns {{t: number, turn: number, color: string}} */
export function presentOf(s) {
  if (!s.pending || !s.pending.length) return s.present;
  const made = new Set();
  for (const m of s.pending) { made.add(`${m.from.l},${m.from.t + 1}`); made.add(`${m.to.l},${m.to.t + 1}`); }
  const ends = new Map();
  for (const b of s.boards) {
    if (made.has(`${b.l},${b.t}`)) continue;
    ends.set(b.l, Math.max(ends.get(b.l) ?? -Infinity, b.t));
  }
  let t = Infinity;
  for (const tl of s.timelines) if (tl.active && ends.has(tl.l)) t = Math.min(t, ends.get(tl.l));
  if (!Number.isFinite(t)) return s.present;
  return { t, turn: Math.floor(t / 2), color: t % 2 ? 'black' : 'white' };
}

/** online.js's hooks on every call: the seat token that goes with a call, and what an answer
 * tells (a new game's seat). */
/** @typedef {{headers: (path: string, method: string) => Record<string, string>, seen: (path: string, method: string, data: any) => void}} Seats */

/** The typed calls of the game service through the back-end door (`door.api('game', { id })`:
 * the calls of backend/calls.js), with the seats' hooks, and the service's info asked once. */
export class Door {
  /** @type {any} the service's `info` answer (variants, engines, bots), once loaded */
  #info = null;

  /** @param {import('../types/backend.js').Backend} backend @param {Seats} seats */
  constructor(backend, seats) {
    this.backend = backend;
    this.seats = seats;
    /** A typed call (bound: modules keep it as a plain function). (Calls by URL are gone: CI's
     * `js/tools/typed-calls.mjs --check` fails on one.)
     * @param {string} name @param {any} [args] @returns {Promise<any>} */
    this.api = async (name, args = {}) => {
      const { method, path } = address(name, args);
      const data = await this.backend.call(name, args, this.seats.headers(path, method));
      this.seats.seen(path, method, data);
      return data;
    };
  }

  /** The service's info (variants, engines, bots), asked once. @returns {Promise<any>} */
  async loadInfo() {
    this.#info ??= await this.api('info');
    return this.#info;
  }

  /** The info if loaded (else null). @returns {any} */
  infoLoaded() { return this.#info; }
}
