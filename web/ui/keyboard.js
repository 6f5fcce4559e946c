// Layer 5 (input), over computer-review.js: every control reachable by keyboard (issue 48).
// - The computer review's graph is one stop in the tab order, a slider over its points:
//   ←/↓ and →/↑ go to the previous and next point, Home and End to the first and last, each
//   showing that action (as a click on the point does).
// - The notation's actions (role button) are played by Enter and Space as by a click.
// - Escape closes the open settings menu (dialogs close by Escape natively: showModal), and
//   the list of typed moves (move-input.js).
// Focus is visible on every control (style.css: :focus-visible).
import { $, showError } from './dom.js';
import { setReview } from './review.js';

// The page's services, passed in by the router (app.js) before any page opens.
/** @type {import('./state.js').Board} */
let app;
/** Takes the page's services (types/pages.d.ts). @param {import('../types/pages.js').Services} s */
export function wire(s) {
  app = s.board;
}

const graph = $('#cr-graph');
graph.setAttribute('tabindex', '0');
graph.setAttribute('role', 'slider');
graph.setAttribute('aria-label', "Evaluation graph: White's expected score after each action (arrow keys, Home and End go through its points)");
graph.setAttribute('aria-valuemin', '1');

/** The graph's points, in order: [index (from 0), title]. */
function points() {
  return [...graph.querySelectorAll('circle[data-index]')].map((c) => Number(c.dataset.index));
}

/** The point shown: the action under review (or the last). */
function shownIndex() {
  const s = app.state;
  if (!s) return -1;
  return (app.review ?? s.action_count) - 1;
}

/** Keeps the slider's values in step with the graph (after each drawing, and each step). */
function describe() {
  const ps = points();
  graph.setAttribute('aria-valuemax', String(Math.max(1, ps.length)));
  const i = ps.indexOf(shownIndex());
  graph.setAttribute('aria-valuenow', String(i >= 0 ? i + 1 : 1));
  const hit = graph.querySelector(`rect.cr-hit[data-index="${ps[i]}"] title`);
  graph.setAttribute('aria-valuetext', hit ? hit.textContent : 'no action shown');
}
new MutationObserver(describe).observe(graph, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });

graph.addEventListener('keydown', (ev) => {
  const ps = points();
  if (!ps.length || !app.state || app.analysis) return;
  const at = ps.indexOf(shownIndex());
  let to = null;
  if (ev.key === 'ArrowLeft' || ev.key === 'ArrowDown') to = Math.max(0, (at < 0 ? ps.length : at) - 1);
  else if (ev.key === 'ArrowRight' || ev.key === 'ArrowUp') to = Math.min(ps.length - 1, at + 1);
  else if (ev.key === 'Home') to = 0;
  else if (ev.key === 'End') to = ps.length - 1;
  else if (ev.key === 'PageUp') to = Math.max(0, at - 10);
  else if (ev.key === 'PageDown') to = Math.min(ps.length - 1, at + 10);
  if (to === null) return;
  // (not the page's own arrow keys: review.js would step the review too)
  ev.preventDefault();
  ev.stopPropagation();
  setReview(ps[to] + 1).then(describe).catch((e) => showError(e.message));
});

// The notation's actions: Enter or Space as a click.
$('#notation').addEventListener('keydown', (ev) => {
  const a = ev.target.closest('.act[role="button"]');
  if (a && (ev.key === 'Enter' || ev.key === ' ')) { ev.preventDefault(); a.click(); }
});

// Escape closes the settings menu and gives the focus back to its button.
document.addEventListener('keydown', (ev) => {
  if (ev.key !== 'Escape') return;
  const menu = $('#settings');
  if (menu.open) { menu.open = false; menu.querySelector('summary').focus(); }
});
