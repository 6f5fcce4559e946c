// Layer 2 (drawing): the dialogs: import a game or position, export (copy, download), save a
// position as a puzzle (its goal proven by the back-end first) and import a puzzle.
import { $, cap, copyFrom, download } from './dom.js';

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

/** The dialogs' own state: the export's file name, the puzzle dialog's source, its callback, and
 * whether the player chose the goal (else a record's own `Puzzle` header sets it). */
const dialog = {
  exportFile: /** @type {string | null} */ (null),
  /** @type {{importText?: boolean, fen?: string, game?: string, at?: number} | null} */
  puzzleSource: null,
  /** @type {() => Promise<void>} */
  puzzleSaved: async () => {},
  puzzleGoalTouched: false,
};

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
    const g = await api('create_game', { body: { import: text } });
    $('#import-dialog').close();
    location.hash = `#/game/${g.id}`;
  } catch (e) {
    const el = $('#import-error');
    el.textContent = e.message;
    el.classList.remove('hidden');
  }
});

/** Shows the export dialog: its title, the text, the file a download is named.
 * @param {string} title @param {string} text @param {string} file */
export function showExport(title, text, file) {
  $('#export-title').textContent = title;
  $('#export-text').value = text;
  dialog.exportFile = file;
  $('#export-dialog').showModal();
}
$('#btn-export').addEventListener('click', () => {
  if (!app.state) return;
  showExport('Export (5DPGN)', app.state.pgn, `chess5d-game-${app.state.id}.5dpgn`);
});
$('#export-close').addEventListener('click', () => $('#export-dialog').close());
$('#export-copy').addEventListener('click', () => copyFrom($('#export-text'), $('#export-copy')));
$('#export-download').addEventListener('click', () => download($('#export-text').value, dialog.exportFile || 'chess5d.5dpgn'));

// ---------- puzzles: save, prove, import ----------

/** Opens the puzzle dialog for a source ({importText}, {fen} or {game, at}); the async onSaved
 * runs once the puzzle is saved (the home page refreshes its list; elsewhere the list is
 * refreshed when the home page is shown). */
/** @param {{importText?: boolean, fen?: string, game?: string, at?: number}} source @param {string} what
 * @param {() => Promise<void>} [onSaved] */
export function openPuzzleDialog(source, what, onSaved = async () => {}) {
  dialog.puzzleSource = source;
  dialog.puzzleGoalTouched = false;
  dialog.puzzleSaved = onSaved;
  $('#puzzle-dialog-what').textContent = what;
  $('#pz-text').classList.toggle('hidden', !source.importText);
  $('#pz-text').value = '';
  $('#pz-error').classList.add('hidden');
  $('#pz-ok').classList.add('hidden');
  $('#pz-save').disabled = false;
  $('#puzzle-dialog').showModal();
}

$('#pz-cancel').addEventListener('click', () => $('#puzzle-dialog').close());
$('#pz-save').addEventListener('click', async () => {
  const src = dialog.puzzleSource;
  if (!src) return;
  /** The make_puzzle call's body (API.md). @type {{mate_in?: number, name?: string, import?: string, game?: string, at?: number}} */
  const body = { mate_in: Number($('#pz-mate').value) };
  const name = $('#pz-name').value.trim();
  if (name) body.name = name;
  if (src.importText) {
    body.import = $('#pz-text').value;
    // An imported record says its own goal unless the player picked one.
    if (/\[Puzzle\s+"mate-in-\d+"\]/i.test(body.import ?? '') && !dialog.puzzleGoalTouched) delete body.mate_in;
  } else if (src.fen) body.import = src.fen;
  else { body.game = src.game; if (src.at !== undefined) body.at = src.at; }
  $('#pz-error').classList.add('hidden');
  $('#pz-ok').classList.remove('hidden');
  $('#pz-ok').textContent = 'Proving the goal (every action of both sides is tried)…';
  $('#pz-save').disabled = true;
  try {
    const r = await api('make_puzzle', { body: body });
    $('#pz-ok').textContent = `Saved “${r.name}”: ${cap(r.to_move)} mates in ${r.mate_in}, proven. Solution: ${(r.pgn.match(/\n\(([^)]*)\)/) || [])[1] || ''}`;
    $('#pz-ok').dataset.saved = r.id;
    dialog.puzzleSaved().catch(() => {});
  } catch (e) {
    $('#pz-ok').classList.add('hidden');
    $('#pz-error').textContent = e.message;
    $('#pz-error').classList.remove('hidden');
    $('#pz-save').disabled = false;
  }
});
$('#pz-mate').addEventListener('change', () => { dialog.puzzleGoalTouched = true; });
$('#btn-save-puzzle').addEventListener('click', () => {
  const s = app.state;
  if (!s) return;
  if (app.analysis) {
    openPuzzleDialog({ fen: app.analysis.state.fen }, `The position of the analysis board, ${cap(app.analysis.state.to_move)} to move.`);
    return;
  }
  const at = app.review ?? s.action_count;
  openPuzzleDialog({ game: s.id, at }, `The position after action ${at} of game ${s.id}, ${cap((app.shown || s).to_move)} to move.`);
});
