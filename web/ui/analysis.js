// Layer 3 (actions): the analysis board beside a game (see below); its panel is drawn by
// panel.js.
import { $, showError } from './dom.js';
import { showExport } from './dialogs.js';
import { render } from './multiverse.js';
import { renderAnalysis } from './panel.js';

// The page's services, passed in by the router (app.js) before any page opens.
/** @type {import('./state.js').Board} */
let app;
/** @type {import('./state.js').Door['api']} */
let api;
/** @type {import('../types/backend.js').Backend} */
let backend;
/** Takes the page's services (types/pages.d.ts). @param {import('../types/pages.js').Services} s */
export function wire(s) {
  app = s.board;
  api = s.door.api;
  backend = s.backend;
}

// ---------- analysis board ----------
//
// "Analyse" opens an analysis board on the position shown (live or reviewed): a scratch copy
// on the server where moves can be tried without changing the game, with the engine analysing
// it continuously (go infinite / stop). Its evaluation (White's view), depth, speed and best
// line come over the board's WebSocket. Leaving discards it; "Export variation" writes the
// game up to that point with the moves tried as a variation.

export async function startAnalysis() {
  const s = app.state;
  if (!s || app.analysis) return;
  const body = { game: s.id };
  if (app.review !== null) body.at = app.review;
  let st;
  try { st = await api('create_analysis', { body: body }); } catch (e) { showError(e.message); return; }
  app.analysis = { id: st.analysis.id, state: st, info: null, engineOn: true };
  app.selected = null; app.dests.clear();
  const a = app.analysis;
  // A browser's WebSocket carries no header: the board's token goes in the query.
  const token = st.analysis.token ? `?token=${st.analysis.token}` : '';
  a.token = token;
  a.seat = st.analysis.token || null;
  a.unwatch = backend.watch(`/api/analysis/${st.analysis.id}/ws${token}`, (d) => {
    if (app.analysis !== a || !d.engine) return;
    a.info = d.engine;
    renderAnalysis();
    if (app.pv !== null || app.pvHover) render();
  }, { reconnect: false });
  app.shown = st;
  render();
  await engine(true);
}

/** The id of the analysis board open in the page, or null (for scripts). */
window.__chess5dAnalysis = () => app.analysis?.id ?? null;
// The board's token (tests read the board's state with it, as its maker).
window.__chess5dAnalysisSeat = () => app.analysis?.seat ?? null;

export function endAnalysis() {
  const a = app.analysis;
  if (!a) return;
  app.analysis = null;
  app.pv = null; app.pvHover = null;
  // Deleted first, then the socket closed (the server also forgets a board whose page left).
  api('delete_analysis', { id: a.id }).catch(() => {}).finally(() => a.unwatch && a.unwatch());
  $('#analysis').classList.add('hidden');
  // The hooks say nothing of a board that is gone (a script waits for the next one's report).
  $('#pv').dataset.pv = '';
  $('#eval').dataset.eval = '';
}

export async function stopAnalysis() {
  endAnalysis();
  const s = app.state;
  if (!s) return;
  app.selected = null; app.dests.clear();
  app.shown = app.review === null ? s : await api('game', { id: s.id, query: { at: app.review } });
  render();
}

/** Starts or stops the engine of the analysis board. */
export async function engine(on) {
  const a = app.analysis;
  if (!a) return;
  a.engineOn = on;
  try {
    const info = await api(on ? 'start_analysis' : 'stop_analysis', { id: a.id });
    if (app.analysis === a) { a.info = info; renderAnalysis(); }
  } catch (e) {
    if (app.analysis === a) { a.engineOn = false; $('#analysis-error').textContent = e.message; $('#analysis-error').classList.remove('hidden'); renderAnalysis(); }
  }
}

/** A new position on the analysis board (a move tried, undone or submitted). */
export function setAnalysisState(st) {
  const a = app.analysis;
  a.state = st;
  a.info = null;
  app.pv = null; app.pvHover = null;
  app.selected = null; app.dests.clear();
  app.shown = st;
  render();
  // The engine goes on with the new position (unless the player stopped it).
  if (a.engineOn && !st.result && !st.pending.length) engine(true);
}

$('#btn-analyse').addEventListener('click', () => (app.analysis ? stopAnalysis() : startAnalysis()));
$('#btn-discard').addEventListener('click', stopAnalysis);
$('#btn-takeback').addEventListener('click', async () => {
  const a = app.analysis;
  if (!a) return;
  try {
    const st = await api('analysis_act', { id: a.id, action: a.state.pending.length ? 'undo' : 'takeback' });
    if (app.analysis === a) setAnalysisState(st);
  } catch (e) { showError(e.message); }
});
$('#btn-engine-toggle').addEventListener('click', () => engine(!(app.analysis?.info?.running)));
$('#btn-variation').addEventListener('click', async () => {
  const a = app.analysis;
  if (!a) return;
  const text = await api('analysis_pgn', { id: a.id });
  showExport('Export variation (5DPGN)', text, `chess5d-analysis-${app.state.id}.5dpgn`);
});
// The engine's lines (panel.js): the first action of a line is played on the analysis board (as
// in lichess's analysis, a click on the engine's move plays it); a later action pins the line up
// to it as arrows (a second click unpins); hovering any action previews the line up to it.
const pvTarget = (ev) => {
  const x = ev.target.closest('.pv-act');
  return x ? { line: Number(x.dataset.line), k: Number(x.dataset.k) } : null;
};
$('#pv').addEventListener('click', (ev) => {
  const t = pvTarget(ev);
  if (!t) return;
  if (t.k === 0) { playLine(t.line); return; }
  app.pv = app.pv && app.pv.line === t.line && app.pv.k === t.k ? null : t;
  renderAnalysis();
  render();
});
$('#pv').addEventListener('keydown', (ev) => {
  if ((ev.key === 'Enter' || ev.key === ' ') && ev.target.closest('.pv-act')) { ev.preventDefault(); ev.target.click(); }
});
$('#pv').addEventListener('mouseover', (ev) => {
  const t = pvTarget(ev);
  if (!t || (app.pvHover && app.pvHover.line === t.line && app.pvHover.k === t.k)) return;
  app.pvHover = t;
  render();
});
$('#pv').addEventListener('mouseleave', () => {
  if (!app.pvHover) return;
  app.pvHover = null;
  render();
});

/** Plays the first action of the engine's line `n` on the analysis board: any moves of an
 * unfinished action are taken back first (the engine analysed the position before them), then
 * each of its moves, then Submit. */
export async function playLine(n) {
  const a = app.analysis;
  const line = a?.info?.lines?.[n] ?? (n === 0 && a?.info?.pv?.length ? { pv: a.info.pv } : null);
  const action = line?.pv?.[0];
  if (!action || a.playing) return;
  a.playing = true;
  app.pv = null; app.pvHover = null;
  try {
    showError(null);
    let st = a.state;
    while (st.pending.length) st = await api('analysis_act', { id: a.id, action: 'undo' });
    for (const m of action.moves) st = await api('analysis_act', { id: a.id, action: 'move', body: { move: m.long } });
    st = await api('analysis_act', { id: a.id, action: 'submit' });
    if (app.analysis === a) setAnalysisState(st);
  } catch (e) {
    showError(e.message);
    // Show where the board is now (some moves may have been played).
    try { const st = await api('analysis', { id: a.id }); if (app.analysis === a) setAnalysisState(st); } catch { /* gone */ }
  } finally {
    a.playing = false;
  }
}
