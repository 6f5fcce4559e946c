// Layer 4 (pages): the home page, which leads with what players come for: play the computer
// (level, colour, variant, one button), play a friend (ui/lobby.js; served only), a puzzle to
// start; then the saved games, the lobby, a custom game (every option: engines on both sides,
// clocks) and every puzzle.
import { $, esc, cap, clockOf, download, showPage } from './dom.js';
import { showExport, openPuzzleDialog } from './dialogs.js';
import { homeOnline } from './lobby.js';

// The page's services, passed in by the router (app.js) before any page opens.
/** @type {import('./state.js').Door['api']} */
let api;
/** @type {import('./state.js').Door} */
let door;
/** @type {import('../types/backend.js').Backend} */
let backend;
/** Takes the page's services (types/pages.d.ts). @param {import('../types/pages.js').Services} s */
export function wire(s) {
  api = s.door.api;
  door = s.door;
  backend = s.backend;
  $('#games-backup').classList.toggle('hidden', !backend.features.backup);
}

/** The computer's levels: a bot of the engine and its time per action. */
const LEVELS = [
  { bot: 'random', ms: 200, text: 'Level 1: random moves' },
  { bot: 'greedy', ms: 300, text: 'Level 2: greedy (takes what it can)' },
  { bot: 'alphabeta', ms: 500, text: 'Level 3: alpha-beta, ½ s an action' },
  { bot: 'alphabeta', ms: 2000, text: 'Level 4: alpha-beta, 2 s an action' },
  { bot: 'alphabeta', ms: 5000, text: 'Level 5: alpha-beta, 5 s an action' },
];

/** Shows the home page and fills its cards (its controller, pages/home.js, calls it). */
export async function showHome() {
  showPage('home');
  document.title = 'chess5d';
  await Promise.all([loadInfo(), refreshGames(), refreshPuzzles(), homeOnline()]).catch((e) => console.warn(e));
}

let formsFilled = false;
/** Fills the home page's forms from the service's info (variants, engines, bots), once. */
export async function loadInfo() {
  if (formsFilled) return;
  const info = await door.loadInfo();
  formsFilled = true;
  $('#ng-variant').innerHTML = info.variants.map((v) => `<option value="${esc(v.name)}">${esc(v.name)} (${esc(v.size)})</option>`).join('');
  for (const side of ['white', 'black']) {
    $(`#ng-${side}`).innerHTML = '<option value="human">Human</option>' +
      info.engines.map((e) => `<option value="engine:${esc(e)}">Engine: ${esc(e)}</option>`).join('');
    $(`#ng-${side}-bot`).innerHTML = info.bots.map((b) => `<option value="${esc(b)}" ${b === 'alphabeta' ? 'selected' : ''}>${esc(b)}</option>`).join('');
  }
  formStates();
  // Play the computer: the first engine, at a level.
  $('#pc-variant').innerHTML = $('#ng-variant').innerHTML;
  const levels = LEVELS.map((l, i) => ({ ...l, i })).filter((l) => info.bots.includes(l.bot));
  $('#pc-level').innerHTML = levels.map((l) => `<option value="${l.i}" ${l.i === 2 ? 'selected' : ''}>${esc(l.text)}</option>`).join('');
  const engine = info.engines[0];
  $('#pc-engine').textContent = engine ? `The engine: ${engine}.` : 'No engine is configured on this server.';
  $('#pc-start').disabled = !engine;
}

$('#computer-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const level = LEVELS[Number($('#pc-level').value)];
  let color = $('#pc-color').value;
  if (color === 'random') color = Math.random() < 0.5 ? 'white' : 'black';
  const computer = { type: 'engine', engine: door.infoLoaded().engines[0], bot: level.bot, movetime_ms: level.ms };
  const body = { variant: $('#pc-variant').value, white: color === 'white' ? { type: 'human' } : computer, black: color === 'black' ? { type: 'human' } : computer };
  const clock = clockOf('pc');
  if (clock) body.clock = clock;
  try {
    const g = await api('create_game', { body: body });
    location.hash = `#/game/${g.id}`;
  } catch (e) { alert(e.message); }
});

/** The new-game form shows engine fields only for engine players, clock fields only with a clock. */
export function formStates() {
  for (const side of ['white', 'black']) $(`#ng-${side}-engine`).classList.toggle('hidden', $(`#ng-${side}`).value === 'human');
  $('#ng-clock-fields').classList.toggle('hidden', !$('#ng-clock').checked);
}
for (const id of ['#ng-white', '#ng-black', '#ng-clock']) $(id).addEventListener('change', formStates);

export async function refreshGames() {
  const { games } = await api('games');
  $('#games-table tbody').innerHTML = games.map((g) => `<tr data-game="${g.id}">
    <td>${g.id}</td><td>${esc(g.white)}</td><td>${esc(g.black)}</td><td>${esc(g.puzzle ? 'Puzzle: ' + g.puzzle : g.variant)}</td>
    <td>${g.termination === 'puzzle failed' ? 'puzzle failed' : esc(g.result) + (g.termination ? ' <small>(' + esc(g.termination) + ')</small>' : '')}</td><td>${g.actions}</td><td>${esc(g.created)}</td>
    <td><button type="button" data-open="${g.id}" aria-label="Open game ${g.id}">${g.result === '*' && !g.termination ? 'Resume' : 'Open'}</button><button type="button" data-delete="${g.id}" aria-label="Delete game ${g.id}">Delete</button></td></tr>`).join('')
    || '<tr><td colspan="8">No saved games yet.</td></tr>';
}

const puzzleRow = (p) => `<tr data-puzzle="${esc(p.id)}">
    <td>${esc(p.name)}</td><td>${esc(p.to_move)}</td><td>${p.mate_in ?? '?'}</td><td class="status-${esc(p.status)}">${esc(p.status)}</td>
    <td><button type="button" data-puzzle-start="${esc(p.id)}" aria-label="Start puzzle ${esc(p.name)}">Start</button><button type="button" data-puzzle-export="${esc(p.id)}" aria-label="Export puzzle ${esc(p.name)}">Export</button></td></tr>`;

// The list is paged (the server answers `next`, the offset of the next page, while there is one).
let puzzlesNext = null;
function puzzlesMore(next) {
  puzzlesNext = next ?? null;
  $('#puzzles-more').classList.toggle('hidden', puzzlesNext === null);
}

export async function refreshPuzzles() {
  const page = await api('puzzles');
  const { puzzles } = page;
  $('#puzzles-table tbody').innerHTML = puzzles.map(puzzleRow).join('');
  puzzlesMore(page.next);
  // The puzzle to start: the first one not solved yet.
  const next = puzzles.find((p) => p.status !== 'solved') ?? puzzles[0];
  const solved = puzzles.filter((p) => p.status === 'solved').length;
  const of = page.next == null ? `${puzzles.length}` : `the first ${puzzles.length}`;
  $('#puzzle-next').innerHTML = next ? `<p class="puzzle-name">${esc(next.name)}</p>
    <p>${esc(cap(next.to_move))} to play and mate in ${next.mate_in ?? '?'}.</p>
    <button type="button" class="primary big" data-puzzle-start="${esc(next.id)}" aria-label="Solve puzzle ${esc(next.name)}">Solve this puzzle</button>
    <p class="muted">${solved} of ${of} solved.</p>` : '<p>No puzzles yet.</p>';
}

// ---------- backup (the static site: its games live in this browser) ----------

const backupStatus = (text) => {
  $('#games-backup-status').textContent = text;
  $('#games-backup-status').classList.toggle('hidden', !text);
};
$('#btn-backup').addEventListener('click', async () => {
  const text = await backend.exportAll();
  const file = `chess5d-games-${new Date().toISOString().slice(0, 10)}.5dpgn`;
  download(text, file);
  const n = (text.match(/^\[White /gm) || []).length;
  backupStatus(`${n} game${n === 1 ? '' : 's'} written to ${file}.`);
});
$('#btn-restore').addEventListener('click', () => $('#restore-file').click());
$('#restore-file').addEventListener('change', async () => {
  const file = $('#restore-file').files[0];
  $('#restore-file').value = '';
  if (!file) return;
  try {
    const { created, failed } = await backend.importGames(await file.text());
    const bad = failed.map((f) => `game ${f.game} (line ${f.line}): ${f.message}`).join('; ');
    backupStatus(`${created.length} game${created.length === 1 ? '' : 's'} restored from ${file.name}${failed.length ? `; ${failed.length} not read: ${bad}` : '.'}`);
  } catch (e) {
    backupStatus(`${file.name} was not restored: ${e.message}`);
  }
  await refreshGames();
});

$('#puzzles-more').addEventListener('click', async () => {
  if (puzzlesNext === null) return;
  try {
    const page = await api('puzzles', { query: { offset: puzzlesNext } });
    $('#puzzles-table tbody').insertAdjacentHTML('beforeend', page.puzzles.map(puzzleRow).join(''));
    puzzlesMore(page.next);
  } catch (e) { alert(e.message); }
});

$('#games-table').addEventListener('click', async (ev) => {
  const b = ev.target.closest('button');
  if (!b) return;
  if (b.dataset.open) location.hash = `#/game/${b.dataset.open}`;
  if (b.dataset.delete) {
    if (!confirm(`Delete game ${b.dataset.delete}? This cannot be undone.`)) return;
    try { await api('delete_game', { id: b.dataset.delete }); } catch (e) { alert(e.message); }
    refreshGames();
  }
});

async function onPuzzleClick(ev) {
  const go = ev.target.closest('button[data-scroll], button[data-go]');
  if (go) { if (go.dataset.go) location.hash = go.dataset.go; else $(go.dataset.scroll).scrollIntoView(); return; }
  const x = ev.target.closest('button[data-puzzle-export]');
  if (x) {
    const text = await backend.call('puzzle_pgn', { id: x.dataset.puzzleExport });
    showExport('Export puzzle (5DPGN)', text, `puzzle-${x.dataset.puzzleExport}.5dpgn`);
    return;
  }
  const b = ev.target.closest('button[data-puzzle-start]');
  if (!b) return;
  const g = await api('start_puzzle', { id: b.dataset.puzzleStart });
  location.hash = `#/game/${g.id}`;
}
$('#puzzles-table').addEventListener('click', onPuzzleClick);
$('#puzzle-card').addEventListener('click', onPuzzleClick);
$('#btn-puzzle-import').addEventListener('click', () => {
  const what = 'Paste a puzzle (5DPGN with a [Puzzle "mate-in-N"] header, or any position). Its goal is proven before it is saved.';
  openPuzzleDialog({ importText: true }, what, refreshPuzzles);
  $('#pz-text').focus();
});
$('#btn-puzzle-make').addEventListener('click', () => { location.hash = '#/editor'; });

export function playerOf(side) {
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
    const g = await api('create_game', { body: body });
    location.hash = `#/game/${g.id}`;
  } catch (e) { alert(e.message); }
});

$('#btn-new').addEventListener('click', () => { location.hash = '#/'; showHome(); $('#home').scrollTop = 0; $('#pc-level').focus(); });
$('#btn-games').addEventListener('click', () => { location.hash = '#/'; showHome().then(() => $('#games-card').scrollIntoView()); });
$('#btn-puzzles').addEventListener('click', () => { location.hash = '#/'; showHome().then(() => $('#puzzles-card').scrollIntoView()); });
