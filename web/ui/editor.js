// Layer 4 (pages): the position editor (#/editor): its model, drawn on the board view; its
// controller (pages/editor.js) opens it and closes it.
import { $, showPage, cap } from './dom.js';
import { FILES, pieceSvg } from './pieces.js';
import { openPuzzleDialog } from './dialogs.js';
import { resetDrawing } from './boards.js';
import { render } from './multiverse.js';

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

// ---------- position editor ----------
//
// A model of boards (timeline, half-turn, pieces with unmoved markers) drawn with the same
// renderer as games; written as 5DFEN for the server (which checks it and proves puzzles).

export const ED_PIECES = ['K', 'Q', 'R', 'B', 'N', 'P'];
export const STANDARD_ROWS = ['r*nbqk*bnr*', 'p*p*p*p*p*p*p*p*', '8', '8', '8', '8', 'P*P*P*P*P*P*P*P*', 'R*NBQK*BNR*'];

export function edBoard(l, t, pieces = new Map()) { return { l, t, pieces }; }

/**
 * The editor's model while the editor is open (else null): its boards by "l,t", the selected
 * board, the tool, a version that changes with every edit (the drawing's cache key).
 * @type {{w: number, h: number, boards: Map<string, {l: number, t: number, pieces: Map<string, any>}>, sel: string, tool: string, version: number} | null}
 */
let model = null;

/** Opens the editor on the board view (a fresh standard position, or the one being edited). */
export function openEditor() {
  app.clear();
  app.edit = editAt;
  showPage('play');
  $('#editor-panel').classList.remove('hidden');
  $('#game-panel').classList.add('hidden');
  document.title = 'chess5d: position editor';
  if (!model) {
    model = { w: 8, h: 8, boards: new Map(), sel: '0,2', tool: 'wK', version: 1 };
    edStandard();
    $('#ed-size').innerHTML = [8, 7, 6, 5, 4].map((n) => `<option value="${n}">${n}x${n}</option>`).join('');
    $('#ed-palette').innerHTML = ['white', 'black'].map((c) => ED_PIECES.map((p) =>
      `<button type="button" data-tool="${c[0]}${p}" aria-label="${c} ${p}" title="${cap(c)} ${p}" class="tool ${c}">${pieceSvg(p, c)}</button>`).join('')).join('') +
      '<button type="button" data-tool="x" aria-label="Erase" class="tool">✕</button>';
  }
  app.cam = 'present';
  app.layoutKey = '';
  resetDrawing();
  edRender();
}

export function edParseRows(rows) {
  const m = new Map();
  rows.forEach((row, i) => {
    let x = 0;
    const y = 8 - i;
    for (let k = 0; k < row.length; k++) {
      const ch = row[k];
      if (/\d/.test(ch)) { x += Number(ch); continue; }
      const unmoved = row[k + 1] === '*';
      if (unmoved) k++;
      m.set(FILES[x] + y, { p: ch.toUpperCase(), c: ch === ch.toUpperCase() ? 'white' : 'black', unmoved });
      x++;
    }
  });
  return m;
}

export function edStandard() {
  const e = model;
  e.w = 8; e.h = 8;
  e.boards = new Map([['0,2', edBoard(0, 2, edParseRows(STANDARD_ROWS))]]);
  e.sel = '0,2';
}

/** The editor's position as 5DFEN (every board written out). */
export function edFen() {
  const e = model;
  const lines = ['[Board "custom"]', `[Size "${e.w}x${e.h}"]`];
  const boards = [...e.boards.values()].sort((a, b) => a.l - b.l || a.t - b.t);
  for (const b of boards) {
    const rows = [];
    for (let y = e.h; y >= 1; y--) {
      let row = '', empty = 0;
      for (let x = 0; x < e.w; x++) {
        const pc = b.pieces.get(FILES[x] + y);
        if (!pc) { empty++; continue; }
        if (empty) { row += empty; empty = 0; }
        row += (pc.c === 'white' ? pc.p : pc.p.toLowerCase()) + (pc.unmoved ? '*' : '');
      }
      if (empty) row += empty;
      rows.push(row);
    }
    lines.push(`[${rows.join('/')}:${b.l > 0 ? '+' + b.l : b.l}:${Math.floor(b.t / 2)}:${b.t % 2 ? 'b' : 'w'}]`);
  }
  return lines.join('\n') + '\n';
}

/** The editor's model as a game state, for the renderer. */
export function edState() {
  const e = model;
  const boards = [...e.boards.values()];
  const tls = new Map();
  for (const b of boards) {
    const tl = tls.get(b.l) || { l: b.l, label: String(b.l > 0 ? '+' + b.l : b.l), active: true, start: b.t, end: b.t, origin: null };
    tl.start = Math.min(tl.start, b.t); tl.end = Math.max(tl.end, b.t);
    tls.set(b.l, tl);
  }
  const present = Math.min(...[...tls.values()].map((t) => t.end));
  return {
    id: 'editor', version: e.version, size: { w: e.w, h: e.h }, even: false,
    to_move: present % 2 ? 'black' : 'white', present: { t: present, turn: Math.floor(present / 2), color: present % 2 ? 'black' : 'white' },
    boards: boards.map((b) => ({ l: b.l, t: b.t, label: tls.get(b.l).label, turn: Math.floor(b.t / 2), color: b.t % 2 ? 'black' : 'white',
      playable: false, mandatory: `${b.l},${b.t}` === e.sel, pieces: [...b.pieces].map(([sq, p]) => ({ sq, p: p.p, c: p.c })) })),
    timelines: [...tls.values()], pending: [], last_action: [], check: null, actions: [], action_count: 0,
  };
}

export function edRender() {
  const e = model;
  e.version++;
  app.shown = edState();
  render();
  $('#ed-fen').value = edFen();
  $('#ed-side').value = app.shown.to_move;
  $('#ed-size').value = String(e.w);
  for (const b of document.querySelectorAll(/** @type {'button'} */ ('#ed-palette .tool'))) b.classList.toggle('current', b.dataset.tool === e.tool);
  $('#editor-panel').dataset.boards = String(e.boards.size);
}

/** A click on a square of the editor: selects its board and places (or removes) a piece. */
/** An edit at a board's square (the pointer's click while editing): the tool put there.
 * @param {{l: number, t: number, sq: string}} hit */
export function editAt(hit) {
  const e = model;
  const k = `${hit.l},${hit.t}`;
  e.sel = k;
  const b = e.boards.get(k);
  if (!b) return;
  const old = b.pieces.get(hit.sq);
  if (e.tool === 'x') b.pieces.delete(hit.sq);
  else {
    const c = e.tool[0] === 'w' ? 'white' : 'black', p = e.tool.slice(1);
    if (old && old.p === p && old.c === c) b.pieces.delete(hit.sq);
    else b.pieces.set(hit.sq, { p, c, unmoved: $('#ed-unmoved').checked && 'KRP'.includes(p) });
  }
  edRender();
}

$('#ed-palette').addEventListener('click', (ev) => {
  const b = ev.target.closest('button[data-tool]');
  if (!b) return;
  model.tool = b.dataset.tool;
  edRender();
});
$('#ed-size').addEventListener('change', () => {
  const e = model, n = Number($('#ed-size').value);
  e.w = n; e.h = n;
  for (const b of e.boards.values()) for (const sq of [...b.pieces.keys()]) if (FILES.indexOf(sq[0]) >= n || Number(sq.slice(1)) > n) b.pieces.delete(sq);
  resetDrawing();
  edRender();
});
$('#ed-side').addEventListener('change', () => {
  // The side to move is the colour of the last boards: every board moves by one half-turn.
  const e = model, want = $('#ed-side').value, now = edState().to_move;
  if (want === now) return;
  const d = want === 'black' ? 1 : -1;
  const moved = new Map();
  for (const b of e.boards.values()) { b.t += d; moved.set(`${b.l},${b.t}`, b); }
  if ([...moved.values()].some((b) => b.t < 0)) { for (const b of e.boards.values()) b.t -= d; return; }
  const [l, t] = e.sel.split(',').map(Number);
  e.boards = moved; e.sel = `${l},${t + d}`;
  edRender();
});
$('#ed-add-board').addEventListener('click', () => {
  // The next board of the selected board's timeline, a copy of its last board.
  const e = model, [l] = e.sel.split(',').map(Number);
  const last = [...e.boards.values()].filter((b) => b.l === l).sort((a, b) => b.t - a.t)[0];
  const nb = edBoard(l, last.t + 1, new Map([...last.pieces].map(([k, v]) => [k, { ...v }])));
  e.boards.set(`${l},${nb.t}`, nb); e.sel = `${l},${nb.t}`;
  edRender();
});
$('#ed-add-timeline').addEventListener('click', () => {
  // A new timeline below (positive) the others, starting with a copy of the selected board.
  const e = model, src = e.boards.get(e.sel);
  const l = Math.max(...[...e.boards.values()].map((b) => b.l)) + 1;
  const nb = edBoard(l, src.t, new Map([...src.pieces].map(([k, v]) => [k, { ...v }])));
  e.boards.set(`${l},${nb.t}`, nb); e.sel = `${l},${nb.t}`;
  edRender();
});
$('#ed-remove-board').addEventListener('click', () => {
  const e = model;
  if (e.boards.size <= 1) return;
  e.boards.delete(e.sel);
  e.sel = [...e.boards.keys()][0];
  resetDrawing();
  edRender();
});
$('#ed-clear').addEventListener('click', () => { const b = model.boards.get(model.sel); if (b) b.pieces.clear(); edRender(); });
$('#ed-standard').addEventListener('click', () => { edStandard(); resetDrawing(); edRender(); });
$('#ed-play').addEventListener('click', async () => {
  try {
    const g = await api('create_game', { body: { import: edFen() } });
    location.hash = `#/game/${g.id}`;
  } catch (e) { alert(e.message); }
});
$('#ed-save').addEventListener('click', () => openPuzzleDialog({ fen: edFen() }, `The editor's position, ${cap(edState().to_move)} to move.`));
$('#btn-editor').addEventListener('click', () => { location.hash = '#/editor'; });


/** Closes the editor: the board view's edit hook goes, and the model with it (the next visit
 * starts from the standard position). */
export function closeEditor() {
  model = null;
  app.edit = null;
  $('#editor-panel').classList.add('hidden');
  $('#game-panel').classList.remove('hidden');
}
