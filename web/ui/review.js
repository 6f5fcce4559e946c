// Layer 5 (input), above pointer.js: reviewing earlier positions: the first / previous / next /
// last buttons, the arrow keys and a click in the notation (and the view's keyboard shortcuts).
import { $, showError } from './dom.js';
import { render, applyHighlights } from './multiverse.js';
import { camera, showTouched, fitAll, goPresent, zoomStep, nextBoardToPlay } from './camera.js';
import { hidePromotion } from './pointer.js';
import { shownVariation, variationStep } from './variations.js';

// The page's services, passed in by the router (app.js) before any page opens.
/** @type {import('./state.js').Board} */
let app;
/** @type {import('./state.js').Door['api']} */
let api;
/** Takes the page's services (types/pages.d.ts). @param {import('../types/pages.js').Services} s */
export function wire(s) {
  app = s.board;
  api = s.door.api;
}

export async function setReview(n) {
  const s = app.state;
  if (!s || app.analysis) return;
  app.variation = null;
  if (n === null || n >= s.action_count) {
    app.review = null;
    app.shown = s;
  } else {
    n = Math.max(0, n);
    app.review = n;
    // (a shared game is shown on an analysis board of its own: ui/share.js)
    app.shown = await api(app.view ? 'analysis' : 'game', { id: app.view ? app.view.id : s.id, query: { at: n } });
  }
  app.selected = null;
  app.dests.clear();
  render();
  // The player asked for this action: show the boards it touched (live: the present).
  if (app.review === null) { app.cam = 'present'; camera(true); } else showTouched();
}

/** Shows the position after variation move `k` of an imported game (read-only: the game is
 * not changed). */
export async function setVariation(k) {
  const s = app.state;
  if (!s || app.analysis) return;
  const shown = await api('game', { id: s.id, query: { variation: k } });
  app.review = shown.review;
  app.variation = k;
  app.shown = shown;
  app.selected = null;
  app.dests.clear();
  render();
  showTouched();
}

/** One step back (-1) or on (+1) from the variation move shown: along its line, back to the
 * move or the game's action it branches from. */
function variationGo(dir) {
  const to = variationStep(app.state, shownVariation(), dir);
  if (!to) return;
  const done = 'variation' in to ? setVariation(to.variation) : setReview(to.review);
  done.catch((e) => showError(e.message));
}

$('#notation').addEventListener('click', (ev) => {
  const v = ev.target.closest('.var-act');
  if (v && !app.analysis) { setVariation(Number(v.dataset.node)).catch((e) => showError(e.message)); return; }
  const a = ev.target.closest('.act');
  if (a && !app.analysis) setReview(Number(a.dataset.index)).catch((e) => showError(e.message));
});
$('#btn-live').addEventListener('click', () => setReview(null));
// Review by buttons, as by the arrow keys: the start, one action back or on, the live position.
export function reviewStep(to) {
  if (!app.state || app.edit || app.analysis) return;
  if (shownVariation() !== null && (to === 'prev' || to === 'next')) { variationGo(to === 'prev' ? -1 : 1); return; }
  const at = app.review ?? app.state.action_count;
  const target = { first: 0, prev: at - 1, next: at + 1, last: null }[to];
  setReview(target).catch((e) => showError(e.message));
}
for (const to of ['first', 'prev', 'next', 'last']) $(`#btn-${to}`).addEventListener('click', () => reviewStep(to));
document.addEventListener('keydown', (ev) => {
  if ($('#play').classList.contains('hidden') || /** @type {HTMLElement} */ (ev.target).closest('input, textarea, select, dialog') || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key;
  if (k === 'f') { ev.preventDefault(); fitAll(); return; }
  if (k === 'p') { ev.preventDefault(); goPresent(); return; }
  if (k === 'n') { ev.preventDefault(); nextBoardToPlay(); return; }
  if (k === '+' || k === '=') { ev.preventDefault(); zoomStep(0.8); return; }
  if (k === '-' || k === '_') { ev.preventDefault(); zoomStep(1.25); return; }
  if (k === 'Escape') { app.selected = null; app.dests.clear(); applyHighlights(); hidePromotion(); return; }
  if (!app.state || app.edit || app.analysis) return;
  const at = app.review ?? app.state.action_count;
  if (k === 'Home') { ev.preventDefault(); setReview(0); return; }
  if (k === 'End') { ev.preventDefault(); setReview(null); return; }
  if (shownVariation() !== null && ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown'].includes(k)) {
    ev.preventDefault();
    variationGo(k === 'ArrowLeft' || k === 'ArrowUp' ? -1 : 1);
    return;
  }
  if (k === 'ArrowLeft' || k === 'ArrowUp') { ev.preventDefault(); setReview(at - 1); }
  else if (k === 'ArrowRight' || k === 'ArrowDown') { ev.preventDefault(); setReview(at + 1); }
  else if (k === 'Home') { ev.preventDefault(); setReview(0); }
  else if (k === 'End') { ev.preventDefault(); setReview(null); }
});

