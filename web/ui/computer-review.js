// Layer 5 (input), over review.js: the computer review of a game. "Review with the computer"
// starts it through the back-end (POST /api/games/:id/review: a budgeted job on the server, a
// Web Worker on the static site) and polls its progress (GET .../review, which also tells the
// server's job that its page is still there); then it shows an evaluation graph (White's
// expected score after each action; a click goes to that action), each side's accuracy, the
// marks ?! ? ?? of the actions in the notation (drawn by panel.js through app.actionMark) and,
// for the action shown, the engine's best alternative as arrows on the boards (drawn by
// multiverse.js through app.bestArrows). A review kept with the game (the server's memory, the
// static site's IndexedDB) is shown again when the game is opened.
import { $, esc, cap, showError } from './dom.js';
import { render } from './multiverse.js';
import { renderSide } from './panel.js';
import { setReview } from './review.js';
import { drawMistakes } from './mistakes.js';
import { missedMateHtml } from './proven.js';

// The page's services, passed in by the router (app.js) before any page opens.
/** @type {import('./state.js').Board} */
let app;
/** @type {import('./state.js').Door['api']} */
let api;
/** Takes the page's services (types/pages.d.ts). @param {import('../types/pages.js').Services} s */
export function wire(s) {
  app = s.board;
  api = s.door.api;
  installHooks();
}

const GLYPH = { inaccuracy: '?!', mistake: '?', blunder: '??' };
const POLL_MS = 500;
// The graph's size in its own units (it scales with the panel's width).
const W = 300, H = 84, PAD = 4;

/** The review of the game on the page: its game, the back-end's last answer, the poll. */
const cr = { game: null, data: null, timer: 0 };

// ---------- its controls, in the game panel ----------

const btn = document.createElement('button');
btn.type = 'button';
btn.id = 'btn-computer-review';
btn.textContent = 'Review with the computer';
btn.setAttribute('aria-label', 'Review with the computer');
$('#tools-row').appendChild(btn);

const box = document.createElement('div');
box.id = 'computer-review';
box.className = 'hidden';
box.setAttribute('aria-label', 'Computer review');
box.innerHTML = `<div id="cr-head"><strong>Computer review</strong> <span id="cr-progress" role="status"></span>
  <button type="button" id="cr-stop" aria-label="Stop the review" class="hidden">Stop</button></div>
  <div id="cr-bar" class="hidden" aria-hidden="true"><div id="cr-fill"></div></div>
  <svg id="cr-graph" viewBox="0 0 ${W} ${H}" role="img" aria-label="Evaluation graph: White's expected score after each action (click a point to go there)"></svg>
  <div id="cr-accuracy"></div>
  <div id="cr-note"></div>`;
$('#analysis').after(box);

/** The reviewed actions known so far (all once it has ended). */
const actionsOf = (d) => (d?.review?.actions ?? d?.actions ?? []);
/** The reviewed action of index i (from 0), by a map kept per answer (the notation asks for
 * every action at each drawing). */
const byIndex = new WeakMap();
function reviewed(d, i) {
  if (!d) return null;
  let m = byIndex.get(d);
  if (!m) byIndex.set(d, (m = new Map(actionsOf(d).map((a) => [a.index, a]))));
  return m.get(i) ?? null;
}

/** The review of the action shown (the last one played in the position shown), if reviewed. */
function shownAction() {
  const s = app.state;
  if (!s || app.analysis || cr.game !== s.id) return null;
  const at = app.review ?? s.action_count;
  return reviewed(cr.data, at - 1);
}

/** The hooks panel.js and multiverse.js draw with, installed on the board view (by wire). */
function installHooks() {
  app.actionMark = (index) => {
    if (!app.state || cr.game !== app.state.id) return '';
    const a = reviewed(cr.data, index - 1);
    return a?.class ? `<span class="cr-mark ${a.class}" data-class="${a.class}" title="${cap(a.class)}">${GLYPH[a.class]}</span>` : '';
  };
  app.bestArrows = () => {
    const a = shownAction();
    const best = a?.pv?.[0];
    return best ? best.moves.map((m) => [m, best.color]) : [];
  };
  app.onSide = (s) => {
    // A shared game (share.js) is shown on an analysis board: no game of the back-end to review.
    if (s.analysis) { clearTimeout(cr.timer); cr.game = null; cr.data = null; }
    else if (cr.game !== s.id) open(s.id);
    draw();
  };
}

// ---------- talking to the back-end ----------

/** A game opened: its review, if it has one (a page reloaded shows it again). */
function open(id) {
  clearTimeout(cr.timer);
  cr.game = id;
  cr.data = null;
  poll(id);
}

async function poll(id) {
  clearTimeout(cr.timer);
  let d;
  try { d = await api('review', { id }); } catch { return; }
  if (cr.game !== id) return;
  const was = cr.data;
  cr.data = d.status === 'none' ? null : d;
  if (d.status === 'running') cr.timer = setTimeout(() => poll(id), POLL_MS);
  // The marks and arrows change when actions were reviewed since the last answer.
  if (actionsOf(was).length !== actionsOf(cr.data).length || was?.status !== cr.data?.status) {
    app.notationHtml = null;
    render();
  }
  draw();
}

btn.addEventListener('click', async () => {
  const s = app.state;
  if (!s) return;
  showError(null);
  try {
    cr.game = s.id;
    cr.data = await api('start_review', { id: s.id, body: {} });
  } catch (e) { showError(e.message); return; }
  app.notationHtml = null;
  renderSide();
  poll(s.id);
});

$('#cr-stop').addEventListener('click', async () => {
  if (!cr.game) return;
  try { await api('cancel_review', { id: cr.game }); } catch (e) { showError(e.message); }
  poll(cr.game);
});

$('#cr-graph').addEventListener('click', (ev) => {
  const p = ev.target.closest('[data-index]');
  if (p && app.state && !app.analysis) setReview(Number(p.dataset.index) + 1).catch((e) => showError(e.message));
});

// ---------- drawing ----------

function pct(x) { return `${Math.round(x)}%`; }

/** An evaluation in words: "+0.35", "White mates in 2", "checkmate". */
function evalText(e) {
  if (!e) return '?';
  if ('cp' in e) return `${e.cp > 0 ? '+' : ''}${(e.cp / 100).toFixed(2)}`;
  if ('mate' in e) return e.mate > 0 ? `White mates in ${e.mate}` : `Black mates in ${-e.mate}`;
  if ('checkmate' in e) return `checkmate (${cap(e.checkmate)} wins)`;
  return 'stalemate';
}

function draw() {
  const s = app.state;
  const d = s && cr.game === s.id ? cr.data : null;
  btn.classList.toggle('hidden', !!s?.analysis);
  btn.disabled = !s || !!s.analysis || !s.action_count || !!app.analysis || (s.puzzle && s.puzzle.status === 'playing') || d?.status === 'running';
  box.classList.toggle('hidden', !d || !!app.analysis);
  drawMistakes(box, s, d);
  if (!d) return;
  const running = d.status === 'running';
  const acts = actionsOf(d);
  $('#cr-stop').classList.toggle('hidden', !running);
  $('#cr-bar').classList.toggle('hidden', !running);
  $('#cr-fill').style.width = `${d.positions ? Math.round((100 * d.searched) / d.positions) : 0}%`;
  const progress = running
    ? `reviewing… ${acts.length} of ${d.positions - 1} actions`
    : d.status === 'done' ? `${acts.length} actions, depth ${d.budget?.depth ?? '?'}`
      : d.status === 'cancelled' ? `stopped after ${acts.length} of ${d.positions - 1} actions (${d.reason ?? 'cancelled'})`
        : `failed: ${d.reason ?? ''}`;
  const prog = $('#cr-progress');
  if (prog.textContent !== progress) prog.textContent = progress;
  box.dataset.status = d.status;
  // The graph: White's expected score after each action (the start at 50%), one point per
  // action; the shown action's column marked.
  const n = Math.max(d.positions - 1, acts.length, 1);
  const x = (i) => PAD + ((i + 1) * (W - 2 * PAD)) / n;
  const y = (w) => H - PAD - (Math.max(0, Math.min(100, w)) / 100) * (H - 2 * PAD);
  const shown = (app.review ?? s.action_count) - 1;
  const parts = [`<rect class="cr-bg" x="0" y="0" width="${W}" height="${H}"/>`, `<line class="cr-mid" x1="0" x2="${W}" y1="${y(50)}" y2="${y(50)}"/>`];
  if (acts.length) {
    const pts = [[x(-1), y(50)], ...acts.map((a) => [x(a.index), y(a.white_after)])];
    parts.push(`<path class="cr-area" d="M${x(-1)} ${y(0)} ${pts.map(([px, py]) => `L${px} ${py}`).join(' ')} L${x(acts.at(-1).index)} ${y(0)} Z"/>`);
    parts.push(`<path class="cr-line" d="M${pts.map(([px, py]) => `${px} ${py}`).join(' L')}"/>`);
  }
  if (shown >= 0 && shown < n) parts.push(`<line class="cr-now" x1="${x(shown)}" x2="${x(shown)}" y1="0" y2="${H}"/>`);
  const colW = (W - 2 * PAD) / n;
  for (const a of acts) {
    parts.push(`<rect class="cr-hit" data-index="${a.index}" x="${x(a.index) - colW / 2}" y="0" width="${colW}" height="${H}"><title>${esc(a.turn)}${a.player === 'black' ? 'b' : ''}. ${esc(a.played)}: White ${pct(a.white_after)}${a.class ? ` (${a.class})` : ''}</title></rect>`);
  }
  for (const a of acts) {
    parts.push(`<circle class="cr-pt${a.class ? ` ${a.class}` : ''}${a.index === shown ? ' current' : ''}" data-index="${a.index}" data-white="${a.white_after}" cx="${x(a.index)}" cy="${y(a.white_after)}" r="${a.class ? 3.2 : 2.2}"/>`);
  }
  const svg = parts.join('');
  const g = $('#cr-graph');
  if (g.dataset.src !== svg) { g.dataset.src = svg; g.innerHTML = svg; }
  g.dataset.points = String(acts.length);
  // Each side's accuracy and its marked actions.
  const side = (c) => {
    const r = d.review?.[c];
    const mine = acts.filter((a) => a.player === c);
    const acc = r?.accuracy ?? (mine.length ? mine.reduce((t, a) => t + a.accuracy, 0) / mine.length : null);
    const count = (k) => mine.filter((a) => a.class === k).length;
    return `<div class="cr-side" data-side="${c}">${cap(c)}: accuracy <b class="cr-acc">${acc == null ? '–' : Math.round(acc)}</b>`
      + ` <span class="muted">${count('inaccuracy')} ?!, ${count('mistake')} ?, ${count('blunder')} ??</span></div>`;
  };
  const acc = side('white') + side('black');
  if ($('#cr-accuracy').innerHTML !== acc) $('#cr-accuracy').innerHTML = acc;
  // The shown action: its class and the engine's choice (its arrows are on the boards).
  const a = acts.find((v) => v.index === shown);
  let note = '';
  if (a) {
    const num = `${a.turn}${a.player === 'black' ? 'b' : ''}.`;
    const what = a.class ? `<span class="cr-mark ${a.class}">${GLYPH[a.class]}</span> ${cap(a.class)}: ` : '';
    note = `${what}${esc(num)} ${esc(a.played)}: ${evalText(a.before)} → ${evalText(a.after)}, ${cap(a.player)}'s chances ${pct(a.win_before)} → ${pct(a.win_after)}.`;
    note += missedMateHtml(a);
    if (a.best) note += ` <span class="cr-best">Best: <b>${esc(a.best)}</b></span>${a.line ? ` <span class="muted">(${esc(a.line)})</span>` : ''}`;
  } else if (acts.length) note = '<span class="muted">Click the graph or an action to see what the engine thought of it.</span>';
  if ($('#cr-note').innerHTML !== note) $('#cr-note').innerHTML = note;
}
