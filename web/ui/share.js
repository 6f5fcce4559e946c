// Layer 3 (actions), above game.js: a game shared by link. "Share link" puts the game (its 5DPGN
// export, deflate-raw compressed by the browser's CompressionStream, in base64url) into the
// address's fragment, #/view/DATA, which browsers never send to a server; opening such a link
// (#/view/DATA, app.js routes it) shows the game read-only, on an analysis board of the page's
// own back-end (its review: GET /api/analysis/ID?at=N), with "Import as my game".
import { $, showError, showPage, copyFrom } from './dom.js';
import { freshPage, setState } from './game.js';

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

/** The longest link made (characters of the whole address). */
export const MAX_LINK = 32 * 1024;
/** The most bytes a link's game may inflate to (no decompression bomb: a few KB of link could
 * otherwise unfold into gigabytes). Above any game the back-ends import. */
export const MAX_INFLATED = 256 * 1024;

async function bytesOf(stream) {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function base64url(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The fragment data of a game's text. */
export async function encodeGame(text) {
  const packed = new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return base64url(await bytesOf(packed));
}

/** The game text of a link's fragment data; throws an Error saying what is wrong with the link. */
export async function decodeGame(data) {
  if (!data) throw new Error('The link has no game in it (nothing after #/view/).');
  if (!/^[A-Za-z0-9_-]+$/.test(data)) throw new Error('The link is damaged: its game data has characters a shared link never has (was it changed or cut?).');
  let bin;
  try { bin = atob(data.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (data.length % 4)) % 4)); } catch {
    throw new Error('The link is damaged: its game data is cut short or changed.');
  }
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks = [];
  let n = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      n += value.length;
      if (n > MAX_INFLATED) {
        reader.cancel().catch(() => {});
        throw Object.assign(new Error(`The link's game is too large: over ${MAX_INFLATED / 1024} KB once unpacked (at most ${MAX_INFLATED / 1024} KB).`), { big: true });
      }
      chunks.push(value);
    }
  } catch (e) {
    if (e.big) throw e;
    throw new Error('The link is damaged: its game data is cut short or changed (it could not be unpacked).');
  }
  const all = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) { all.set(c, at); at += c.length; }
  try { return new TextDecoder('utf-8', { fatal: true }).decode(all); } catch {
    throw new Error('The link is damaged: its game is not text.');
  }
}

/** The address that shows `text` (a 5DPGN record) read-only, or an Error when it would be too long. */
export async function shareUrl(text) {
  const url = `${location.origin}${location.pathname}#/view/${await encodeGame(text)}`;
  if (url.length > MAX_LINK) {
    throw new Error(`This game is too long for a link: ${url.length} characters, at most ${MAX_LINK}. Export it as a 5DPGN file instead.`);
  }
  return url;
}

// ---------- the Share link dialog ----------

$('#btn-share').addEventListener('click', async () => {
  const s = app.state;
  if (!s) return;
  const input = $('#share-link'), err = $('#share-error');
  input.value = '';
  err.classList.add('hidden');
  try {
    input.value = await shareUrl(app.view ? app.view.text : s.pgn);
  } catch (e) {
    err.textContent = e.message;
    err.classList.remove('hidden');
  }
  input.classList.toggle('hidden', !input.value);
  $('#share-copy').disabled = !input.value;
  $('#share-dialog').showModal();
  if (input.value) input.select();
});
$('#share-copy').addEventListener('click', () => copyFrom($('#share-link'), $('#share-copy')));
$('#share-close').addEventListener('click', () => $('#share-dialog').close());

// ---------- a shared game, opened ----------

/** Shows the game of a link's fragment data read-only (a clear error on the page if it cannot). */
export async function openView(data) {
  endView();
  freshPage();
  showError(null);
  showPage('play');
  $('#editor-panel').classList.add('hidden');
  $('#game-panel').classList.remove('hidden');
  document.body.classList.add('viewing');
  document.title = 'chess5d: shared game';
  let text, st;
  try {
    text = await decodeGame(data);
  } catch (e) { viewFailed(e.message); return; }
  try {
    st = await api('create_analysis', { body: { import: text } });
  } catch (e) { viewFailed(`The link's game cannot be read: ${e.message}`); return; }
  if (!location.hash.startsWith('#/view/')) { api('delete_analysis', { id: st.analysis.id }).catch(() => {}); return; }
  // Followed as the analysis board is (its socket's close drops the board on the server).
  const token = st.analysis.token ? `?token=${st.analysis.token}` : '';
  app.view = { id: st.analysis.id, text, unwatch: backend.watch(`/api/analysis/${st.analysis.id}/ws${token}`, () => {}, { reconnect: false }) };
  app.flip = false;
  // The board is an analysis board (no result of its own): the record's result and how it ended
  // (a resignation, a draw by agreement) are shown as the game's.
  const header = (name) => (text.match(new RegExp(`^\\[${name} "([^"]*)"\\]`, 'm')) || [])[1];
  const result = header('Result');
  if (!st.result && result && result !== '*') { st.result = result; st.termination = header('Termination') || 'imported result'; }
  setState(st);
}

function viewFailed(message) {
  document.body.classList.remove('viewing');
  showPage('notfound');
  document.title = 'chess5d: this shared game cannot be opened';
  $('#notfound-title').textContent = 'This shared game cannot be opened';
  $('#notfound-text').textContent = message;
}

/** Leaves the shared game (its board is dropped). */
export function endView() {
  $('#notfound-title').textContent = 'No such game';
  const v = app.view;
  if (!v) return;
  app.view = null;
  app.state = null;
  document.body.classList.remove('viewing');
  api('delete_analysis', { id: v.id }).catch(() => {}).finally(() => v.unwatch());
}

$('#btn-view-import').addEventListener('click', async () => {
  if (!app.view) return;
  try {
    const g = await api('create_game', { body: { import: app.view.text } });
    location.hash = `#/game/${g.id}`;
  } catch (e) { showError(e.message); }
});
