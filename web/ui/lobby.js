// Layer 3 (actions), used by home.js: the home page's online cards (served only: backend.features says what the back-end offers):
// play a friend (an invite link), the lobby of open challenges, and the games this browser holds
// a seat in. A challenge of ours that someone accepted opens its game (checked every 1.5 s).
import { $, clockOf } from './dom.js';
import { online, call, load, save, esc, keepSeat, shared, loadShared, rememberName, rememberedName, SEATS, CHALLENGES } from '../online.js';

// The page's services, passed in by the router (app.js) before any page opens.
/** @type {import('../types/backend.js').Backend} */
let backend;
/** Takes the page's services (types/pages.d.ts). @param {import('../types/pages.js').Services} s */
export function wire(s) {
  backend = s.backend;
  setInterval(tick, 1500);
}

function variantOptions() {
  return (shared.info?.variants || []).map((v) => `<option value="${esc(v.name)}">${esc(v.name)} (${esc(v.size)})</option>`).join('');
}


/** Fills the variant lists once the server's info is known. */
function fillVariants() {
  for (const id of ['#fr-variant', '#ch-variant']) {
    const sel = $(id);
    if (!sel.options.length) sel.innerHTML = variantOptions();
  }
}

// The player's name, remembered in this browser for the next invite (online.js).
$('#fr-name').value = rememberedName();

async function createFriendGame(ev) {
  ev.preventDefault();
  const text = $('#fr-import').value.trim();
  const side = $('#fr-side').value;
  const name = $('#fr-name').value.trim();
  rememberName(name);
  const body = { white: { type: 'human' }, black: { type: 'human' }, seat: side };
  if (name) body[side] = { type: 'human', name };
  if (text) body.import = text; else body.variant = $('#fr-variant').value;
  const clock = clockOf('fr');
  if (clock) body.clock = clock;
  try {
    const g = await call('POST', '/api/games', body);
    online.seen('/api/games', 'POST', g);
    location.hash = `#/game/${g.id}`;
  } catch (e) { alert(e.message); }
}

/** A clock as players write it: 5+3, 3 days a move, or — without one. */
const fmtClock = (c) => {
  if (!c) return '—';
  if (c.days) return `${c.days} day${c.days > 1 ? 's' : ''} a move`;
  const m = c.initial_ms / 60000;
  return `${m >= 1 ? Math.round(m) : m}+${Math.round(c.increment_ms / 1000)}`;
};

const challengeRow = (c, own) => `<tr data-challenge="${c.id}">
    <td>${c.id}</td><td>${c.account ? `<a href="#/player/${encodeURIComponent(c.account)}">${esc(c.account)}</a>` : esc(c.name || 'Anonymous')}</td>
    <td class="num" data-lobby-rating="${c.id}">${c.rating ? `${Math.round(c.rating.rating)}${c.rating.provisional ? '?' : ''}` : '—'}</td>
    <td>${esc(c.variant)}</td><td>${esc(fmtClock(c.clock))}</td>
    <td>${c.rated ? `rated ${esc(c.category || '')}` : 'casual'}${c.to ? ` · for ${esc(c.to)}` : ''}</td><td>${esc(c.color)}</td>
    <td>${own[c.id] ? `<button type="button" data-cancel="${c.id}" aria-label="Cancel challenge ${c.id}">Cancel</button>`
      : `<button type="button" data-accept="${c.id}" aria-label="Accept challenge ${c.id}">Accept</button>`}</td></tr>`;

/** The lobby's query: its rating filter (and a page's offset). */
function lobbyQuery(offset) {
  const q = new URLSearchParams();
  if (offset) q.set('offset', offset);
  for (const [id, key] of [['#lobby-min', 'min_rating'], ['#lobby-max', 'max_rating']]) {
    const v = $(id).value.trim();
    if (v !== '') q.set(key, v);
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

// The lobby is paged (the server answers `next`, the offset of the next page, while there is one).
let lobbyNext = null;
function lobbyMore(next) {
  lobbyNext = next ?? null;
  $('#lobby-more').classList.toggle('hidden', lobbyNext === null);
}

async function refreshLobby() {
  if ($('#home').classList.contains('hidden')) return;
  const page = await call('GET', `/api/challenges${lobbyQuery()}`);
  const own = load(CHALLENGES);
  $('#lobby-table tbody').innerHTML = page.challenges.map((c) => challengeRow(c, own)).join('')
    || '<tr><td colspan="8">No open challenges.</td></tr>';
  lobbyMore(page.next);
}

$('#lobby-more').addEventListener('click', async () => {
  if (lobbyNext === null) return;
  try {
    const page = await call('GET', `/api/challenges${lobbyQuery(lobbyNext)}`);
    const own = load(CHALLENGES);
    $('#lobby-table tbody').insertAdjacentHTML('beforeend', page.challenges.map((c) => challengeRow(c, own)).join(''));
    lobbyMore(page.next);
  } catch (e) { alert(e.message); }
});

async function refreshMine() {
  const seats = load(SEATS);
  const tokens = [...new Set(Object.values(seats).map((s) => s.token))];
  if (!tokens.length) { $('#my-games-table tbody').innerHTML = '<tr><td colspan="7">No games yet.</td></tr>'; return; }
  const { games } = await call('POST', '/api/my-games', { tokens });
  $('#my-games-table tbody').innerHTML = games.map((g) => `<tr data-my-game="${g.id}">
    <td>${g.id}</td><td>${esc(g.sides.join(' & '))}</td><td>${esc(g.white)}</td><td>${esc(g.black)}</td><td>${esc(g.variant)}</td>
    <td>${esc(g.result)}</td><td><button type="button" data-open="${g.id}" aria-label="Open your game ${g.id}">${g.result === '*' && !g.termination ? 'Resume' : 'Open'}</button></td></tr>`).join('')
    || '<tr><td colspan="7">No games yet.</td></tr>';
}

async function postChallenge(ev) {
  ev.preventDefault();
  const body = { variant: $('#ch-variant').value, color: $('#ch-color').value };
  const days = $('#ch-days').value;
  const clock = days ? { days: Number(days) } : clockOf('ch');
  if (clock) body.clock = clock;
  const name = $('#ch-name').value.trim();
  if (name) body.name = name;
  if ($('#ch-rated').checked) body.rated = true;
  const to = $('#ch-to').value.trim();
  if (to) body.to = to;
  try {
    const c = await call('POST', '/api/challenges', body);
    const all = load(CHALLENGES); all[c.id] = c.token; save(CHALLENGES, all);
    refreshLobby();
  } catch (e) { alert(e.message); }
}

async function acceptChallenge(ev) {
  const b = ev.target.closest('button');
  if (!b) return;
  try {
    if (b.dataset.cancel) {
      await call('DELETE', `/api/challenges/${b.dataset.cancel}`, undefined, load(CHALLENGES)[b.dataset.cancel]);
      const all = load(CHALLENGES); delete all[b.dataset.cancel]; save(CHALLENGES, all);
      refreshLobby();
    } else if (b.dataset.accept) {
      const name = $('#ch-name').value.trim();
      const g = await call('POST', `/api/challenges/${b.dataset.accept}/accept`, name ? { name } : {});
      online.seen('/api/challenges', 'POST', g);
      location.hash = `#/game/${g.id}`;
    }
  } catch (e) { alert(e.message); refreshLobby(); }
}

// A challenge of ours that was accepted: its token is our seat in the new game.
async function watchChallenges() {
  const own = load(CHALLENGES);
  for (const [id, token] of Object.entries(own)) {
    let c;
    try { c = await call('GET', `/api/challenges/${id}`); } catch { const all = load(CHALLENGES); delete all[id]; save(CHALLENGES, all); continue; }
    if (c.game == null) continue;
    const { games } = await call('POST', '/api/my-games', { tokens: [token] });
    const g = games.find((x) => x.id === c.game);
    keepSeat(c.game, { token, sides: g ? g.sides : [], owner: true });
    const all = load(CHALLENGES); delete all[id]; save(CHALLENGES, all);
    location.hash = `#/game/${c.game}`;
    return;
  }
  const wait = $('#challenge-wait');
  const n = Object.keys(load(CHALLENGES)).length;
  wait.classList.toggle('hidden', n === 0);
  wait.textContent = n ? 'Waiting for someone to accept your challenge…' : '';
}

/** The online cards of the home page, brought up to date (when it is shown). */
export async function homeOnline() {
  for (const id of ['#friend-card', '#lobby-card', '#my-games-card']) $(id).classList.toggle('hidden', !backend.features.online);
  await loadShared();
  if (!backend.features.online || $('#home').classList.contains('hidden')) return;
  fillVariants();
  await Promise.all([refreshLobby(), refreshMine()]);
}

async function tick() {
  try {
    await loadShared();
    if (!backend.features.lobby) return;
    await watchChallenges();
    if (!$('#home').classList.contains('hidden')) { fillVariants(); await refreshLobby(); }
  } catch (e) { console.warn(e); }
}

$('#friend-form').addEventListener('submit', createFriendGame);
$('#challenge-form').addEventListener('submit', postChallenge);
$('#lobby-filter').addEventListener('submit', (ev) => { ev.preventDefault(); refreshLobby(); });
$('#lobby-filter').addEventListener('change', () => refreshLobby().catch((e) => alert(e.message)));
$('#lobby-table').addEventListener('click', acceptChallenge);
$('#my-games-table').addEventListener('click', (ev) => {
  const b = ev.target.closest('button[data-open]');
  if (b) location.hash = `#/game/${b.dataset.open}`;
});
