// Layer 5 (input): playing on the view: selecting a piece (its destinations from the back-end),
// moving it by clicks or by dragging, promotion, panning, pinch and wheel zoom; in the editor, a
// click places a piece.
import { $, showError } from './dom.js';
import { SQ, PIECE_PATHS, glyph } from './pieces.js';
import { act } from './game.js';
import { applyHighlights } from './multiverse.js';
import { setViewBox, zoomAt, svgPoint, hitTest } from './camera.js';

// The page's services, passed in by the router (app.js) before any page opens.
/** @type {import('./state.js').Board} */
let app;
/** @type {import('./state.js').Door['api']} */
let api;
/** @type {import('../types/pages.js').Services['online']} */
let online;
/** Takes the page's services (types/pages.d.ts). @param {import('../types/pages.js').Services} s */
export function wire(s) {
  app = s.board;
  api = s.door.api;
  online = s.online;
}

export function hidePromotion() { $('#promotion').classList.add('hidden'); }

export function choose(moves) {
  app.selected = null;
  app.dests.clear();
  applyHighlights();
  if (moves.length === 1) { act('move', { move: moves[0].long }); return; }
  const box = $('#promotion');
  box.innerHTML = '<span>Promote to:</span>' + moves.map((m, i) => `<button type="button" data-i="${i}" aria-label="Promote to ${m.promotion}">${m.promotion}</button>`).join('');
  box.classList.remove('hidden');
  box.onclick = (ev) => {
    const b = ev.target.closest('button');
    if (!b) return;
    hidePromotion();
    act('move', { move: moves[Number(b.dataset.i)].long });
  };
}

/** Whether the player at the browser may pick pieces now. */
export function canPlay() {
  if (app.analysis) return !app.analysis.state.result;
  const s = app.state;
  if (app.view) return false; // a shared game is read-only
  return !!s && app.review === null && s.human_to_move && !s.result && online.mayMove(s);
}

/** Selects the piece on (l, t, sq) and asks the server for its destinations. */
export function select(l, t, sq) {
  const s = app.cur();
  app.selected = { l, t, sq };
  app.dests.clear();
  applyHighlights();
  const version = s.version;
  const p = api(app.analysis ? 'analysis_moves' : 'game_moves', { id: app.analysis ? app.analysis.id : app.state.id, query: { l, t, square: sq } }).then((r) => {
    if (!app.selected || app.selected.l !== l || app.selected.t !== t || app.selected.sq !== sq || app.cur().version !== version) return;
    app.dests.clear();
    for (const m of r.moves) {
      const k = `${m.to.l},${m.to.t},${m.to.sq}`;
      if (!app.dests.has(k)) app.dests.set(k, []);
      app.dests.get(k).push(m);
    }
    applyHighlights();
  }).catch((e) => showError(e.message));
  app.selecting = p;
  return p;
}

export function deselect() {
  if (!app.selected && !app.dests.size) return;
  app.selected = null;
  app.dests.clear();
  applyHighlights();
}

/** Whether (l, t, sq) holds a piece of the side to move on a playable board. */
export function ownPiece(hit) {
  const s = app.cur();
  if (!hit || !hit.board.playable) return false;
  const piece = hit.board.pieces.find((p) => p.sq === hit.sq);
  return !!piece && piece.c === s.to_move;
}

export const keyOf = (h) => `${h.l},${h.t},${h.sq}`;

// Pointer handling on the view: a press on a piece that may move selects it, and dragging it
// carries it (release on a destination to move); a press elsewhere pans (drag) or, without a
// drag, is a click: on a destination it moves the selected piece, on another square it clears
// the selection. Two pointers pinch-zoom; the wheel zooms.
(() => {
  const svg = $('#view');
  const pointers = new Map();
  /** @type {{x: number, y: number, vb: any, moved: boolean, hit: any, mode: string, piece?: any, again?: boolean} | null} */
  let press = null;
  let pinch = null;
  const ghost = $('#drag-layer');

  const showGhost = (ev) => {
    const [wx, wy] = svgPoint(ev);
    const piece = press.piece;
    const x = wx - SQ / 2, y = wy - SQ / 2;
    if (PIECE_PATHS[piece.p]) {
      ghost.innerHTML = piece.c === 'white'
        ? `<path class="pc-white" d="${glyph(piece.p, 'fill', x, y)}"/><path class="pc-white-line" d="${glyph(piece.p, 'line', x, y)}"/>`
        : `<path class="pc-black" d="${glyph(piece.p, 'fill', x, y)}"/>`;
    } else {
      ghost.innerHTML = `<circle cx="${wx}" cy="${wy}" r="${SQ * 0.38}" class="ghost-fairy"/>`;
    }
  };

  svg.addEventListener('pointerdown', (ev) => {
    if (ev.button !== undefined && ev.button > 0) return;
    pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { d: Math.hypot(a.x - b.x, a.y - b.y), vb: { ...app.vb } };
      if (press && press.mode === 'piece') ghost.innerHTML = '';
      press = null;
      return;
    }
    if (pointers.size !== 1) return;
    const hit = hitTest(ev);
    cancelAnimationFrame(app.anim || 0);
    $('#view').dataset.camera = 'still';
    press = { x: ev.clientX, y: ev.clientY, vb: { ...app.vb }, moved: false, hit, mode: 'pan' };
    if (app.edit) { press.mode = 'edit'; return; }
    if (!canPlay() || !hit) return;
    const k = keyOf(hit);
    if (app.selected && app.dests.has(k)) {
      press.mode = 'dest';
    } else if (ownPiece(hit)) {
      press.mode = 'piece';
      press.piece = hit.board.pieces.find((p) => p.sq === hit.sq);
      const same = app.selected && keyOf(app.selected) === k;
      press.again = same;
      if (!same) select(hit.l, hit.t, hit.sq);
      svg.setPointerCapture(ev.pointerId);
    }
  });

  svg.addEventListener('pointermove', (ev) => {
    if (!pointers.has(ev.pointerId)) return;
    pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (pinch && pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y) || 1;
      const [px, py] = svgPoint({ clientX: (a.x + b.x) / 2, clientY: (a.y + b.y) / 2 });
      app.vb = { ...pinch.vb };
      zoomAt(pinch.d / d, px, py);
      return;
    }
    if (!press) return;
    const dx = ev.clientX - press.x, dy = ev.clientY - press.y;
    if (!press.moved && Math.hypot(dx, dy) < 5) return;
    if (!press.moved) {
      press.moved = true;
      if (press.mode === 'dest' || press.mode === 'edit') press.mode = 'pan';
      if (press.mode === 'pan') { svg.setPointerCapture(ev.pointerId); svg.classList.add('dragging'); }
      else svg.classList.add('carrying');
    }
    if (press.mode === 'piece') { showGhost(ev); return; }
    const r = svg.getBoundingClientRect();
    const scale = Math.min(r.width / press.vb.w, r.height / press.vb.h);
    app.vb = { ...press.vb, x: press.vb.x - dx / scale, y: press.vb.y - dy / scale };
    app.cam = 'free';
    setViewBox();
  });

  const up = async (ev) => {
    pointers.delete(ev.pointerId);
    svg.classList.remove('dragging', 'carrying');
    if (pointers.size < 2) pinch = null;
    const p = press;
    press = null;
    if (!p) return;
    if (p.mode === 'piece') ghost.innerHTML = '';
    if (ev.type !== 'pointerup') return;
    if (p.mode === 'piece') {
      if (!p.moved) {
        if (p.again) deselect();
        return;
      }
      // Dropped: wait for the destinations if they are still coming, then move if allowed.
      const at = hitTest(ev);
      await app.selecting;
      if (at && app.dests.has(keyOf(at))) choose(app.dests.get(keyOf(at)));
      return;
    }
    if (p.moved) return;
    const at = hitTest(ev);
    if (p.mode === 'edit') { if (at) app.edit?.(at); return; }
    if (p.mode === 'dest' && at && app.dests.has(keyOf(at))) { choose(app.dests.get(keyOf(at))); return; }
    deselect();
  };
  svg.addEventListener('pointerup', up);
  svg.addEventListener('pointercancel', up);
  svg.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    const [px, py] = svgPoint(ev);
    zoomAt(Math.exp(ev.deltaY * 0.0015), px, py);
  }, { passive: false });
})();

