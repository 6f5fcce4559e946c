// Layer 2 (drawing), its top: the multiverse around the boards: the timelines, the present,
// the turn labels, the arrows (last action, pending moves, checks, the engine's line), the
// highlighted squares and the overview; render() redraws all of it and the side panel. The
// view's tool buttons (flip, fit, present, zoom) are here too.
import { $, esc } from './dom.js';
import { SQ } from './pieces.js';
import { presentOf } from './state.js';
import { draw, drawState, drawHighlights, layout, existing, drawBoards, arrow, checksOf } from './boards.js';
import { viewSize, visibleRect, MIN_PX, boxAt, camera, moveTo, fitAll, goPresent, zoomStep, boardsToPlay, toPlayInView, nextBoardToPlay, updateChecks } from './camera.js';
import { renderSide } from './panel.js';

// The page's services, passed in by the router (app.js) before any page opens.
/** @type {import('./state.js').Board} */
let app;
/** Takes the page's services (types/pages.d.ts). @param {import('../types/pages.js').Services} s */
export function wire(s) {
  app = s.board;
}

/** Redraws everything for a new state (or flip): layout, background, arrows, then the boards. */
export function render() {
  const s = app.shown;
  if (!s) return;
  const L = layout(s);
  app.layout = L;
  drawState(s);
  // The checkerboard pattern: a1 is dark (bottom-left), flipped or not.
  const a1dark = app.flip ? (s.size.w - 1) % 2 === 0 : (s.size.h - 1) % 2 === 0;
  const parts = [`<defs><pattern id="chk" width="${2 * SQ}" height="${2 * SQ}" patternUnits="userSpaceOnUse">
    <rect width="${2 * SQ}" height="${2 * SQ}" class="sq-light"/>
    <rect x="${a1dark ? 0 : SQ}" y="0" width="${SQ}" height="${SQ}" class="sq-dark"/>
    <rect x="${a1dark ? SQ : 0}" y="${SQ}" width="${SQ}" height="${SQ}" class="sq-dark"/></pattern></defs>`];
  // Timeline arrows, as in the game: purple along active timelines, the colour of the player
  // who made it along inactive ones (White's timelines are the positive ones), from the first
  // board (or the branch point) to an arrowhead past the last board.
  const present = presentOf(s);
  for (const tl of s.timelines) {
    const y = L.row(tl.l) + L.h / 2;
    const x1 = L.left + L.col(tl.start), x2 = L.left + L.col(tl.end) + L.w + L.gx * 0.55;
    const cls = tl.active ? 'active' : tl.l < 0 || (s.even && tl.label.startsWith('-')) ? 'black' : 'white';
    parts.push(`<path class="tl-line ${cls}" d="M${x1} ${y} L${x2} ${y}" marker-end="url(#tl-${cls})"/>`);
    if (tl.origin) {
      const ox = L.left + L.col(tl.origin.t) + L.w / 2, oy = L.row(tl.origin.l) + L.h / 2;
      parts.push(`<path class="tl-line ${cls}" fill="none" d="M${ox} ${oy} C${ox + L.w} ${oy} ${x1 - L.w} ${y} ${x1} ${y}"/>`);
    }
    parts.push(`<text class="tl-label ${tl.active ? '' : 'inactive'}" x="${L.left + L.col(tl.start) - 22}" y="${y + 9}" text-anchor="end">L${esc(tl.label)}</text>`);
  }
  // The present: a line in the colour of the side to move across the whole multiverse.
  const rows = L.maxL - L.minL + 1;
  const px = L.left + L.col(present.t) - L.gx / 3;
  // (its top edge above the first row's board labels, which sit above their frames: boards.js)
  const top = L.gy / 2 + 10;
  parts.push(`<rect class="present-line ${present.color}" x="${px}" y="${-top}" width="${L.w + (2 * L.gx) / 3}" height="${rows * (L.h + L.gy) - L.gy / 2 + top}" rx="10"/>`);
  // Turn labels.
  for (let t = L.minT; t <= L.maxT; t++) {
    const turn = Math.floor(t / 2), every = t % 2 ? '' : ` every${turn % 10 === 0 ? '10' : turn % 5 === 0 ? '5' : '1'}`;
    parts.push(`<text class="turn-label${every}" x="${L.left + L.col(t) + L.w / 2}" y="${-L.gy / 2 - 18}" text-anchor="middle">T${turn}${t % 2 ? 'b' : 'w'}</text>`);
  }
  $('#bg-layer').innerHTML = parts.join('');
  const arrows = [];
  for (const m of s.last_action) arrows.push(arrow(s, L, m, 'last', 'arrow-last'));
  const sel = app.pvHover || app.pv;
  if (sel && app.analysis && app.analysis.info) {
    // An engine line previewed: its actions up to the one hovered or clicked (moves on boards
    // that do not exist yet are drawn where they will be).
    const info = app.analysis.info;
    const pv = info.lines?.[sel.line]?.pv || (sel.line === 0 ? info.pv || [] : []);
    for (let i = 0; i <= sel.k && i < pv.length; i++) {
      for (const m of pv[i].moves) arrows.push(arrow(s, L, m, `pv pv-${pv[i].color}`, `arrow-pv-${pv[i].color}`));
    }
  }
  // The computer review's best action instead of the one shown (computer-review.js's hook).
  for (const [m, color] of app.bestArrows?.() ?? []) arrows.push(arrow(s, L, m, `pv pv-${color} best`, `arrow-pv-${color}`));
  for (const m of s.pending) arrows.push(arrow(s, L, m, 'pending', 'arrow-pending'));
  // The checks are drawn for the view (camera.js, updateChecks): those whose piece and king are
  // both in it as arrows, a king out of it as a marker at the view's edge.
  $('#arrow-layer').innerHTML = arrows.join('');
  app.bounds = { x: -20, y: -L.gy - 10, w: L.left + L.col(L.maxT) + L.w + L.gx + 20, h: rows * (L.h + L.gy) + L.gy };
  const first = !app.layoutKey;
  const key = `${s.id}:${L.minT}:${L.maxT}:${L.minL}:${L.maxL}:${app.flip}:${present.t}`;
  const moved = key !== app.layoutKey;
  app.layoutKey = key;
  computeHighlights();
  // The camera follows the present (or keeps everything in view) only if the player left it
  // there; a view the player moved stays put. The first view of a game is not animated. A move
  // that leaves boards to play out of the present view (played on the one shown) moves it on.
  const mustKey = boardsToPlay(s).map((b) => `${b.l},${b.t}`).join(' ');
  const aim = mustKey !== app.mustKey;
  app.mustKey = mustKey;
  if (moved) app.toPlayStep = 0;
  // After every submitted action (the player's Submit, the reply) the camera goes back to the
  // present, unless the player locked the view (#btn-lock): a panned view left the board to
  // play off screen (issue 48).
  const count = app.review === null && app.state && app.state.id === s.id ? `${s.id}:${s.action_count}` : app.followed;
  if (count !== app.followed) {
    if (app.followed !== undefined && app.cam === 'free' && !app.camLock && !first) app.cam = 'present';
    app.followed = count;
  }
  if (first) { camera(false); } else if (moved && app.cam !== 'free') camera(true);
  else if (aim && app.cam === 'present' && !toPlayInView()) camera(true);
  drawMinimap(s, L);
  drawBoards(visibleRect());
  updateChecks();
  renderSide();
}

// ---------- the overview (its frame follows the camera: camera.js) ----------

/** The overview (minimap), for multiverses too big to read whole: every board as a small
 * rectangle (the present's column marked), the part in view framed; a click goes there. */
export function drawMinimap(s, L) {
  const mm = $('#minimap');
  const many = s.timelines.length > 6 || (L.maxT - L.minT) > 24;
  mm.classList.toggle('hidden', !many);
  if (!many) return;
  const b = app.bounds;
  mm.setAttribute('viewBox', `${b.x} ${b.y} ${b.w} ${b.h}`);
  const key = `${app.layoutKey}|${s.boards.length}`;
  if (mm.dataset.key === key) return;
  mm.dataset.key = key;
  const present = presentOf(s).t;
  $('#minimap-boards').innerHTML = s.boards.map((bd) => `<rect class="mm-board ${bd.color}${bd.t === present ? ' present' : ''}" x="${L.left + L.col(bd.t)}" y="${L.row(bd.l)}" width="${L.w}" height="${L.h}"/>`).join('');
}

$('#minimap').addEventListener('click', (ev) => {
  const mm = $('#minimap');
  const pt = mm.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const w = pt.matrixTransform(mm.getScreenCTM().inverse());
  const px = Math.max(MIN_PX, (viewSize().w / app.vb.w) * SQ);
  app.cam = 'free';
  moveTo(boxAt(w.x, w.y, px));
});

// The view's tools.
$('#btn-flip').addEventListener('click', () => { app.flip = !app.flip; render(); camera(false); });
$('#btn-fit').addEventListener('click', fitAll);
$('#btn-lock').addEventListener('click', () => {
  app.camLock = !app.camLock;
  $('#btn-lock').setAttribute('aria-pressed', String(app.camLock));
  $('#btn-lock').textContent = app.camLock ? 'View locked' : 'Lock view';
});
$('#btn-present').addEventListener('click', goPresent);
$('#btn-next-board').addEventListener('click', nextBoardToPlay);
$('#btn-zoom-in').addEventListener('click', () => zoomStep(0.8));
$('#btn-zoom-out').addEventListener('click', () => zoomStep(1.25));
$('#btn-panel').addEventListener('click', () => $('#side').scrollIntoView({ behavior: 'smooth' }));

/** The checks to draw: every one the server lists, else the one it names. */
/** The highlighted squares of each board: check, last action, pending moves, selection. */
export function computeHighlights() {
  const s = app.shown;
  const hl = new Map();
  const put = (c, cls, dest) => {
    const k = `${c.l},${c.t}`;
    if (!hl.has(k)) hl.set(k, new Map());
    const m = hl.get(k);
    const old = m.get(c.sq);
    // selection and destinations win over check, which wins over the last action
    if (!old || cls !== 'last-to') m.set(c.sq, { cls, dest });
  };
  if (s) {
    for (const m of s.last_action.concat(s.pending)) { put(m.from, 'last-to'); put(m.to, 'last-to'); }
    for (const c of checksOf(s)) { put(existing(s, c.from), 'check-from'); put(existing(s, c.to), 'check-royal'); }
  }
  if (app.selected) put(app.selected, 'selected');
  for (const [key, moves] of app.dests) {
    const [l, t, sq] = key.split(',');
    put({ l: Number(l), t: Number(t), sq }, moves[0].capture ? 'dest-cap' : 'dest', moves[0].kind);
  }
  drawHighlights(hl);
}

// The check markers shown or hidden (Settings): the boards' squares and the arrows again.
addEventListener('chess5d-settings', () => { if (app.shown) { applyHighlights(); updateChecks(); } });

export function applyHighlights() {
  computeHighlights();
  drawBoards(visibleRect());
}

