// Layer 2 (drawing), beside camera.js: nothing the page draws over the multiverse covers a board
// to play (issue 48). The view's tools are a strip above the view (style.css), so they never
// cover a board; what is left over the view (the overview, the insets, the check markers at its
// edges, the timeline labels of the rail) is kept off the playable boards in view once the camera
// rests: the overview goes to another corner, or hides when every corner would cover one; a check
// marker or a rail label that would cover one hides; the insets go to the other side.
import { $ } from './dom.js';

// The page's services, passed in by the router (app.js) before any page opens.
/** @type {import('./state.js').Board} */
let app;
/** Takes the page's services (types/pages.d.ts). @param {import('../types/pages.js').Services} s */
export function wire(s) {
  app = s.board;
}

/** The screen rectangles (px from the view's top left: {x, y, w, h}) of the playable boards
 * in view, for the view's visible rectangle `r` (camera.js's visibleRect), with a small margin. */
/** @typedef {{x: number, y: number, w: number, h: number}} Rect */
/** @param {Rect & {scale: number} | null} r @returns {Rect[]} */
export function boardsToKeepClear(r) {
  const s = app.shown, L = app.layout;
  if (!s || !L || !r) return [];
  const m = 3;
  const out = [];
  for (const b of s.boards) {
    if (!b.playable) continue;
    const x = (L.left + L.col(b.t) - r.x) * r.scale, y = (L.row(b.l) - r.y) * r.scale;
    const w = L.w * r.scale, h = L.h * r.scale;
    if (x + w < 0 || y + h < 0 || x > r.w * r.scale || y > r.h * r.scale) continue;
    out.push({ x: x - m, y: y - m, w: w + 2 * m, h: h + 2 * m });
  }
  return out;
}

/** Whether two rectangles meet. @param {Rect} a @param {Rect} b */
const meets = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** An element's rectangle relative to the view (`v`: the view's client rectangle). */
/** @param {Element} e @param {DOMRect} v @returns {Rect} */
function rectOf(e, v) {
  const r = e.getBoundingClientRect();
  return { x: r.left - v.left, y: r.top - v.top, w: r.width, h: r.height };
}

/** Keeps the overlays off the playable boards in view (called by camera.js when the camera
 * rests, after the insets and the check markers were placed). */
/** @param {Rect & {scale: number}} r */
export function keepClear(r) {
  const view = $('#view');
  const v = view.getBoundingClientRect();
  if (!v.width) return;
  // The overlays' frame (the rail, the markers) starts where the view starts, under the tools.
  const wrap = $('#view-wrap');
  const top = `${Math.round(v.top - wrap.getBoundingClientRect().top)}px`;
  if (wrap.style.getPropertyValue('--view-top') !== top) wrap.style.setProperty('--view-top', top);
  const boards = boardsToKeepClear(r);
  const clear = (/** @type {Rect} */ rect) => !boards.some((b) => meets(rect, b));

  // The insets: at the left edge, else at the right.
  const insets = $('#insets');
  insets.classList.remove('on-right');
  if (!insets.classList.contains('hidden') && !clear(rectOf(insets, v))) {
    insets.classList.add('on-right');
    if (!clear(rectOf(insets, v))) insets.classList.remove('on-right');
  }
  const taken = insets.classList.contains('hidden') ? [] : [rectOf(insets, v)];

  // The overview: the first corner where it covers no board to play (nor the insets).
  const mm = $('#minimap');
  mm.classList.remove('off', 'at-bl', 'at-tr', 'at-tl');
  if (!mm.classList.contains('hidden')) {
    let ok = false;
    for (const corner of ['', 'at-bl', 'at-tr', 'at-tl']) {
      mm.classList.remove('at-bl', 'at-tr', 'at-tl');
      if (corner) mm.classList.add(corner);
      const at = rectOf(mm, v);
      if (clear(at) && !taken.some((t) => meets(at, t))) { ok = true; break; }
    }
    if (!ok) {
      mm.classList.remove('at-bl', 'at-tr', 'at-tl');
      mm.classList.add('off');
    }
  }

  // The check markers (already clear of each other, camera.js) and the rail's labels.
  for (const e of document.querySelectorAll('#check-edges .check-edge, #tl-rail .rail-label')) {
    e.classList.remove('off');
    if (!clear(rectOf(e, v))) e.classList.add('off');
  }
}
