// Layer 5 (input), beside computer-review.js: "Learn from your mistakes". Once a computer
// review has ended, the back-end lists the human players' mistakes and blunders it found
// (GET /api/games/:id/mistakes, the game service's chess5d_play::mistakes in both builds); each
// is a button that opens a puzzle game at the position before it (POST .../mistakes/:n): find a
// better action. The service's engine judges the answer (within the review's good margin of
// the best), the page only shows its verdict (panel.js).
import { esc, showError } from './dom.js';

// The page's services, passed in by the router (app.js) before any page opens.
/** @type {import('./state.js').Door['api']} */
let api;
/** Takes the page's services (types/pages.d.ts). @param {import('../types/pages.js').Services} s */
export function wire(s) {
  api = s.door.api;
}

/** @type {Record<string, string>} */
const GLYPH = { mistake: '?', blunder: '??' };
/** A mistake's puzzle (the back-end's `mistakes` answer): the action played and where. */
/** @typedef {{index: number, turn: number, player: string, played: string, class: string}} Mistake */

/** The list shown: its game, the review's status and action count it was asked for. */
/** What is drawn: the game and review it is for, and the answer. @type {{key: string, list: {puzzles: Mistake[]} | null}} */
const ms = { key: '', list: null };

const box = document.createElement('div');
box.id = 'cr-mistakes';
box.className = 'hidden';
box.setAttribute('role', 'group');
box.setAttribute('aria-label', 'Learn from your mistakes');

/** Draws the section into the review's box `parent` for game `s` and review `d` (the
 * back-end's answer; null without one). */
/** @param {Element} parent @param {any} s @param {any} d */
export function drawMistakes(parent, s, d) {
  if (box.parentElement !== parent) parent.append(box);
  const ended = d && (d.status === 'done' || d.status === 'cancelled');
  if (!ended || !s) { box.classList.add('hidden'); ms.key = ''; return; }
  const key = `${s.id}:${d.status}:${(d.review?.actions ?? d.actions ?? []).length}`;
  if (ms.key !== key) {
    ms.key = key;
    ms.list = null;
    api('mistakes', { id: s.id }).then((l) => {
      if (ms.key !== key) return;
      ms.list = l;
      fill(s.id);
    }).catch(() => {});
  }
  box.classList.toggle('hidden', !ms.list);
}

/** @param {string} game */
function fill(game) {
  const ps = ms.list?.puzzles ?? [];
  box.dataset.count = String(ps.length);
  const items = ps.map((p) => {
    const num = `${p.turn}${p.player === 'black' ? 'b' : ''}.`;
    return `<li><button type="button" class="cr-mistake" data-index="${p.index}">${esc(num)} ${esc(p.played)}<span class="cr-mark ${p.class}">${GLYPH[p.class] ?? ''}</span>: find a better action</button></li>`;
  }).join('');
  box.innerHTML = `<strong>Learn from your mistakes</strong> `
    + (ps.length ? `<span class="muted">the position before each, a better action to find (the engine judges it)</span><ul>${items}</ul>`
      : '<span class="muted">no mistake or blunder of a player to learn from.</span>');
  box.dataset.game = String(game);
  box.classList.remove('hidden');
}

box.addEventListener('click', async (ev) => {
  const b = /** @type {HTMLElement} */ (ev.target).closest(/** @type {'button'} */ ('button.cr-mistake'));
  if (!b) return;
  showError(null);
  b.disabled = true;
  try {
    const g = await api('start_mistake', { id: box.dataset.game, n: b.dataset.index, body: {} });
    location.hash = `#/game/${g.id}`;
  } catch (e) { showError(e.message); } finally { b.disabled = false; }
});
