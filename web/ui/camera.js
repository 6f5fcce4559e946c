// Layer 2 (drawing), above boards.js: the camera: the view box (present / fit / free), animated
// moves, zoom, from a pointer event the board and square under it, and the overlays that follow
// the view (the timeline labels at its left edge, the overview's frame, the "Next board to play"
// control and the insets of the boards to play out of view). The rule of the present view: every
// board the side to move must play is in the window, readable (squares of READ_PX or more), or,
// when more than three cannot be shown together, one is and the control steps to the others.
import { $, esc } from './dom.js';
import { SQ, FILES } from './pieces.js';
import { presentOf } from './state.js';
import { draw, onNextFrame, existing, drawBoards, boardMarkup, arrow, center, checksOf } from './boards.js';
import { keepClear, boardsToKeepClear } from './overlays.js';

// The page's services, passed in by the router (app.js) before any page opens.
/** @type {import('./state.js').Board} */
let app;
/** Takes the page's services (types/pages.d.ts). @param {import('../types/pages.js').Services} s */
export function wire(s) {
  app = s.board;
}

/** The size of the view in pixels, read once and then kept up to date by a ResizeObserver (so
 * that drawing never forces a layout to read it). */
export function viewSize() {
  if (!app.viewSize || !app.viewSize.w) {
    const svg = $('#view');
    app.viewSize = { w: svg.clientWidth, h: svg.clientHeight };
    if (!app.viewObserver) {
      app.viewObserver = new ResizeObserver((entries) => {
        const r = entries[entries.length - 1].contentRect;
        const was = app.viewSize;
        app.viewSize = { w: r.width, h: r.height };
        if (!r.width || (was && was.w === r.width && was.h === r.height)) return;
        camera(false);
      });
      app.viewObserver.observe(svg);
    }
  }
  return { w: app.viewSize.w || 1000, h: app.viewSize.h || 700 };
}

/** The world rectangle visible in the view, and the scale (pixels per world unit). */
export function visibleRect() {
  const { w: cw, h: ch } = viewSize();
  const v = app.vb;
  const scale = Math.min(cw / v.w, ch / v.h);
  const w = cw / scale, h = ch / scale;
  return { x: v.x - (w - v.w) / 2, y: v.y - (h - v.h) / 2, w, h, scale };
}

/** Applies the view box now (inside an animation frame: what is shown is what clicks hit). */
export function applyViewBox() {
  const v = app.vb;
  $('#view').setAttribute('viewBox', `${v.x} ${v.y} ${v.w} ${v.h}`);
  drawBoards(visibleRect());
  updateOverlays();
}

export function setViewBox() {
  onNextFrame(() => {
    const v = app.vb;
    $('#view').setAttribute('viewBox', `${v.x} ${v.y} ${v.w} ${v.h}`);
    drawBoards(visibleRect());
    updateOverlays();
  });
}

/** Keeps the overlays in step with the camera (every frame of a camera move included): the
 * frame of the overview, the "Next board to play" control, and the labels of the timelines in
 * view along the left edge, where their own labels (at each timeline's first board) have
 * scrolled out of sight. */
export function updateOverlays() {
  const s = app.shown, L = app.layout, v = app.vb;
  const rail = $('#tl-rail');
  updateNextBoard();
  if ($('#view').dataset.camera !== 'moving') {
    updateInsets();
    updateChecks();
    app.toolsTop = toolsReserve(); // (read when the camera is still: no layout read per frame)
  }
  if (!s || !L || !v) { rail.replaceChildren(); rail.dataset.key = ''; return; }
  const { w: vw, h: vh } = viewSize();
  // Where the view box is drawn: scaled uniformly and centred (the letterbox of
  // preserveAspectRatio's meet when its shape is not the view's).
  const r = visibleRect();
  const labels = [];
  for (const tl of s.timelines) {
    const y = (L.row(tl.l) + L.h / 2 - r.y) * r.scale;
    // (not under the view's tools, which wrap on a phone, nor under the insets)
    if (y < Math.max(48, app.toolsTop || 0, app.insetsBottom || 0) || y > vh - 8) continue;
    // Its own label is in view: no need for a second one.
    const own = (L.left + L.col(tl.start) - 22 - r.x) * r.scale;
    if (own > 40 && own < vw) continue;
    labels.push({ l: tl.l, text: `L${tl.label}`, active: tl.active, top: Math.round(y - 8) });
  }
  // Positioned through the CSSOM (the server's Content-Security-Policy refuses style attributes
  // in markup), and rebuilt only when something changed.
  const key = labels.map((x) => `${x.l}:${x.top}:${x.active}`).join();
  if (rail.dataset.key !== key) {
    rail.dataset.key = key;
    rail.replaceChildren(...labels.map((x) => {
      const e = document.createElement('span');
      e.className = `rail-label${x.active ? '' : ' inactive'}`;
      e.dataset.rail = String(x.l);
      e.style.top = `${x.top}px`;
      e.textContent = x.text;
      return e;
    }));
  }
  const f = $('#minimap-view');
  f.setAttribute('x', v.x); f.setAttribute('y', v.y); f.setAttribute('width', v.w); f.setAttribute('height', v.h);
  if ($('#view').dataset.camera !== 'moving') keepClear(r); // (overlays.js: off the boards to play)
}

// ---------- camera ----------

export const MIN_PX = 28;   // the smallest square (pixels) of the default views: labels stay readable
export const MAX_PX = 64;   // and the largest (one board does not fill the screen)
export const REVIEW_PX = 44; // the largest when showing an action's boards (some context around them)
export const READ_PX = 16;  // the smallest square at which a board to play still counts as readable

/** The view box showing the world rectangle r (plus a margin), keeping the aspect ratio. */
export function boxAround(r, margin = 0.04) {
  const ar = viewSize().w / viewSize().h;
  let { x, y, w, h } = r;
  x -= w * margin; y -= h * margin; w *= 1 + 2 * margin; h *= 1 + 2 * margin;
  if (w / h < ar) { const nw = h * ar; x -= (nw - w) / 2; w = nw; } else { const nh = w / ar; y -= (nh - h) / 2; h = nh; }
  return { x, y, w, h };
}

/** The view box centred on (cx, cy) where a square is px pixels. */
export function boxAt(cx, cy, px) {
  const { w: vw, h: vh } = viewSize();
  const scale = px / SQ, w = vw / scale, h = vh / scale;
  return { x: cx - w / 2, y: cy - h / 2, w, h };
}

export function fitView() { return app.bounds ? boxAround(app.bounds, 0.02) : app.vb; }

/** The boards the side to move must still play (the mandatory boards), nearest timeline 0
 * first; where the camera must look. */
export function boardsToPlay(s = app.shown) {
  if (!s) return [];
  return s.boards.filter((b) => b.mandatory).sort((a, b) => Math.abs(a.l) - Math.abs(b.l) || a.l - b.l || a.t - b.t);
}

/** The world rectangle of a list of boards, with room for their labels and frames. */
function boardsRect(list, L) {
  const xs = list.map((b) => L.left + L.col(b.t)), ys = list.map((b) => L.row(b.l));
  const x = Math.min(...xs) - L.gx * 0.6, y = Math.min(...ys) - L.gy * 0.7;
  return { x, y, w: Math.max(...xs) + L.w + L.gx * 0.6 - x, h: Math.max(...ys) + L.h + L.gy * 0.5 - y };
}

/** The height (px) at the top of the view under its tools (more on a narrow screen, where they
 * wrap), which a view of the boards to play keeps clear. */
export function toolsReserve() {
  const view = $('#view').getBoundingClientRect(), tools = $('#view-tools').getBoundingClientRect();
  if (!view.height || !tools.height) return 0;
  return Math.max(0, Math.min(view.height / 3, tools.bottom - view.top + 4));
}

/** The square size (px) at which a world rectangle fits the view (below its tools). */
function fitPxOf(r) {
  const { w: vw, h: vh } = viewSize();
  return Math.min(vw / r.w, (vh - toolsReserve()) / r.h) * SQ;
}

/** What the camera aims at when the boards to play do not all fit a readable view: all of them
 * when they fit with squares of READ_PX or more (`all`), else one of them at a time (the
 * "Next board to play" control steps through them: `app.toPlayStep`). */
export function toPlayPlan(s = app.shown) {
  const L = app.layout;
  const must = boardsToPlay(s);
  if (!must.length || !L) return { must, all: true, focus: must, step: 0 };
  if (fitPxOf(boardsRect(must, L)) >= READ_PX) return { must, all: true, focus: must, step: 0 };
  const step = ((app.toPlayStep || 0) % must.length + must.length) % must.length;
  return { must, all: false, focus: [must[step]], step };
}

/** The default view of a position: all of it if it is small enough to be readable whole; else
 * the boards to play (the present column up to the latest board of every active timeline, with
 * up to two columns before the present for context) if their squares can be at least MIN_PX;
 * otherwise the boards the side to move must play (every one when they fit with squares of
 * READ_PX or more, else the one the "Next board to play" control is at), with as many whole rows
 * around them as fit at MIN_PX (or at the size that fits them), the past to their left. Every
 * board that must be played is in this view, readable, or (when they cannot all be) one of them
 * is and the control steps to the others. */
export function presentView(s = app.shown) {
  const L = app.layout;
  if (!s || !L) return app.vb;
  const { w: vw, h: vh } = viewSize();
  const t = presentOf(s).t;
  const tls = s.timelines.filter((tl) => tl.active);
  if (!tls.length) tls.push(...s.timelines);
  const rows = tls.map((tl) => L.row(tl.l));
  const top = Math.min(...rows) - L.gy * 0.7, bottom = Math.max(...rows) + L.h + L.gy * 0.5;
  const last = Math.max(t, ...tls.map((tl) => tl.end));
  const right = L.left + L.col(last) + L.w + L.gx * 0.8;
  const xAt = (tt) => L.left + L.col(tt) - L.gx * 0.6;
  const fitPx = (left) => Math.min(vw / (right - left), vh / (bottom - top)) * SQ;
  // A small multiverse is shown whole when it is readable that way.
  const all = fitView();
  const allPx = (SQ * vw) / all.w;
  if (allPx >= MIN_PX + 4 && t - L.minT <= 6) return allPx <= MAX_PX ? all : boxAt(all.x + all.w / 2, all.y + all.h / 2, MAX_PX);
  for (let first = Math.max(L.minT, t - 2); first <= t; first++) {
    const left = xAt(first), px = Math.min(MAX_PX, fitPx(left));
    if (px >= MIN_PX) {
      // Boards to the right of the view's centre when there is room: the past is to the left.
      const w = vw / (px / SQ);
      return boxAt(Math.max((left + right) / 2, right - w / 2), (top + bottom) / 2, px);
    }
  }
  // Too many timelines or turns for one readable view: the boards that must be played (else
  // the playable board nearest timeline 0, else that timeline at the present).
  const plan = toPlayPlan(s);
  let focus = plan.focus;
  if (!focus.length) {
    const playable = s.boards.filter((b) => b.playable);
    if (playable.length) focus = [playable.reduce((a, b) => (Math.abs(b.l) < Math.abs(a.l) ? b : a), playable[0])];
    else {
      const near = tls.reduce((a, tl) => (Math.abs(tl.l) < Math.abs(a.l) ? tl : a), tls[0]);
      const bt = Math.min(Math.max(t, near.start), near.end);
      focus = [s.boards.find((b) => b.l === near.l && b.t === bt) || { l: near.l, t: bt }];
    }
  }
  const fr = boardsRect(focus, L);
  // With insets (the other boards to play, drawn small at the left edge: updateInsets), the
  // focus keeps clear of them.
  const insets = !plan.all && plan.must.length <= 3;
  const strip = insets ? (L.w + 28) * (INSET_PX / SQ) + 20 : 0;
  const reserve = toolsReserve();
  const px = Math.max(Math.min(MIN_PX, Math.min((vw - strip) / fr.w, (vh - reserve) / fr.h) * SQ), READ_PX);
  const scale = px / SQ, worldW = vw / scale, worldH = (vh - reserve) / scale;
  // Whole rows: those of the focus, then as many around them as fit.
  const pitch = L.h + L.gy;
  const ri = focus.map((b) => Math.round(L.row(b.l) / pitch));
  let i0 = Math.min(...ri), i1 = Math.max(...ri);
  const nRows = L.maxL - L.minL + 1;
  const fits = (a, b) => (b - a) * pitch + L.h + L.gy * 1.2 <= worldH;
  for (let grew = true; grew;) {
    grew = false;
    if (i1 + 1 < nRows && fits(i0, i1 + 1)) { i1++; grew = true; }
    if (i0 > 0 && fits(i0 - 1, i1)) { i0--; grew = true; }
  }
  // (centred in the part of the view below its tools)
  const cy = (i0 * pitch + i1 * pitch + L.h) / 2 - reserve / scale / 2;
  // Across: the present up to the last board when that fits, else the focus with the past to
  // its left.
  const left = xAt(t);
  const fx0 = fr.x, fx1 = fr.x + fr.w;
  const cx = !insets && right - left <= worldW && left <= fx0 && fx1 <= right
    ? Math.max((left + right) / 2, right - worldW / 2)
    : (fx1 - fx0 >= worldW ? (fx0 + fx1) / 2 : Math.min(fx1, fx0 + worldW) - worldW / 2);
  return boxAt(cx, cy, px);
}

/** The view showing the boards of a list (centred on their box, squares >= MIN_PX when they fit,
 * else centred on the first of them at MIN_PX). */
export function boardsView(list) {
  const L = app.layout;
  if (!list.length || !L) return presentView();
  const xs = list.map((b) => L.left + L.col(b.t)), ys = list.map((b) => L.row(b.l));
  const r = { x: Math.min(...xs) - L.gx / 2, y: Math.min(...ys) - L.gy / 2, w: 0, h: 0 };
  r.w = Math.max(...xs) + L.w + L.gx / 2 - r.x; r.h = Math.max(...ys) + L.h + L.gy / 2 - r.y;
  const { w: vw, h: vh } = viewSize();
  const px = Math.min(REVIEW_PX, Math.min(vw / r.w, vh / r.h) * SQ);
  if (px >= MIN_PX) return boxAt(r.x + r.w / 2, r.y + r.h / 2, px);
  return boxAt(xs[0] + L.w / 2, ys[0] + L.h / 2, MIN_PX);
}

/** Moves the camera where its mode says (present or fit; a free camera stays). */
export function camera(animate) {
  if (app.cam === 'free') { setViewBox(); return; }
  moveTo(app.cam === 'fit' ? fitView() : presentView(), animate);
}

/** Goes to a view box, animated (about a quarter of a second, eased; the zoom is interpolated
 * geometrically so that it feels even) or at once. */
export function moveTo(target, animate = true) {
  cancelAnimationFrame(app.anim || 0);
  const from = { ...app.vb };
  const view = $('#view');
  // A small change (a refit after a board was added) is applied at once: nothing to follow.
  const small = Math.abs(target.w / from.w - 1) < 0.06 && Math.hypot(target.x + target.w / 2 - from.x - from.w / 2, target.y + target.h / 2 - from.y - from.h / 2) < from.w * 0.04;
  if (!animate || small || matchMedia('(prefers-reduced-motion: reduce)').matches) {
    app.vb = target; view.dataset.camera = 'still'; setViewBox(); return;
  }
  const t0 = performance.now(), dur = 280;
  view.dataset.camera = 'moving';
  const step = (now) => {
    const k = Math.min(1, (now - t0) / dur), e = k < 0.5 ? 2 * k * k : 1 - (-2 * k + 2) ** 2 / 2;
    const w = from.w * (target.w / from.w) ** e, h = from.h * (target.h / from.h) ** e;
    const cx = from.x + from.w / 2 + (target.x + target.w / 2 - from.x - from.w / 2) * e;
    const cy = from.y + from.h / 2 + (target.y + target.h / 2 - from.y - from.h / 2) * e;
    app.vb = k < 1 ? { x: cx - w / 2, y: cy - h / 2, w, h } : target;
    applyViewBox();
    if (k < 1) app.anim = requestAnimationFrame(step); else { view.dataset.camera = 'still'; updateInsets(); updateChecks(); keepClear(visibleRect()); }
  };
  app.anim = requestAnimationFrame(step);
}

/** The boards the shown action touched (where its moves started and landed, as they are after
 * it), for review. */
export function showTouched() {
  const s = app.shown;
  if (!s) return;
  const seen = new Map();
  const add = (l, t) => { const b = draw.boards.get(`${l},${t}`); if (b) seen.set(`${l},${t}`, b); };
  for (const m of s.last_action) {
    for (const c of [m.from, m.to]) {
      const e = existing(s, { ...c, t: c.t + 1 });
      add(e.l, e.t);
      add(c.l, c.t);
      // A jump that branched: its landing board is the new timeline's first.
      for (const tl of s.timelines) if (tl.origin && tl.origin.l === c.l && tl.origin.t === c.t) add(tl.l, tl.start);
    }
  }
  app.cam = 'free';
  moveTo(seen.size ? boardsView([...seen.values()]) : presentView());
}

export function fitAll() { app.cam = 'fit'; moveTo(fitView()); }
export function goPresent() { app.cam = 'present'; moveTo(presentView()); }

/** Whether the boards to play are in view, readable (squares of READ_PX or more): every one of
 * them when they can all be, else one. */
export function toPlayInView() {
  const L = app.layout, plan = toPlayPlan();
  if (!plan.must.length || !L) return true;
  const r = visibleRect();
  if (SQ * r.scale < READ_PX) return false;
  return plan.all ? plan.must.every((b) => boardInside(b, L, r)) : plan.must.some((b) => boardInside(b, L, r));
}

/** The "Next board to play" control: shown while the boards the side to move must play cannot
 * all be shown readably at once; each click goes to the next of them. */
export function updateNextBoard() {
  const btn = $('#btn-next-board');
  const plan = app.shown && app.layout ? toPlayPlan() : { all: true, must: [] };
  const show = !plan.all && plan.must.length > 1;
  btn.classList.toggle('hidden', !show);
  if (show) {
    const text = `Next board to play (${plan.step + 1} of ${plan.must.length})`;
    if (btn.textContent !== text) btn.textContent = text;
  }
}

/** Whether board b is wholly inside the world rectangle r (a visibleRect). */
function boardInside(b, L, r) {
  const x = L.left + L.col(b.t), y = L.row(b.l);
  return x >= r.x && x + L.w <= r.x + r.w && y >= r.y && y + L.h <= r.y + r.h;
}

export const INSET_PX = 17; // the squares of an inset

/** The insets: while the camera follows the present and up to three boards must be played
 * that one readable view cannot hold together, each of them out of the view is drawn small
 * (squares of INSET_PX) at the view's left edge, below its tools; a click on one brings the
 * camera to it. */
export function updateInsets() {
  const box = $('#insets');
  const s = app.shown, L = app.layout;
  let list = [];
  if (s && L && app.cam === 'present') {
    const plan = toPlayPlan();
    if (!plan.all && plan.must.length <= 3) {
      const r = visibleRect();
      const readable = SQ * r.scale >= READ_PX;
      list = plan.must.filter((b) => !(readable && boardInside(b, L, r)));
    }
  }
  const key = list.map((b) => `${b.l},${b.t},${draw.piecesKey.get(`${b.l},${b.t}`)},${draw.inactive.has(b.l)}`).join(' ') + `|${app.flip}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  if (!list.length) { box.replaceChildren(); box.classList.add('hidden'); app.insetsBottom = 0; return; }
  const k = INSET_PX / SQ, padX = 14, padTop = 16, padBottom = 14;
  box.replaceChildren(...list.map((b) => {
    const x = L.left + L.col(b.t), y = L.row(b.l);
    const btn = document.createElement('button');
    btn.type = 'button';
    btn.className = 'inset';
    btn.dataset.inset = `${b.label},${b.turn},${b.color}`;
    btn.setAttribute('aria-label', `Show board (${b.label}T${b.turn}), still to play`);
    btn.title = `(${b.label}T${b.turn}): still to play (click to go there)`;
    // The board as the view draws it, without the hooks of the view's boards (data-l...).
    const markup = boardMarkup(s, b, L, 'mid', null, draw.inactive.has(b.l))
      .replace(/^<g class="board"[^>]*?transform=/, '<g class="inset-board" transform=');
    btn.innerHTML = `<span class="inset-label">(${esc(b.label)}T${b.turn}) to play</span><svg xmlns="http://www.w3.org/2000/svg" viewBox="${x - padX} ${y - padTop} ${L.w + 2 * padX} ${L.h + padTop + padBottom}" width="${(L.w + 2 * padX) * k}" height="${(L.h + padTop + padBottom) * k}">${markup}</svg>`;
    btn.addEventListener('click', () => {
      const i = toPlayPlan().must.findIndex((m) => m.l === b.l && m.t === b.t);
      if (i >= 0) app.toPlayStep = i;
      goPresent();
    });
    return btn;
  }));
  box.classList.remove('hidden');
  // Below the view's tools (which wrap on a narrow screen).
  const wrap = $('#view-wrap').getBoundingClientRect(), tools = $('#view-tools').getBoundingClientRect();
  box.style.top = `${Math.round(tools.bottom - wrap.top + 8)}px`;
  app.insetsBottom = box.getBoundingClientRect().bottom - $('#view').getBoundingClientRect().top;
}

/** The checks as the view shows them: a check whose piece and king are both in the view is an
 * arrow (no long arrows across it to boards out of sight); a king in check out of the view gets
 * a marker at the view's edge, in its direction, that brings its board into view when clicked.
 * Redrawn when the camera comes to rest and for every new state. */
export function updateChecks() {
  const layer = $('#check-layer'), edges = $('#check-edges');
  const s = app.shown, L = app.layout;
  if (!s || !L || !app.vb) { layer.replaceChildren(); edges.replaceChildren(); edges.dataset.key = ''; return; }
  const r = visibleRect();
  const inView = (/** @type {number[]} */ [x, y]) => x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h;
  // One arrow per checking piece (several kings it checks are marked on their squares), under
  // the boards (#check-layer is below #board-layer): it shows between them, never over a piece.
  const arrows = [], kings = new Map(), pieces = new Set();
  for (const c of checksOf(s)) {
    const king = center(s, L, c.to);
    const piece = `${c.from.l},${c.from.t},${c.from.sq}`;
    if (!inView(king)) kings.set(`${c.to.l},${c.to.t}`, { c: existing(s, c.to), at: king });
    else if (inView(center(s, L, c.from)) && !pieces.has(piece)) {
      pieces.add(piece);
      arrows.push(arrow(s, L, { from: c.from, to: c.to }, 'check', 'arrow-check'));
    }
  }
  const html = arrows.join('');
  if (layer.dataset.key !== html) { layer.dataset.key = html; layer.innerHTML = html; }
  // The markers, where the line from the view's centre to the king leaves the view.
  const { w: vw, h: vh } = viewSize();
  const top = Math.max(48, app.toolsTop || 0) + 14, pad = 18;
  const marks = [...kings.values()].map(({ c, at: [kx, ky] }) => {
    const sx = (kx - r.x) * r.scale, sy = (ky - r.y) * r.scale, cx = vw / 2, cy = (vh + top) / 2;
    const dx = sx - cx, dy = sy - cy;
    const k = Math.min(dx ? (dx > 0 ? vw - pad - cx : pad - cx) / dx : Infinity, dy ? (dy > 0 ? vh - pad - cy : top - cy) / dy : Infinity, 1);
    return { c, x: Math.round(cx + dx * k), y: Math.round(cy + dy * k), deg: Math.round((Math.atan2(dy, dx) * 180) / Math.PI) };
  });
  const key = marks.map((m) => `${m.c.l},${m.c.t},${m.x},${m.y}`).join(' ');
  if (edges.dataset.key === key) return;
  edges.dataset.key = key;
  edges.replaceChildren(...marks.map((m) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'check-edge';
    b.dataset.king = `${m.c.l},${m.c.t}`;
    // (the board the king stands on: a check is given from the next board, not made yet)
    const board = draw.boards.get(`${m.c.l},${m.c.t}`);
    const name = board ? `(${board.label}T${board.turn}${board.color === 'black' ? 'b' : ''})` : `(${m.c.label}T${m.c.turn})`;
    b.setAttribute('aria-label', `King in check on ${name}: show it`);
    b.title = `King in check on ${name}: click to show it`;
    b.textContent = `+ ${name}`;
    // Positioned through the CSSOM (the Content-Security-Policy refuses style attributes).
    b.style.left = `${m.x}px`;
    b.style.top = `${m.y}px`;
    b.style.setProperty('--dir', `${m.deg}deg`);
    b.addEventListener('click', () => showBoard(m.c.l, m.c.t));
    return b;
  }));
  // Each marker wholly inside the view (measured once drawn), and clear of the others: one that
  // would cover another moves to the nearest free spot along its edge, or a row further in.
  const placed = boardsToKeepClear(r); // (overlays.js: the boards to play in view, kept clear too)
  const clamp = (v, lo, hi) => Math.min(Math.max(v, lo), hi);
  for (const b of edges.children) {
    const w = b.offsetWidth, h = b.offsetHeight;
    let x = clamp(parseFloat(b.style.left) - w / 2, 4, vw - w - 4);
    let y = clamp(parseFloat(b.style.top) - h / 2, top - 10, vh - h - 4);
    const onSide = x <= 4 || x >= vw - w - 4;
    const fits = (cx, cy) => !placed.some((p) => cx < p.x + p.w + 4 && p.x < cx + w + 4 && cy < p.y + p.h + 4 && p.y < cy + h + 4);
    const along = (v, lo, hi) => {
      const out = [v];
      for (let d = 6; d <= hi - lo; d += 6) { if (v + d <= hi) out.push(v + d); if (v - d >= lo) out.push(v - d); }
      return out;
    };
    let spot = null;
    for (let k = 0; k < 8 && !spot; k++) {
      if (onSide) {
        const cx = clamp(x + (x <= 4 ? 1 : -1) * k * (w + 4), 4, vw - w - 4);
        const cy = along(y, top - 10, vh - h - 4).find((v) => fits(cx, v));
        if (cy !== undefined) spot = [cx, cy];
      } else {
        const cy = clamp(y + (y < vh / 2 ? 1 : -1) * k * (h + 4), top - 10, vh - h - 4);
        const cx = along(x, 4, vw - w - 4).find((v) => fits(v, cy));
        if (cx !== undefined) spot = [cx, cy];
      }
    }
    if (spot) [x, y] = spot;
    placed.push({ x, y, w, h });
    b.style.left = `${Math.round(x)}px`;
    b.style.top = `${Math.round(y)}px`;
  }
}

export function nextBoardToPlay() {
  const plan = toPlayPlan();
  app.toPlayStep = plan.step + 1;
  goPresent();
}

/** Centres the view on the board (l, t) (timeline and half-turn indices) at a readable size. */
export function showBoard(l, t) {
  const L = app.layout;
  if (!L) return;
  cancelAnimationFrame(app.anim || 0);
  app.cam = 'free';
  app.vb = boxAt(L.left + L.col(t) + L.w / 2, L.row(l) + L.h / 2, 40);
  $('#view').dataset.camera = 'still';
  setViewBox();
}
window.__chess5dShow = showBoard;

export function zoomAt(factor, px, py) {
  cancelAnimationFrame(app.anim || 0);
  $('#view').dataset.camera = 'still';
  const v = app.vb;
  const nw = Math.min(Math.max(v.w * factor, 80), 400000), f = nw / v.w;
  app.vb = { x: px - (px - v.x) * f, y: py - (py - v.y) * f, w: nw, h: v.h * f };
  app.cam = 'free';
  setViewBox();
}

/** Zoom by a button or key: animated, around the centre of the view. */
export function zoomStep(factor) {
  const v = app.vb, w = Math.min(Math.max(v.w * factor, 80), 400000), h = v.h * (w / v.w);
  app.cam = 'free';
  moveTo({ x: v.x + v.w / 2 - w / 2, y: v.y + v.h / 2 - h / 2, w, h });
}

export function svgPoint(ev) {
  const svg = $('#view'), r = svg.getBoundingClientRect();
  const v = app.vb;
  // preserveAspectRatio meet: the viewBox is scaled uniformly and centred.
  const scale = Math.min(r.width / v.w, r.height / v.h);
  const ox = (r.width - v.w * scale) / 2, oy = (r.height - v.h * scale) / 2;
  return [v.x + (ev.clientX - r.left - ox) / scale, v.y + (ev.clientY - r.top - oy) / scale, scale];
}

/** The board and square under a pointer event, or null: {l, t, sq, board}. */
export function hitTest(ev) {
  const s = app.shown, L = app.layout;
  if (!s || !L) return null;
  const [wx, wy] = svgPoint(ev);
  const cx = wx - L.left, ci = Math.floor(cx / (L.w + L.gx)), bx = cx - ci * (L.w + L.gx);
  const ri = Math.floor(wy / (L.h + L.gy)), by = wy - ri * (L.h + L.gy);
  if (bx < 0 || bx >= L.w || by < 0 || by >= L.h) return null;
  const t = L.minT + ci, l = app.flip ? L.maxL - ri : L.minL + ri;
  const board = draw.boards.get(`${l},${t}`);
  if (!board) return null;
  const x = Math.floor(bx / SQ), y = Math.floor(by / SQ);
  const sq = app.flip ? FILES[s.size.w - 1 - x] + (y + 1) : FILES[x] + (s.size.h - y);
  return { l, t, sq, board };
}
