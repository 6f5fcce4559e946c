// chess5d web GUI: plain modern JS, no build step. Talks to the JSON API and the game WebSocket.
'use strict';

const $ = (s) => document.querySelector(s);
const SVGNS = 'http://www.w3.org/2000/svg';
const SQ = 40;

const app = {
  info: null,
  state: null,        // the live game state from the server
  shown: null,        // the state drawn (live or review)
  review: null,       // action count under review, or null
  flip: false,
  selected: null,     // {l, t, sq}
  dests: new Map(),   // "l,t,sq" -> [move]
  ws: null,
  wsGame: null,
  vb: { x: 0, y: 0, w: 1000, h: 700 },
  userMoved: false,
  layoutKey: '',
  clockBase: null,
};

async function api(method, url, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(url, opts);
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { error: text }; }
  if (!res.ok) throw new Error((data && data.error) || `HTTP ${res.status}`);
  return data;
}

function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

function showError(msg) {
  const e = $('#error');
  if (!msg) { e.classList.add('hidden'); e.textContent = ''; return; }
  e.textContent = msg;
  e.classList.remove('hidden');
}

// ---------- routing ----------

function route() {
  const m = location.hash.match(/^#\/game\/(\d+)/);
  if (m) openGame(Number(m[1]));
  else showHome();
}
window.addEventListener('hashchange', route);

async function showHome() {
  closeWs();
  app.state = null;
  $('#play').classList.add('hidden');
  $('#home').classList.remove('hidden');
  document.title = 'chess5d';
  await Promise.all([loadInfo(), refreshGames(), refreshPuzzles()]).catch((e) => console.warn(e));
}

async function loadInfo() {
  if (app.info) return;
  app.info = await api('GET', '/api/info');
  $('#ng-variant').innerHTML = app.info.variants.map((v) => `<option value="${esc(v.name)}">${esc(v.name)} (${esc(v.size)})</option>`).join('');
  for (const side of ['white', 'black']) {
    $(`#ng-${side}`).innerHTML = '<option value="human">Human</option>' +
      app.info.engines.map((e) => `<option value="engine:${esc(e)}">Engine: ${esc(e)}</option>`).join('');
    $(`#ng-${side}-bot`).innerHTML = app.info.bots.map((b) => `<option value="${esc(b)}">${esc(b)}</option>`).join('');
  }
}

async function refreshGames() {
  const { games } = await api('GET', '/api/games');
  $('#games-table tbody').innerHTML = games.map((g) => `<tr data-game="${g.id}">
    <td>${g.id}</td><td>${esc(g.white)}</td><td>${esc(g.black)}</td><td>${esc(g.puzzle ? 'Puzzle: ' + g.puzzle : g.variant)}</td>
    <td>${esc(g.result)}${g.termination ? ' <small>(' + esc(g.termination) + ')</small>' : ''}</td><td>${g.actions}</td><td>${esc(g.created)}</td>
    <td><button type="button" data-open="${g.id}" aria-label="Open game ${g.id}">${g.result === '*' ? 'Resume' : 'Open'}</button><button type="button" data-delete="${g.id}" aria-label="Delete game ${g.id}">Delete</button></td></tr>`).join('')
    || '<tr><td colspan="8">No saved games yet.</td></tr>';
}

async function refreshPuzzles() {
  const { puzzles } = await api('GET', '/api/puzzles');
  $('#puzzles-table tbody').innerHTML = puzzles.map((p) => `<tr data-puzzle="${esc(p.id)}">
    <td>${esc(p.name)}</td><td>${esc(p.to_move)}</td><td>${p.mate_in ?? '?'}</td><td class="status-${esc(p.status)}">${esc(p.status)}</td>
    <td><button type="button" data-puzzle-start="${esc(p.id)}" aria-label="Start puzzle ${esc(p.name)}">Start</button></td></tr>`).join('');
}

$('#games-table').addEventListener('click', async (ev) => {
  const b = ev.target.closest('button');
  if (!b) return;
  if (b.dataset.open) location.hash = `#/game/${b.dataset.open}`;
  if (b.dataset.delete) {
    try { await api('DELETE', `/api/games/${b.dataset.delete}`); } catch (e) { alert(e.message); }
    refreshGames();
  }
});

$('#puzzles-table').addEventListener('click', async (ev) => {
  const b = ev.target.closest('button[data-puzzle-start]');
  if (!b) return;
  const g = await api('POST', `/api/puzzles/${encodeURIComponent(b.dataset.puzzleStart)}`);
  location.hash = `#/game/${g.id}`;
});

function playerOf(side) {
  const v = $(`#ng-${side}`).value;
  if (v === 'human') return { type: 'human' };
  return { type: 'engine', engine: v.slice(7), bot: $(`#ng-${side}-bot`).value, movetime_ms: Number($(`#ng-${side}-ms`).value) || 1000 };
}

$('#new-game-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const body = { variant: $('#ng-variant').value, white: playerOf('white'), black: playerOf('black') };
  if ($('#ng-clock').checked) {
    body.clock = { initial_ms: Math.round(Number($('#ng-minutes').value) * 60000), increment_ms: Math.round(Number($('#ng-inc').value) * 1000) };
  }
  try {
    const g = await api('POST', '/api/games', body);
    location.hash = `#/game/${g.id}`;
  } catch (e) { alert(e.message); }
});

$('#btn-new').addEventListener('click', () => { location.hash = '#/'; showHome(); $('#ng-variant').focus(); });
$('#btn-games').addEventListener('click', () => { location.hash = '#/'; showHome(); });
$('#btn-puzzles').addEventListener('click', () => { location.hash = '#/'; showHome().then(() => $('#puzzles-table').scrollIntoView()); });

// ---------- import / export ----------

$('#btn-import').addEventListener('click', () => {
  $('#import-error').classList.add('hidden');
  $('#import-dialog').showModal();
  $('#import-text').focus();
});
$('#import-cancel').addEventListener('click', () => $('#import-dialog').close());
$('#import-load').addEventListener('click', async () => {
  const text = $('#import-text').value;
  try {
    const g = await api('POST', '/api/games', { import: text });
    $('#import-dialog').close();
    location.hash = `#/game/${g.id}`;
  } catch (e) {
    const el = $('#import-error');
    el.textContent = e.message;
    el.classList.remove('hidden');
  }
});

$('#btn-export').addEventListener('click', () => {
  if (!app.state) return;
  $('#export-text').value = app.state.pgn;
  $('#export-dialog').showModal();
});
$('#export-close').addEventListener('click', () => $('#export-dialog').close());
$('#export-copy').addEventListener('click', async () => {
  const t = $('#export-text');
  try { await navigator.clipboard.writeText(t.value); } catch { t.select(); document.execCommand('copy'); }
  $('#export-copy').textContent = 'Copied';
  setTimeout(() => { $('#export-copy').textContent = 'Copy'; }, 1200);
});
$('#export-download').addEventListener('click', () => {
  const blob = new Blob([$('#export-text').value], { type: 'text/plain' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `chess5d-game-${app.state ? app.state.id : 'x'}.5dpgn`;
  document.body.appendChild(a);
  a.click();
  a.remove();
});

// ---------- game ----------

async function openGame(id) {
  $('#home').classList.add('hidden');
  $('#play').classList.remove('hidden');
  if (!app.state || app.state.id !== id) {
    app.state = null;
    app.review = null;
    app.userMoved = false;
    app.layoutKey = '';
    app.selected = null;
    app.dests.clear();
  }
  showError(null);
  try {
    setState(await api('GET', `/api/games/${id}`));
  } catch (e) {
    showError(e.message);
    return;
  }
  connectWs(id);
}

function closeWs() {
  app.wsGame = null;
  if (app.ws) { app.ws.onclose = null; app.ws.close(); app.ws = null; }
}

function connectWs(id) {
  if (app.wsGame === id && app.ws) return;
  closeWs();
  app.wsGame = id;
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${id}/ws`);
  app.ws = ws;
  ws.onmessage = (m) => {
    const data = JSON.parse(m.data);
    if (data.deleted) { location.hash = '#/'; return; }
    if (data.id === app.wsGame) setState(data);
  };
  ws.onclose = () => {
    app.ws = null;
    if (app.wsGame === id) setTimeout(() => { if (app.wsGame === id) { app.wsGame = null; connectWs(id); } }, 1000);
  };
}

function setState(s) {
  if (app.state && app.state.id === s.id && s.version < app.state.version && s.action_count <= app.state.action_count) return;
  const changed = !app.state || app.state.version !== s.version;
  app.state = s;
  app.clockBase = { t: performance.now(), white: s.clock?.white_ms, black: s.clock?.black_ms };
  if (changed) { app.selected = null; app.dests.clear(); }
  if (app.review !== null) {
    if (app.review >= s.action_count) app.review = null; else { renderSide(); return; }
  }
  app.shown = s;
  render();
}

async function setReview(n) {
  const s = app.state;
  if (!s) return;
  if (n === null || n >= s.action_count) {
    app.review = null;
    app.shown = s;
  } else {
    n = Math.max(0, n);
    app.review = n;
    app.shown = await api('GET', `/api/games/${s.id}?at=${n}`);
  }
  app.selected = null;
  app.dests.clear();
  render();
}

// ---------- drawing ----------

const GLYPH = { K: '\u265A', Q: '\u265B', R: '\u265C', B: '\u265D', N: '\u265E', P: '\u265F' };

function layout(s) {
  const w = s.size.w * SQ, h = s.size.h * SQ;
  const gx = SQ * 1.5, gy = SQ * 1.5;
  let minT = Infinity, maxT = -Infinity, minL = Infinity, maxL = -Infinity;
  for (const b of s.boards) { minT = Math.min(minT, b.t); maxT = Math.max(maxT, b.t); minL = Math.min(minL, b.l); maxL = Math.max(maxL, b.l); }
  const col = (t) => (t - minT) * (w + gx);
  const row = (l) => (app.flip ? (maxL - l) : (l - minL)) * (h + gy);
  return { w, h, gx, gy, minT, maxT, minL, maxL, col, row, left: 80 };
}

function squareXY(s, sq) {
  const x = sq.charCodeAt(0) - 97, y = Number(sq.slice(1)) - 1;
  return app.flip ? [(s.size.w - 1 - x) * SQ, y * SQ] : [x * SQ, (s.size.h - 1 - y) * SQ];
}

function existing(s, c) {
  // A coordinate on a board that does not exist yet (e.g. the board a check would come from
  // after a pass) is drawn on the latest board of its timeline.
  if (s.boards.some((b) => b.l === c.l && b.t === c.t)) return c;
  const tl = s.timelines.find((t) => t.l === c.l);
  return tl && c.t > tl.end ? { ...c, t: tl.end } : c;
}

function center(s, L, c) {
  c = existing(s, c);
  const [x, y] = squareXY(s, c.sq);
  return [L.left + L.col(c.t) + x + SQ / 2, L.row(c.l) + y + SQ / 2];
}

function arrow(s, L, m, cls, marker) {
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

function render() {
  const s = app.shown;
  if (!s) return;
  const L = layout(s);
  const parts = [];
  const tlByL = new Map(s.timelines.map((t) => [t.l, t]));
  const files = 'abcdefgh';
  const dense = s.boards.length > 60;
  if (dense) {
    // The checkerboard as a pattern: a1 is dark (bottom-left), flipped or not.
    const w = s.size.w, h = s.size.h;
    const a1dark = app.flip ? ((w - 1) + 0) % 2 === 0 : (h - 1) % 2 === 0;
    const pat = `<pattern id="chk" width="${2 * SQ}" height="${2 * SQ}" patternUnits="userSpaceOnUse">
      <rect width="${2 * SQ}" height="${2 * SQ}" class="sq-light"/>
      <rect x="${a1dark ? 0 : SQ}" y="0" width="${SQ}" height="${SQ}" class="sq-dark"/>
      <rect x="${a1dark ? SQ : 0}" y="${SQ}" width="${SQ}" height="${SQ}" class="sq-dark"/></pattern>`;
    parts.push(pat);
  }
  // Timeline rows and labels.
  for (const tl of s.timelines) {
    const y = L.row(tl.l) + L.h / 2;
    const x1 = L.left + L.col(tl.start), x2 = L.left + L.col(tl.end) + L.w;
    parts.push(`<line class="tl-line" x1="${x1}" y1="${y}" x2="${x2}" y2="${y}"/>`);
    if (tl.origin) {
      const ox = L.left + L.col(tl.origin.t) + L.w / 2, oy = L.row(tl.origin.l) + L.h / 2;
      parts.push(`<path class="tl-line" fill="none" d="M${ox} ${oy} C${ox + L.w} ${oy} ${x1 - L.w} ${y} ${x1} ${y}"/>`);
    }
    parts.push(`<text class="tl-label ${tl.active ? '' : 'inactive'}" x="${L.left + L.col(tl.start) - 12}" y="${y + 6}" text-anchor="end">L${esc(tl.label)}</text>`);
  }
  // Present.
  const rows = L.maxL - L.minL + 1;
  const px = L.left + L.col(s.present.t) - L.gx / 4;
  parts.push(`<rect class="present-line" x="${px}" y="${-L.gy / 2}" width="${L.w + L.gx / 2}" height="${rows * (L.h + L.gy)}" rx="10"/>`);
  // Turn labels.
  for (let t = L.minT; t <= L.maxT; t++) {
    parts.push(`<text class="turn-label" x="${L.left + L.col(t) + L.w / 2}" y="${-L.gy / 2 - 6}" text-anchor="middle">T${Math.floor(t / 2)}${t % 2 ? 'b' : 'w'}</text>`);
  }
  // Boards.
  const ck = (c) => { c = existing(s, c); return `${c.l},${c.t},${c.sq}`; };
  const checkFrom = s.check ? ck(s.check.from) : null;
  const checkTo = s.check ? ck(s.check.to) : null;
  const lastSq = new Set();
  for (const m of s.last_action.concat(s.pending)) { lastSq.add(`${m.from.l},${m.from.t},${m.from.sq}`); lastSq.add(`${m.to.l},${m.to.t},${m.to.sq}`); }
  for (const b of s.boards) {
    const tl = tlByL.get(b.l);
    const x = L.left + L.col(b.t), y = L.row(b.l);
    const g = [`<g class="board ${tl && !tl.active ? 'inactive' : ''}" data-l="${esc(b.label)}" data-t="${b.turn}" data-color="${b.color}" data-li="${b.l}" data-ti="${b.t}" data-playable="${b.playable}" data-mandatory="${b.mandatory}" transform="translate(${x} ${y})">`];
    const sw = b.playable ? 9 : 3;
    g.push(`<rect class="board-outline ${b.color} ${b.mandatory ? 'mandatory' : ''}" x="${-sw / 2 - 2}" y="${-sw / 2 - 2}" width="${L.w + sw + 4}" height="${L.h + sw + 4}" stroke-width="${sw}" rx="4"/>`);
    // With many boards only playable boards get one element per square (others use a pattern;
    // squares are added on demand for highlights), so that panning and zooming stay smooth.
    if (dense) g.push(`<rect x="0" y="0" width="${L.w}" height="${L.h}" fill="url(#chk)"/>`);
    for (let yy = 0; yy < s.size.h; yy++) {
      for (let xx = 0; xx < s.size.w; xx++) {
        const name = files[xx] + (yy + 1);
        const key = `${b.l},${b.t},${name}`;
        let cls = (xx + yy) % 2 === 0 ? 'sq sq-dark' : 'sq sq-light';
        if (key === checkTo) cls += ' check-royal';
        else if (key === checkFrom) cls += ' check-from';
        else if (lastSq.has(key)) cls += ' last-to';
        else if (dense && !b.playable) continue;
        const [sx, sy] = squareXY(s, name);
        g.push(`<rect class="${cls}" data-square="${name}" x="${sx}" y="${sy}" width="${SQ}" height="${SQ}"/>`);
      }
    }
    for (const p of b.pieces) {
      const [sx, sy] = squareXY(s, p.sq);
      const fill = p.c === 'white' ? '#fbfbf5' : '#15151a';
      const stroke = p.c === 'white' ? '#222' : '#ddd';
      if (GLYPH[p.p]) {
        const tx = `x="${sx + SQ / 2}" y="${sy + SQ * 0.8}" font-size="${SQ * 0.86}" text-anchor="middle"`;
        const under = dense ? '' : `<text ${tx} fill="${fill}" stroke="${fill}" stroke-width="${p.c === 'black' ? 5 : 3}" stroke-linejoin="round">${GLYPH[p.p]}</text>`;
        g.push(`<g class="piece" data-piece="${p.p}" data-piece-color="${p.c}" data-at="${p.sq}">${under}<text ${tx} fill="${fill}" stroke="${stroke}" stroke-width="${p.c === 'black' ? 0.6 : 1.1}">${GLYPH[p.p]}</text></g>`);
      } else {
        g.push(`<g class="piece" data-piece="${p.p}" data-piece-color="${p.c}" data-at="${p.sq}"><circle cx="${sx + SQ / 2}" cy="${sy + SQ / 2}" r="${SQ * 0.38}" fill="${fill}" stroke="${stroke}" stroke-width="2"/><text x="${sx + SQ / 2}" y="${sy + SQ * 0.68}" font-size="${SQ * 0.5}" font-weight="bold" text-anchor="middle" fill="${stroke}">${p.p}</text></g>`);
      }
    }
    for (let xx = 0; xx < s.size.w && !dense; xx++) {
      const [sx] = squareXY(s, files[xx] + '1');
      g.push(`<text class="coord" x="${sx + SQ / 2}" y="${L.h + 11}" text-anchor="middle">${files[xx]}</text>`);
    }
    for (let yy = 0; yy < s.size.h && !dense; yy++) {
      const [, sy] = squareXY(s, 'a' + (yy + 1));
      g.push(`<text class="coord" x="-4" y="${sy + SQ / 2 + 3}" text-anchor="end">${yy + 1}</text>`);
    }
    g.push(`<text class="coord" x="${L.w}" y="-5" text-anchor="end">(${esc(b.label)}T${b.turn})</text>`);
    g.push('</g>');
    parts.push(g.join(''));
  }
  for (const m of s.last_action) parts.push(arrow(s, L, m, 'last', 'arrow-last'));
  for (const m of s.pending) parts.push(arrow(s, L, m, 'pending', 'arrow-pending'));
  if (s.check) parts.push(arrow(s, L, { from: s.check.from, to: s.check.to }, 'check', 'arrow-check'));
  $('#world').innerHTML = parts.join('');
  app.bounds = { x: -20, y: -L.gy - 10, w: L.left + L.col(L.maxT) + L.w + 40, h: rows * (L.h + L.gy) + L.gy };
  const key = `${s.id}:${L.minT}:${L.maxT}:${L.minL}:${L.maxL}:${app.flip}`;
  if (key !== app.layoutKey) {
    app.layoutKey = key;
    if (!app.userMoved) fitAll();
  }
  app.layout = L;
  applyHighlights();
  renderSide();
}

function setViewBox() {
  const v = app.vb;
  $('#view').setAttribute('viewBox', `${v.x} ${v.y} ${v.w} ${v.h}`);
}

function fitAll() {
  if (!app.bounds) return;
  const svg = $('#view');
  const ar = (svg.clientWidth || 1000) / (svg.clientHeight || 700);
  let { x, y, w, h } = app.bounds;
  if (w / h < ar) { const nw = h * ar; x -= (nw - w) / 2; w = nw; } else { const nh = w / ar; y -= (nh - h) / 2; h = nh; }
  app.vb = { x, y, w, h };
  setViewBox();
}

function goPresent() {
  const s = app.shown, L = app.layout;
  if (!s || !L) return;
  const svg = $('#view');
  const ar = (svg.clientWidth || 1000) / (svg.clientHeight || 700);
  const h = Math.min(app.bounds.h, (L.h + L.gy) * 4);
  const w = h * ar;
  const cx = L.left + L.col(s.present.t) + L.w / 2;
  app.vb = { x: cx - w / 2, y: app.bounds.y + (app.bounds.h - h) / 2, w, h };
  app.userMoved = true;
  setViewBox();
}

function zoomAt(factor, px, py) {
  const v = app.vb;
  const nw = Math.min(Math.max(v.w * factor, 80), 200000), f = nw / v.w;
  app.vb = { x: px - (px - v.x) * f, y: py - (py - v.y) * f, w: nw, h: v.h * f };
  app.userMoved = true;
  setViewBox();
}

function svgPoint(ev) {
  const svg = $('#view'), r = svg.getBoundingClientRect();
  const v = app.vb;
  // preserveAspectRatio meet: the viewBox is scaled uniformly and centred.
  const scale = Math.min(r.width / v.w, r.height / v.h);
  const ox = (r.width - v.w * scale) / 2, oy = (r.height - v.h * scale) / 2;
  return [v.x + (ev.clientX - r.left - ox) / scale, v.y + (ev.clientY - r.top - oy) / scale, scale];
}

function applyHighlights() {
  const world = $('#world');
  for (const el of world.querySelectorAll('.sq.selected, .sq.dest, .sq.dest-cap')) {
    el.classList.remove('selected', 'dest', 'dest-cap');
    el.removeAttribute('data-dest');
  }
  if (app.selected) {
    const el = world.querySelector(`.board[data-li="${app.selected.l}"][data-ti="${app.selected.t}"] [data-square="${app.selected.sq}"]`);
    if (el) el.classList.add('selected');
  }
  for (const [key, moves] of app.dests) {
    const [l, t, sq] = key.split(',');
    let el = world.querySelector(`.board[data-li="${l}"][data-ti="${t}"] rect[data-square="${sq}"]`);
    const boardEl = world.querySelector(`.board[data-li="${l}"][data-ti="${t}"]`);
    if (!el && boardEl) {
      // Dense mode: the square has no element yet.
      const [sx, sy] = squareXY(app.shown, sq);
      el = document.createElementNS(SVGNS, 'rect');
      el.setAttribute('class', 'sq');
      el.setAttribute('data-square', sq);
      for (const [k, v] of [['x', sx], ['y', sy], ['width', SQ], ['height', SQ]]) el.setAttribute(k, v);
      boardEl.insertBefore(el, boardEl.querySelector('.piece'));
    }
    if (el) { el.classList.add(moves[0].capture ? 'dest-cap' : 'dest'); el.setAttribute('data-dest', moves[0].kind); }
  }
}

function fmtClock(ms) {
  if (ms == null) return '';
  ms = Math.max(0, ms);
  const t = Math.ceil(ms / 1000), m = Math.floor(t / 60), sec = t % 60;
  return `${m}:${String(sec).padStart(2, '0')}`;
}

function renderClocks() {
  const s = app.state;
  if (!s || !s.clock) { for (const c of document.querySelectorAll('#players .clock')) c.textContent = ''; return; }
  const el = performance.now() - app.clockBase.t;
  for (const side of ['white', 'black']) {
    let ms = app.clockBase[side];
    if (s.clock.running && s.to_move === side) ms -= el;
    $(`#p-${side} .clock`).textContent = fmtClock(ms);
  }
}
setInterval(renderClocks, 250);

function renderSide() {
  const s = app.state, shown = app.shown;
  if (!s) return;
  document.title = `chess5d game ${s.id}`;
  for (const side of ['white', 'black']) {
    const p = $(`#p-${side}`);
    p.querySelector('.name').textContent = s.players[side].display;
    p.classList.toggle('to-move', !s.result && s.to_move === side);
  }
  renderClocks();
  const live = app.review === null;
  $('#btn-submit').disabled = !(live && s.human_to_move && s.can_submit);
  $('#btn-undo').disabled = !(live && s.human_to_move && s.pending.length > 0);
  $('#btn-resign').disabled = !!s.result;
  let status;
  if (s.result) status = 'Game over.';
  else if (s.engine_busy && !s.human_to_move) status = `${cap(s.to_move)} (engine) is thinking…`;
  else {
    status = `${cap(s.to_move)} to move. Present: T${s.present.turn} ${s.present.color}.`;
    if (s.check) status += ' Check!';
    if (s.human_to_move && !s.can_submit && s.submit_error) status += ` (${s.submit_error})`;
  }
  if (s.engine_error) status += ` Engine problem: ${s.engine_error}`;
  if (s.engine_info && !s.result) status += ` [${s.engine_info}]`;
  if (s.puzzle) status = `Puzzle “${s.puzzle.name}”: ${cap(s.puzzle.solver)} mates in ${s.puzzle.mate_in}. Status: ${s.puzzle.status}. ` + status;
  $('#status').textContent = status;
  const go = $('#gameover');
  if (s.result) {
    const winner = s.result === '1-0' ? 'White wins' : s.result === '0-1' ? 'Black wins' : 'Draw';
    const how = { checkmate: 'Checkmate', stalemate: 'Stalemate', resignation: 'Resignation', time: 'Time forfeit' }[s.termination] || cap(s.termination || 'Finished');
    let text = `${how}: ${winner} (${s.result})`;
    if (s.puzzle) text += s.puzzle.status === 'solved' ? ' — Puzzle solved!' : ' — Puzzle failed.';
    go.textContent = text;
    go.classList.remove('hidden');
  } else go.classList.add('hidden');
  const rb = $('#review-bar');
  if (!live) { rb.classList.remove('hidden'); rb.querySelector('span').textContent = `Reviewing the position after action ${app.review} of ${s.action_count}.`; } else rb.classList.add('hidden');
  // Notation, one line per turn.
  const rows = [];
  let cur = null;
  for (const a of s.actions) {
    if (!cur || a.color === 'white') { cur = { turn: a.number, items: [] }; rows.push(cur); }
    cur.items.push(a);
  }
  const curIdx = app.review ?? s.action_count;
  $('#notation').innerHTML = rows.map((r) => `<li value="${r.turn}">${r.items.map((a) =>
    `<span class="act ${a.index === curIdx ? 'current' : ''}" data-index="${a.index}" role="button" tabindex="0">${esc(a.text)}</span>`).join(' / ')}</li>`).join('');
  const curEl = $('#notation .current');
  if (curEl) curEl.scrollIntoView({ block: 'nearest' });
  void shown;
}

function cap(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }

$('#notation').addEventListener('click', (ev) => {
  const a = ev.target.closest('.act');
  if (a) setReview(Number(a.dataset.index)).catch((e) => showError(e.message));
});
$('#btn-live').addEventListener('click', () => setReview(null));
document.addEventListener('keydown', (ev) => {
  if (!app.state || $('#play').classList.contains('hidden') || ev.target.closest('input, textarea, select, dialog')) return;
  const cur = app.review ?? app.state.action_count;
  if (ev.key === 'ArrowLeft') { ev.preventDefault(); setReview(cur - 1); }
  else if (ev.key === 'ArrowRight') { ev.preventDefault(); setReview(cur + 1); }
  else if (ev.key === 'Home') { ev.preventDefault(); setReview(0); }
  else if (ev.key === 'End') { ev.preventDefault(); setReview(null); }
  else if (ev.key === 'Escape') { app.selected = null; app.dests.clear(); applyHighlights(); hidePromotion(); }
});

// ---------- interaction ----------

async function act(path, body) {
  const s = app.state;
  try {
    showError(null);
    setState(await api('POST', `/api/games/${s.id}/${path}`, body));
  } catch (e) {
    showError(e.message);
  }
}

$('#btn-submit').addEventListener('click', () => act('submit'));
$('#btn-undo').addEventListener('click', () => act('undo'));
$('#btn-resign').addEventListener('click', () => { if (confirm('Resign this game?')) act('resign', {}); });
$('#btn-flip').addEventListener('click', () => { app.flip = !app.flip; render(); fitAll(); });
$('#btn-fit').addEventListener('click', () => { app.userMoved = false; fitAll(); });
$('#btn-present').addEventListener('click', goPresent);
$('#btn-zoom-in').addEventListener('click', () => { const v = app.vb; zoomAt(0.8, v.x + v.w / 2, v.y + v.h / 2); });
$('#btn-zoom-out').addEventListener('click', () => { const v = app.vb; zoomAt(1.25, v.x + v.w / 2, v.y + v.h / 2); });

function hidePromotion() { $('#promotion').classList.add('hidden'); }

function choose(moves) {
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

async function clickSquare(boardEl, sq) {
  const s = app.state;
  if (!s || app.review !== null) return;
  const l = Number(boardEl.dataset.li), t = Number(boardEl.dataset.ti);
  const key = `${l},${t},${sq}`;
  if (app.selected && app.dests.has(key)) { choose(app.dests.get(key)); return; }
  const board = s.boards.find((b) => b.l === l && b.t === t);
  const piece = board && board.pieces.find((p) => p.sq === sq);
  app.selected = null;
  app.dests.clear();
  if (s.human_to_move && board && board.playable && piece && piece.c === s.to_move) {
    try {
      const r = await api('GET', `/api/games/${s.id}/moves?l=${l}&t=${t}&square=${sq}`);
      app.selected = { l, t, sq };
      for (const m of r.moves) {
        const k = `${m.to.l},${m.to.t},${m.to.sq}`;
        if (!app.dests.has(k)) app.dests.set(k, []);
        app.dests.get(k).push(m);
      }
    } catch (e) { showError(e.message); }
  }
  applyHighlights();
}

// Pan (drag), zoom (wheel, pinch) and clicks on squares.
(() => {
  const svg = $('#view');
  const pointers = new Map();
  let drag = null, pinch = null;
  svg.addEventListener('pointerdown', (ev) => {
    pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (pointers.size === 1) drag = { x: ev.clientX, y: ev.clientY, vb: { ...app.vb }, moved: false, target: ev.target };
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { d: Math.hypot(a.x - b.x, a.y - b.y), vb: { ...app.vb } };
      drag = null;
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
    if (!drag) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 5) return;
    if (!drag.moved) { drag.moved = true; svg.setPointerCapture(ev.pointerId); svg.classList.add('dragging'); }
    const r = svg.getBoundingClientRect();
    const scale = Math.min(r.width / drag.vb.w, r.height / drag.vb.h);
    app.vb = { ...drag.vb, x: drag.vb.x - dx / scale, y: drag.vb.y - dy / scale };
    app.userMoved = true;
    setViewBox();
  });
  const up = (ev) => {
    pointers.delete(ev.pointerId);
    svg.classList.remove('dragging');
    if (pointers.size < 2) pinch = null;
    if (drag && !drag.moved && ev.type === 'pointerup') {
      const sqEl = drag.target.closest && drag.target.closest('rect[data-square]');
      const boardEl = sqEl && sqEl.closest('.board');
      if (sqEl && boardEl) clickSquare(boardEl, sqEl.dataset.square);
      else { app.selected = null; app.dests.clear(); applyHighlights(); }
    }
    drag = null;
  };
  svg.addEventListener('pointerup', up);
  svg.addEventListener('pointercancel', up);
  svg.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    const [px, py] = svgPoint(ev);
    zoomAt(Math.exp(ev.deltaY * 0.0015), px, py);
  }, { passive: false });
  window.addEventListener('resize', () => { if (!app.userMoved) fitAll(); });
})();

route();
