// Layer 3 (actions), above analysis.js: a game on the page: opening it, following it live (the
// back-end's watch of its WebSocket path), each new state drawn; the actions of the side panel
// (submit, undo, resign, retry engine).
import { $, showError, showPage } from './dom.js';
import { soundOf } from './settings.js';
import { resetDrawing } from './boards.js';
import { render } from './multiverse.js';
import { renderSide } from './panel.js';
import { endAnalysis, setAnalysisState } from './analysis.js';

// The page's services, passed in by the router (app.js) before any page opens.
/** @type {import('./state.js').Board} */
let app;
/** @type {import('./state.js').Door['api']} */
let api;
/** @type {import('../types/backend.js').Backend} */
let backend;
/** @type {import('../types/pages.js').Services['online']} */
let online;
/** @type {import('./settings.js').Sound} */
let sounds;
/** Takes the page's services (types/pages.d.ts). @param {import('../types/pages.js').Services} s */
export function wire(s) {
  app = s.board;
  api = s.door.api;
  backend = s.backend;
  online = s.online;
  sounds = s.sound;
}

// ---------- game ----------

export async function openGame(idText) {
  const id = /^\d+$/.test(idText) ? Number(idText) : null;
  const fresh = !app.state || app.state.id !== id;
  if (fresh) freshPage();
  showError(null);
  // An invite link being opened: the server's answer (the seat, or why not) comes first.
  const joining = online.takeJoining();
  if (joining) await joining;
  let s;
  try {
    if (id === null) throw Object.assign(new Error(`no game with id '${idText}'`), { kind: 'not_found' });
    s = await api('game', { id });
  } catch (e) {
    if (e.kind === 'not_found') {
      // Not an empty playable page: say so, with the way home.
      showPage('notfound');
      document.title = 'chess5d: no such game';
      $('#notfound-text').textContent = `There is no game ${idText} on this server (it may have been deleted).`;
      return;
    }
    showPage('play');
    showError(e.message);
    return;
  }
  showPage('play');
  // The player of Black sees the boards from Black's side (the flip button turns them back).
  if (fresh) app.flip = playsBlackOnly(s);
  $('#editor-panel').classList.add('hidden');
  $('#game-panel').classList.remove('hidden');
  setState(s);
  connectWs(id);
}

/** Forgets the game shown (another one, or a shared game, comes). */
export function freshPage() {
  endAnalysis();
  closeWs();
  app.state = null;
  app.shown = null;
  app.review = null;
  app.variation = null;
  app.cam = 'present';
  app.layoutKey = '';
  app.selected = null;
  app.dests.clear();
  resetDrawing();
}

/** Stops following the game. */
export function closeWs() {
  app.wsGame = null;
  if (app.unwatch) { app.unwatch(); app.unwatch = null; }
}

/** Leaves the board view: the game followed, the analysis board, the state drawn (what a
 * controller drawing on the board view does when the player leaves its page). */
export function leaveBoard() {
  closeWs();
  endAnalysis();
  app.clear();
}

/** Follows game `id` live: every state the back-end sends is drawn (a reconnection says the seat
 * again: online.js's hook). */
export function connectWs(id) {
  if (app.wsGame === id && app.unwatch) return;
  closeWs();
  app.wsGame = id;
  app.unwatch = backend.watch(`/api/games/${id}/ws`, (data) => {
    if (data.deleted) { location.hash = '#/'; return; }
    if (data.id === app.wsGame) setState(data);
  }, { onOpen: (send) => online.wsOpen(send, id) });
}

export function setState(s) {
  if (app.state && app.state.id === s.id && s.version < app.state.version && s.action_count <= app.state.action_count) return;
  const changed = !app.state || app.state.id !== s.id || app.state.version !== s.version;
  if (changed) { const sound = soundOf(app.state, s); if (sound) sounds.play(sound); }
  app.state = s;
  app.clockBase = { t: performance.now(), white: s.clock?.white_ms, black: s.clock?.black_ms };
  if (app.analysis) { renderSide(); return; }
  // The same version again (the WebSocket echoing an answer already drawn): only the side panel.
  if (!changed && app.shown && app.shown.id === s.id) {
    if (app.review === null) app.shown = s;
    renderSide();
    return;
  }
  if (changed) { app.selected = null; app.dests.clear(); }
  if (app.review !== null) {
    // A variation shown stays shown (its moves are not the game's).
    if (app.review >= s.action_count && app.variation === null) app.review = null; else { renderSide(); return; }
  }
  app.shown = s;
  render();
}

// ---------- interaction ----------

export async function act(path, body) {
  try {
    showError(null);
    const r = await api(...app.target(path, body));
    if (app.analysis && r.analysis) setAnalysisState(r); else setState(r);
  } catch (e) {
    showError(e.message);
  }
}

$('#btn-submit').addEventListener('click', () => act('submit'));
$('#btn-undo').addEventListener('click', () => act('undo'));
$('#btn-retry').addEventListener('click', () => act('retry-engine'));
$('#btn-resign').addEventListener('click', () => { if (confirm('Resign this game?')) act('resign', {}); });

/** Whether this browser plays Black alone in `s`: its seat holds only Black, or (no seats) a
 * human plays Black against an engine. */
export function playsBlackOnly(s) {
  const sides = online.sides(s.id);
  if (sides && sides.length) return sides.length === 1 && sides[0] === 'black';
  return !!(s.players.white.engine && !s.players.black.engine);
}

