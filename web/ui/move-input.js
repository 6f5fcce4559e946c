// Layer 5 (input), beside pointer.js: moves typed by keyboard (issue 48). A text field under the
// game's buttons: the player types a move as the notation panel writes it; the back-end lists
// every move the action may take next, each written by the notation crate's writer (GET
// .../moves without a square: `san`, and its `long` form), and the list narrows as the player
// types (arrow keys choose, Enter plays the chosen or the only match, Escape closes the list).
// Several moves make a multi-move action; Enter on an empty field submits it (as Submit does).
// A text that is no move of the list is refused with a plain message saying so.
import { $, esc } from './dom.js';
import { act } from './game.js';
import { canPlay } from './pointer.js';

// The page's services, passed in by the router (app.js) before any page opens.
/** @type {import('./state.js').Board} */
let app;
/** @type {import('./state.js').Door['api']} */
let api;
/** Takes the page's services (types/pages.d.ts). @param {import('../types/pages.js').Services} s */
export function wire(s) {
  app = s.board;
  api = s.door.api;
  app.onMoveInput = renderMoveInput; // (panel.js calls it after each side panel)
}

const MAX_SHOWN = 12;
/** The moves of the position asked (key: which position they are of). */
const mi = { key: '', moves: [], loading: null, active: -1, shown: [] };

const box = document.createElement('div');
box.id = 'move-input';
box.innerHTML = `<label for="move-text">Type a move</label>
<div class="move-input-row"><input id="move-text" type="text" autocomplete="off" spellcheck="false" role="combobox"
 aria-autocomplete="list" aria-expanded="false" aria-controls="move-list" aria-describedby="move-msg" placeholder="e.g. e4, (0T1)Nf3, Enter on empty: submit">
<ul id="move-list" role="listbox" aria-label="Moves matching the text" class="hidden"></ul></div>
<div id="move-msg" class="hint" role="status" aria-live="polite"></div>`;
const input = /** @type {HTMLInputElement} */ (box.querySelector('#move-text'));
const list = /** @type {HTMLElement} */ (box.querySelector('#move-list'));
const msg = /** @type {HTMLElement} */ (box.querySelector('#move-msg'));

/** A text as compared: no spaces, no check, mate, jump or comment marks at its end. */
const norm = (t) => t.replace(/\s+/g, '').replace(/[+#~!?]+$/, '');

function key() {
  const c = app.cur();
  return c ? `${app.analysis ? `a${app.analysis.id}` : `g${app.state.id}`}|${c.version}|${c.action_count}|${c.pending?.length ?? 0}` : '';
}

/** The moves of the position shown (fetched once per position). */
async function moves() {
  const k = key();
  if (mi.key === k) return mi.loading ?? mi.moves;
  mi.key = k;
  mi.moves = [];
  mi.loading = api(app.analysis ? 'analysis_moves' : 'game_moves', { id: app.analysis ? app.analysis.id : app.state.id }).then((r) => {
    if (mi.key === k) mi.moves = r.moves ?? [];
    return mi.moves;
  }).finally(() => { if (mi.key === k) mi.loading = null; });
  return mi.loading;
}

/** The moves matching text `t`: those whose written form (or long form) starts with it; a
 * case-insensitive match where no exact one is. */
export function matching(all, t) {
  const q = norm(t);
  if (!q) return [];
  const starts = (m, f) => f(norm(m.san)).startsWith(f(q)) || f(m.long).startsWith(f(q));
  let out = all.filter((m) => starts(m, (x) => x));
  if (!out.length) out = all.filter((m) => starts(m, (x) => x.toLowerCase()));
  // The exact ones first, then the shorter texts.
  const exact = (m) => norm(m.san) === q || m.long === q;
  return out.sort((a, b) => Number(exact(b)) - Number(exact(a)) || a.san.length - b.san.length);
}

function say(text, error = false) {
  msg.textContent = text;
  msg.classList.toggle('error', error);
}

function showList(items) {
  mi.shown = items;
  mi.active = items.length ? Math.min(Math.max(mi.active, 0), items.length - 1) : -1;
  list.innerHTML = items.slice(0, MAX_SHOWN).map((m, i) => `<li role="option" id="move-opt-${i}" data-i="${i}" aria-selected="${i === mi.active}"${i === mi.active ? ' class="active"' : ''}>${esc(m.san)}${m.promotion ? ` (=${esc(m.promotion)})` : ''}</li>`).join('');
  const open = items.length > 0;
  list.classList.toggle('hidden', !open);
  input.setAttribute('aria-expanded', String(open));
  if (open && mi.active >= 0) input.setAttribute('aria-activedescendant', `move-opt-${mi.active}`);
  else input.removeAttribute('aria-activedescendant');
}

async function update() {
  const t = input.value;
  if (!canPlay()) { showList([]); return; }
  const all = await moves();
  if (input.value !== t) return;
  const found = matching(all, t);
  mi.active = 0;
  showList(found);
  if (!norm(t)) say('');
  else if (!found.length) say(`"${t.trim()}" is not a legal move here.`, true);
  else say(found.length === 1 ? `Enter plays ${found[0].san}.` : `${found.length} moves match: arrow keys to choose, Enter to play.`);
}

async function play(m) {
  input.value = '';
  showList([]);
  say(`Played ${m.san}.`);
  await act('move', { move: m.long });
}

async function enter() {
  const t = input.value;
  if (!canPlay()) { say('It is not your move.', true); return; }
  if (!norm(t)) {
    if (app.cur()?.can_submit && app.cur().pending?.length) { say('Submitted.'); await act('submit'); } else say('Type a move (the list shows the moves that match).');
    return;
  }
  const all = await moves();
  const found = matching(all, t);
  const q = norm(t);
  const exact = found.filter((m) => norm(m.san) === q || m.long === q);
  const pick = mi.active >= 0 ? mi.shown[mi.active] : null;
  const m = exact.length === 1 ? exact[0] : pick && found.includes(pick) ? pick : found.length === 1 ? found[0] : null;
  if (m) { await play(m); return; }
  if (!found.length) say(`"${t.trim()}" is not a legal move here.`, true);
  else say(`"${t.trim()}" matches ${found.length} moves (${found.slice(0, 4).map((x) => x.san).join(', ')}${found.length > 4 ? '…' : ''}): choose one with the arrow keys.`, true);
}

input.addEventListener('input', () => { update(); });
input.addEventListener('focus', () => { moves().catch(() => {}); });
input.addEventListener('keydown', (/** @type {KeyboardEvent} */ ev) => {
  if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
    if (!mi.shown.length) return;
    ev.preventDefault();
    const n = Math.min(mi.shown.length, MAX_SHOWN);
    mi.active = (mi.active + (ev.key === 'ArrowDown' ? 1 : n - 1)) % n;
    showList(mi.shown);
  } else if (ev.key === 'Enter') {
    ev.preventDefault();
    enter().catch((e) => say(e.message, true));
  } else if (ev.key === 'Escape' && mi.shown.length) {
    ev.preventDefault();
    ev.stopPropagation();
    showList([]);
  }
  // (the page's own keys, arrows to review, are not taken from a text field: review.js)
});
list.addEventListener('mousedown', (ev) => {
  const li = /** @type {HTMLElement | null} */ (/** @type {Element} */ (ev.target).closest('li[data-i]'));
  if (!li) return;
  ev.preventDefault();
  play(mi.shown[Number(li.dataset.i)]).catch((e) => say(e.message, true));
});

/** Hook (panel.js, after each side panel drawn): shown while the player may move. */
function renderMoveInput() {
  const actions = $('#actions');
  if (box.parentElement !== actions.parentElement) actions.after(box);
  const on = canPlay();
  box.classList.toggle('hidden', !on);
  if (!on) { showList([]); return; }
  if (mi.key !== key() && document.activeElement === input) update();
}
