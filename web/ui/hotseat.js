// Layer 4 (pages): the home page's "Play a friend on this device" card (hot seat): one game,
// both sides played from this browser in turn. Offered where the back-end has no invites (the
// static site: one browser, no second person online); the served page has "Play a friend" by
// invite link instead.
import { $, esc, showError } from './dom.js';

// The page's services, passed in by the router (app.js) before any page opens.
/** @type {import('./state.js').Door['api']} */
let api;
/** @type {import('../types/backend.js').Backend} */
let backend;
/** Takes the page's services (types/pages.d.ts). @param {import('../types/pages.js').Services} s */
export function wire(s) {
  api = s.door.api;
  backend = s.backend;
  card();
}

function card() {
  const lead = $('#lead');
  if (!lead || $('#hotseat-card') || backend.features.invites) return;
  const c = document.createElement('section');
  c.className = 'card lead';
  c.id = 'hotseat-card';
  c.innerHTML = `<h2>Play a friend on this device</h2>
    <form id="hotseat-form">
      <label>Variant <select id="hs-variant" aria-label="Variant of the game on this device"><option>Standard</option></select></label>
      <button type="submit" class="primary big" aria-label="Play on this device">Play on this device</button>
      <p class="hint">White and Black take turns at this screen; the boards turn with the side to move if you flip them.</p>
    </form>`;
  const puzzle = $('#puzzle-card');
  if (puzzle) puzzle.before(c); else lead.append(c);
  api('info').then((info) => {
    $('#hs-variant').innerHTML = info.variants.map((/** @type {{name: string, size: string}} */ v) => `<option value="${esc(v.name)}">${esc(v.name)} (${esc(v.size)})</option>`).join('');
  }).catch(() => {});
  $('#hotseat-form').addEventListener('submit', async (/** @type {SubmitEvent} */ ev) => {
    ev.preventDefault();
    try {
      const g = await api('create_game', { body: { variant: $('#hs-variant').value, white: { type: 'human' }, black: { type: 'human' } } });
      location.hash = `#/game/${g.id}`;
    } catch (e) { showError(e.message); }
  });
}
