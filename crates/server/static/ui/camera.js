// Layer 2 (drawing), above boards.js: the camera: the view box (present / fit / free), animated
// moves, zoom, from a pointer event the board and square under it, and the overlays that follow
// the view (the timeline labels at its left edge, the overview's frame).
import { $ } from './dom.js';
import { SQ, FILES } from './pieces.js';
import { app, presentOf } from './state.js';
import { draw, existing, drawBoards } from './boards.js';

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
}

export function setViewBox() {
  if (draw.scheduled) return;
  draw.scheduled = true;
  requestAnimationFrame(() => {
    draw.scheduled = false;
    const v = app.vb;
    $('#view').setAttribute('viewBox', `${v.x} ${v.y} ${v.w} ${v.h}`);
    drawBoards(visibleRect());
    updateOverlays();
  });
}

/** Keeps the overlays in step with the camera: the frame of the overview, and the labels of
 * the timelines in view along the left edge, where their own labels (at each timeline's first
 * board) have scrolled out of sight. */
export function updateOverlays() {
  const s = app.shown, L = app.layout, v = app.vb;
  const rail = $('#tl-rail');
  if (!s || !L || !v) { rail.replaceChildren(); rail.dataset.key = ''; return; }
  const { w: vw, h: vh } = viewSize();
  const scale = vw / v.w;
  const labels = [];
  for (const tl of s.timelines) {
    const y = (L.row(tl.l) + L.h / 2 - v.y) * scale;
    if (y < 48 || y > vh - 8) continue; // (not under the view tools)
    // Its own label is in view: no need for a second one.
    const own = (L.left + L.col(tl.start) - 22 - v.x) * scale;
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
}

// ---------- camera ----------

export const MIN_PX = 28;   // the smallest square (pixels) of the default views: labels stay readable
export const MAX_PX = 64;   // and the largest (one board does not fill the screen)
export const REVIEW_PX = 44; // the largest when showing an action's boards (some context around them)

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

/** The default view of a position: all of it if it is small enough to be readable whole; else
 * the boards to play (the present column up to the latest board of every active timeline, with
 * up to two columns before the present for context) if their
 * squares can be at least MIN_PX; otherwise the boards to play around the active timeline
 * nearest to timeline 0, at MIN_PX. */
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
  // Too many timelines for one readable view: the active timeline nearest timeline 0.
  // Whole rows: as many as fit, around that timeline; across, its board to play (or its board at
  // the present).
  const toPlay = s.boards.filter((b) => b.mandatory || b.playable);
  const pick = toPlay.length ? toPlay.reduce((a, b) => (Math.abs(b.l) < Math.abs(a.l) ? b : a), toPlay[0]) : null;
  const near = pick ? tls.find((tl) => tl.l === pick.l) || tls[0] : tls.reduce((a, tl) => (Math.abs(tl.l) < Math.abs(a.l) ? tl : a), tls[0]);
  const sorted = [...new Set(rows)].sort((a, b) => a - b);
  const worldH = vh / (MIN_PX / SQ), k = Math.max(1, Math.floor((worldH - L.gy) / (L.h + L.gy)));
  const at = sorted.indexOf(L.row(near.l));
  let i0 = Math.max(0, Math.min(at - Math.floor((k - 1) / 2), sorted.length - k));
  let i1 = Math.min(sorted.length - 1, i0 + k - 1);
  while (i1 > i0 && sorted[i1] + L.h - sorted[i0] > worldH - L.gy) { if (i1 > at) i1--; else i0++; }
  const v = boxAt(0, (sorted[i0] + sorted[i1] + L.h) / 2, MIN_PX);
  const left = xAt(t);
  const focusT = pick ? pick.t : Math.min(Math.max(t, near.start), near.end);
  const cx = right - left <= v.w ? Math.max((left + right) / 2, right - v.w / 2) : Math.min(L.left + L.col(focusT) + L.w + L.gx * 0.8, L.left + L.col(focusT) - L.gx + v.w) - v.w / 2;
  return { ...v, x: cx - v.w / 2 };
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
    if (k < 1) app.anim = requestAnimationFrame(step); else view.dataset.camera = 'still';
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
