// Layer 1 (basics): the page's state (one object, shared by the modules), what a game state
// says (its present), and the API calls through the back-end.
import { backend } from '../backend/index.js';
import { online } from '../online.js';

export const app = {
  info: null,
  state: null,        // the live game state from the server
  shown: null,        // the state drawn (live or review)
  review: null,       // action count under review, or null
  variation: null,    // with review: the variation move shown (state.variations), or null
  flip: false,
  selected: null,     // {l, t, sq}
  dests: new Map(),   // "l,t,sq" -> [move]
  unwatch: null,      // stops following the game live (backend.watch)
  wsGame: null,       // the id of the game followed
  vb: { x: 0, y: 0, w: 1000, h: 700 },
  // The camera: 'present' follows the present, 'fit' shows everything, 'free' stays where the
  // player put it (moved only by Go to present, Fit all or a click in the notation).
  cam: 'present',
  camLock: false,     // the player locked the view: Submit and replies do not bring it back
  followed: undefined, // 'game:actions' last drawn live (a new action brings the camera back)
  layoutKey: '',
  clockBase: null,
  analysis: null,     // {id, state, unwatch, info}: the analysis board, while analysing
  editor: null,       // the position editor's model, on #/editor
  pv: null,           // {line, k}: the engine line (its k first actions) pinned as arrows
  pvHover: null,      // {line, k}: the same, under the pointer (drawn instead of the pinned one)
  actionPresent: null, // {count, present}: the present when the action being built started
  // Hooks of the computer review (computer-review.js, a layer above): the mark of an action in
  // the notation (panel.js), the best action's arrows [[move, color]] (multiverse.js), and a
  // call after each side panel drawn (panel.js).
  actionMark: null,
  bestArrows: null,
  onSide: null,
  onMoveInput: null,  // hook of move-input.js (a layer above): after each side panel drawn
};

/** The state being played on: the analysis board's or the game's. */
export function cur() { return app.analysis ? app.analysis.state : app.state; }
/** The API prefix of what is being played on. */
export function base() { return app.analysis ? `/api/analysis/${app.analysis.id}` : `/api/games/${app.state.id}`; }

/** The present of a state, the pending moves of the action being built taken into account. */
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

/** An API call through the back-end, with online.js's hooks: the seat token of the game the
 * request is about goes with it, and a new game's seat is kept from the answer. */
export async function api(method, url, body) {
  const data = await backend.request(method, url, body, online.headers(url, method));
  online.seen(url, method, data);
  return data;
}
