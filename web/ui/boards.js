// Layer 2 (drawing), its lowest module: the boards of the multiverse (see below): the layout,
// one board's markup, and the culled, cached set of board groups in a world rectangle (the
// camera's view, given by the caller).
import { $, SVGNS, esc } from './dom.js';
import { SQ, PIECE_PATHS, FILES, glyph } from './pieces.js';

// The page's services, passed in by the router (app.js) before any page opens.
/** @type {import('./state.js').Board} */
let app;
/** @type {import('./settings.js').Settings} */
let settings;
/** Takes the page's services (types/pages.d.ts). @param {import('../types/pages.js').Services} s */
export function wire(s) {
  app = s.board;
  settings = s.settings;
}

// ---------- drawing ----------
//
// The multiverse is drawn for speed with hundreds of boards:
// - only the boards in (or near) the visible part of the world are in the DOM (culling, redone
//   after every pan or zoom, at most once per animation frame);
// - each board is one <g> built from a string and kept while its content is unchanged: a new
//   state, a selection or a pan only rebuilds the boards whose signature (pieces, flags,
//   highlights, level of detail) changed;
// - pieces are drawn as a few <path>s per board (every piece of a colour in one path) from the
//   glyph outlines of pieces.js, not as one text element per piece;
// - the level of detail follows the size of a square on screen: 'near' boards (squares of 24
//   pixels or more, or at most 16 boards in view) have one rect per square, coordinates and one
//   (empty) marker per piece for scripts; 'mid' boards a checkerboard pattern and the piece
//   paths; 'far' boards (squares under 5 pixels and over 40 boards in view) a flat fill and a
//   dot per piece. Highlighted squares are rects at every level.
// Clicks are found from the pointer's position (hitTest), so they work at every level.

export const NEAR_PX = 24;   // a square at least this many pixels wide: full detail (coordinates readable)
export const FAR_PX = 5;     // below this: flat boards with dots
export const FEW_NEAR = 16;   // with this many boards in view or fewer, always full detail
export const FEW_FAR = 40;    // with this many or fewer, never dots
export const LABEL_PX = 24;  // squares under this many pixels: no board labels nor coordinates (under 9 px, unreadable)

export const draw = {
  cache: new Map(),   // "l,t" -> { sig, el }
  shown: new Map(),   // "l,t" -> el currently in the layer
  scheduled: false,
  hl: new Map(),      // "l,t" -> Map(sq -> { cls, dest })
  boards: new Map(),  // "l,t" -> board of app.shown
  piecesKey: new Map(), // "l,t" -> string of its pieces
  bgKey: '',
  lod: 'near',
};

/** What a new state draws (render()): its boards by "l,t", their pieces' keys, the inactive
 * timelines. @param {any} s */
export function drawState(s) {
  draw.boards = new Map(s.boards.map((b) => [`${b.l},${b.t}`, b]));
  draw.piecesKey = new Map(s.boards.map((b) => [`${b.l},${b.t}`, b.pieces.map((p) => p.sq + p.p + p.c[0]).join('')]));
  draw.inactive = new Set(s.timelines.filter((t) => !t.active).map((t) => t.l));
}

/** The highlighted squares drawn from now on: "l,t" -> Map(sq -> { cls, dest }).
 * @param {Map<string, Map<string, any>>} hl */
export function drawHighlights(hl) { draw.hl = hl; }

/** Runs `frame` at the next animation frame, once however often it is asked before then.
 * @param {() => void} frame */
export function onNextFrame(frame) {
  if (draw.scheduled) return;
  draw.scheduled = true;
  requestAnimationFrame(() => {
    draw.scheduled = false;
    frame();
  });
}

export function layout(s) {
  const w = s.size.w * SQ, h = s.size.h * SQ;
  const gx = SQ * 1.5, gy = SQ * 1.5;
  let minT = Infinity, maxT = -Infinity, minL = Infinity, maxL = -Infinity;
  for (const b of s.boards) { minT = Math.min(minT, b.t); maxT = Math.max(maxT, b.t); minL = Math.min(minL, b.l); maxL = Math.max(maxL, b.l); }
  const col = (t) => (t - minT) * (w + gx);
  const row = (l) => (app.flip ? (maxL - l) : (l - minL)) * (h + gy);
  return { w, h, gx, gy, minT, maxT, minL, maxL, col, row, left: 80 };
}

export function squareXY(s, sq) {
  const x = sq.charCodeAt(0) - 97, y = Number(sq.slice(1)) - 1;
  return app.flip ? [(s.size.w - 1 - x) * SQ, y * SQ] : [x * SQ, (s.size.h - 1 - y) * SQ];
}

export function existing(s, c) {
  // A coordinate on a board that does not exist yet (e.g. the board a check would come from
  // after a pass) is drawn on the latest board of its timeline.
  if (draw.boards.has(`${c.l},${c.t}`)) return c;
  const tl = s.timelines.find((t) => t.l === c.l);
  return tl && c.t > tl.end ? { ...c, t: tl.end } : c;
}

/** The SVG markup of one board at a level of detail; `labels`: its (L T) label and coordinates
 * are drawn (off where they would be too small to read: drawBoards). */
export function boardMarkup(s, b, L, lod, hl, inactive, labels = true) {
  const x = L.left + L.col(b.t), y = L.row(b.l);
  const out = [`<g class="board" data-l="${esc(b.label)}" data-t="${b.turn}" data-color="${b.color}" data-li="${b.l}" data-ti="${b.t}" data-playable="${b.playable}" data-mandatory="${b.mandatory}" data-lod="${lod}" transform="translate(${x} ${y})">`];
  // The outline has the colour to move on the board, thick when playable; a mandatory board
  // (one that must be played before Submit) gets a dashed accent frame around it.
  const sw = b.playable ? 9 : 3;
  out.push(`<rect class="board-outline ${b.color}" x="${-sw / 2 - 1}" y="${-sw / 2 - 1}" width="${L.w + sw + 2}" height="${L.h + sw + 2}" stroke-width="${sw}" rx="3"/>`);
  if (b.mandatory) out.push(`<rect class="board-mandatory" x="-13" y="-13" width="${L.w + 26}" height="${L.h + 26}" rx="7"/>`);
  const W = s.size.w, H = s.size.h;
  if (lod === 'near') {
    // The colours come from the pattern; the square rects are unpainted (clicks and hooks) but
    // for the highlighted ones.
    out.push(`<rect width="${L.w}" height="${L.h}" fill="url(#chk)"/>`);
    for (let yy = 0; yy < H; yy++) {
      for (let xx = 0; xx < W; xx++) {
        const name = FILES[xx] + (yy + 1);
        const h = hl && hl.get(name);
        const [sx, sy] = squareXY(s, name);
        out.push(`<rect class="sq ${(xx + yy) % 2 === 0 ? 'sq-dark' : 'sq-light'}${h ? ' ' + h.cls : ' bare'}" data-square="${name}"${h && h.dest ? ` data-dest="${h.dest}"` : ''} x="${sx}" y="${sy}" width="${SQ}" height="${SQ}"/>`);
      }
    }
  } else {
    out.push(lod === 'far' ? `<rect class="far-fill" width="${L.w}" height="${L.h}"/>` : `<rect width="${L.w}" height="${L.h}" fill="url(#chk)"/>`);
    if (hl) {
      for (const [name, h] of hl) {
        const [sx, sy] = squareXY(s, name);
        out.push(`<rect class="sq ${h.cls}" data-square="${name}"${h.dest ? ` data-dest="${h.dest}"` : ''} x="${sx}" y="${sy}" width="${SQ}" height="${SQ}"/>`);
      }
    }
  }
  // Pieces: every piece of a colour in one path (dots when far), other roles one element each.
  const paths = { whiteFill: [], whiteLine: [], blackFill: [] };
  const extra = [];
  for (const p of b.pieces) {
    const [sx, sy] = squareXY(s, p.sq);
    if (lod === 'far') {
      (p.c === 'white' ? paths.whiteFill : paths.blackFill).push(`M${sx + 8} ${sy + 8}h24v24h-24z`);
    } else if (PIECE_PATHS[p.p]) {
      if (p.c === 'white') { paths.whiteFill.push(glyph(p.p, 'fill', sx, sy)); paths.whiteLine.push(glyph(p.p, 'line', sx, sy)); }
      else paths.blackFill.push(glyph(p.p, 'fill', sx, sy));
    } else {
      const fill = p.c === 'white' ? '#fbfbf5' : '#15151a', stroke = p.c === 'white' ? '#222' : '#ddd';
      extra.push(`<circle cx="${sx + SQ / 2}" cy="${sy + SQ / 2}" r="${SQ * 0.38}" fill="${fill}" stroke="${stroke}" stroke-width="2"/><text class="fairy" x="${sx + SQ / 2}" y="${sy + SQ * 0.68}" fill="${stroke}">${esc(p.p)}</text>`);
    }
    if (lod === 'near') extra.push(`<g class="piece" data-piece="${esc(p.p)}" data-piece-color="${p.c}" data-at="${p.sq}"/>`);
  }
  if (paths.whiteFill.length) out.push(`<path class="pc-white${lod === 'far' ? ' dot' : ''}" d="${paths.whiteFill.join('')}"/>`);
  if (paths.whiteLine.length) out.push(`<path class="pc-white-line" d="${paths.whiteLine.join('')}"/>`);
  if (paths.blackFill.length) out.push(`<path class="pc-black${lod === 'far' ? ' dot' : ''}" d="${paths.blackFill.join('')}"/>`);
  out.push(...extra);
  if (lod === 'near' && labels) {
    // Coordinates inside the edge squares (files along the bottom, ranks along the left side).
    const bottom = app.flip ? H - 1 : 0, left = app.flip ? W - 1 : 0;
    for (let xx = 0; xx < W; xx++) {
      const [sx] = squareXY(s, FILES[xx] + '1');
      out.push(`<text class="coord ${(xx + bottom) % 2 === 0 ? 'on-dark' : 'on-light'}" x="${sx + SQ - 2}" y="${L.h - 2}" text-anchor="end">${FILES[xx]}</text>`);
    }
    for (let yy = 0; yy < H; yy++) {
      const [, sy] = squareXY(s, FILES[left] + (yy + 1));
      out.push(`<text class="coord ${(left + yy) % 2 === 0 ? 'on-dark' : 'on-light'}" x="2" y="${sy + 14}">${yy + 1}</text>`);
    }
  }
  // The label above the outer edge of the board's outermost frame (the outline's stroke, or the
  // mandatory frame), its descenders clear of it: it never touches a frame.
  const frameTop = b.mandatory ? 14.5 : sw + 1;
  if (lod !== 'far' && labels) out.push(`<text class="board-label" x="${L.w}" y="${-(frameTop + 6)}" text-anchor="end">(${esc(b.label)}T${b.turn})</text>`);
  if (inactive) out.push(`<rect class="inactive-veil" x="-8" y="-8" width="${L.w + 16}" height="${L.h + 16}"/>`);
  out.push('</g>');
  return out.join('');
}

/** Adds, keeps, rebuilds or removes board groups for the view r (camera.js's visibleRect: the
 * world rectangle in view and its scale); cheap when nothing changed. */
export function drawBoards(r) {
  const s = app.shown, L = app.layout;
  if (!s || !L) return;
  const layer = $('#board-layer');
  const mx = r.w * 0.15, my = r.h * 0.15;
  const x0 = r.x - mx, x1 = r.x + r.w + mx, y0 = r.y - my, y1 = r.y + r.h + my;
  const inView = [];
  for (const b of s.boards) {
    const bx = L.left + L.col(b.t), by = L.row(b.l);
    if (bx + L.w + 10 < x0 || bx - 10 > x1 || by + L.h + 10 < y0 || by - 10 > y1) continue;
    inView.push(b);
  }
  const sp = SQ * r.scale;
  const n = inView.length;
  const lod = n <= FEW_NEAR || sp >= NEAR_PX ? 'near' : sp >= FAR_PX || n <= FEW_FAR ? 'mid' : 'far';
  draw.lod = lod;
  const labels = sp >= LABEL_PX;
  // The turn labels (the columns' headers) keep a readable size: a screen pixel in world units
  // (style.css's minimum), and fewer of them where the columns are narrow.
  const bg = $('#bg-layer');
  bg.style.setProperty('--px', `${(1 / r.scale).toFixed(3)}px`);
  const turnPx = (L.w + L.gx) * 2 * r.scale;
  bg.dataset.turns = turnPx >= 80 ? 'all' : turnPx >= 40 ? 'turns' : turnPx * 5 >= 40 ? 'five' : 'ten';
  const want = new Set();
  const fresh = [];
  const freshKeys = new Set();
  for (const b of inView) {
    const k = `${b.l},${b.t}`;
    want.add(k);
    const hl = draw.hl.get(k);
    const inactive = draw.inactive.has(b.l);
    const sig = `${lod}|${labels}|${app.flip}|${b.label}|${b.turn}|${b.color}|${b.playable}|${b.mandatory}|${inactive}|${L.left + L.col(b.t)},${L.row(b.l)}|${draw.piecesKey.get(k)}|${hl ? [...hl].map(([q, h]) => q + h.cls + (h.dest || '')).join() : ''}`;
    const c = draw.cache.get(k);
    if (c && c.sig === sig) {
      if (draw.shown.get(k) !== c.el) { fresh.push([k, c.el]); freshKeys.add(k); }
      continue;
    }
    fresh.push([k, null, sig, boardMarkup(s, b, L, lod, hl, inactive, labels)]);
    freshKeys.add(k);
  }
  for (const [k, el] of draw.shown) {
    if (!want.has(k) || freshKeys.has(k)) { el.remove(); draw.shown.delete(k); }
  }
  const build = fresh.filter((f) => !f[1]);
  if (build.length) {
    const tmp = document.createElementNS(SVGNS, 'g');
    tmp.innerHTML = build.map((f) => f[3]).join('');
    const els = [...tmp.children];
    build.forEach((f, i) => { f[1] = els[i]; draw.cache.set(f[0], { sig: f[2], el: els[i] }); });
  }
  if (fresh.length) {
    const frag = document.createDocumentFragment();
    for (const [k, el] of fresh) { frag.appendChild(el); draw.shown.set(k, el); }
    layer.appendChild(frag);
  }
  // Forget cached boards that no longer exist (another game, review of an earlier position).
  if (draw.cache.size > 2 * s.boards.length + 200) {
    for (const k of draw.cache.keys()) if (!draw.boards.has(k) && !draw.shown.has(k)) draw.cache.delete(k);
  }
}

/** Forgets every board drawn (another game, the editor). */
export function resetDrawing() {
  for (const el of draw.shown.values()) el.remove();
  draw.shown.clear();
  draw.cache.clear();
}

// ---------- arrows (moves, checks, lines) in the world's coordinates ----------

/** The centre of square c (an API coordinate) in the world. */
export function center(s, L, c) {
  c = existing(s, c);
  const [x, y] = squareXY(s, c.sq);
  return [L.left + L.col(c.t) + x + SQ / 2, L.row(c.l) + y + SQ / 2];
}

/** An arrow for move m (from, to), of class cls with its marker. */
export function arrow(s, L, m, cls, marker) {
  const [x1, y1] = center(s, L, m.from), [x2, y2] = center(s, L, m.to);
  if (m.from.l === m.to.l && m.from.t === m.to.t) {
    return `<path class="arrow ${cls}" d="M${x1} ${y1} L${x2} ${y2}" marker-end="url(#${marker})"/>`;
  }
  const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
  const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1;
  const bend = Math.min(80, len * 0.25);
  const cx = mx - (dy / len) * bend, cy = my + (dx / len) * bend;
  return `<path class="arrow ${cls}" d="M${x1} ${y1} Q${cx} ${cy} ${x2} ${y2}" marker-end="url(#${marker})"/>`;
}


/** Every check of a state (at a mate there may be several; one arrow would make a defence look
 * possible); none when the player hid the check markers (Settings). */
export function checksOf(s) {
  if (!settings.checks) return [];
  if (s.checks && s.checks.length) return s.checks;
  return s.check ? [s.check] : [];
}

