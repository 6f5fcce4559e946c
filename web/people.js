// Beside online.js, beneath the ui/ layers (it imports only online.js and backend/): playing
// people on the server (served only: the static site has no accounts). The account bar in the
// top bar (sign up, log in, your page, log out) and its dialog; the home page's quick-pairing
// card (a clock, a variant, rated or casual; the page polls until paired, then opens the game);
// a player's page (#/player/NAME: ratings per category with a graph over time, games, ongoing
// games); on the game page, fair play (no Analyse or computer review while two people play) and
// each player's rating change when a rated game ends. app.js routes #/player/NAME here.
import { online, call, esc, cap, keepSeat, seatOf, shared } from './online.js';

const $ = (s) => document.querySelector(s);
/** Whether the back-end is the server (set by startPeople). */
let served = false;

/** The logged-in account ({name}) or null; read at start and after each change. */
export const me = { name: null };

// ---------- the account bar and its dialog ----------

const bar = document.createElement('span');
bar.id = 'account-bar';
$('#settings')?.before(bar);

const dialog = document.createElement('dialog');
dialog.id = 'account-dialog';
dialog.setAttribute('aria-label', 'Account');
dialog.innerHTML = `<form method="dialog" id="account-form">
  <h2 id="account-title">Log in</h2>
  <label>Name <input id="acc-name" autocomplete="username" required minlength="2" maxlength="20" pattern="[A-Za-z0-9_\\-]+" aria-label="Name"></label>
  <label>Password <input id="acc-password" type="password" autocomplete="current-password" required minlength="8" maxlength="128" aria-label="Password"></label>
  <p id="acc-hint" class="muted">Names: 2 to 20 letters, digits, _ or -. Passwords: at least 8 characters.</p>
  <p id="acc-error" class="error-line" role="alert"></p>
  <div class="row"><button type="submit" id="acc-submit" class="primary">Log in</button>
  <button type="button" id="acc-switch">I have no account yet</button>
  <button type="button" id="acc-cancel">Cancel</button></div>
</form>`;
document.body.appendChild(dialog);
let mode = 'login';

function setMode(m) {
  mode = m;
  const signup = m === 'signup';
  $('#account-title').textContent = signup ? 'Sign up' : 'Log in';
  $('#acc-submit').textContent = signup ? 'Sign up' : 'Log in';
  $('#acc-switch').textContent = signup ? 'I have an account' : 'I have no account yet';
  $('#acc-password').autocomplete = signup ? 'new-password' : 'current-password';
  $('#acc-error').textContent = '';
}

function openAccount(m) {
  setMode(m);
  dialog.showModal();
  $('#acc-name').focus();
}

$('#acc-switch').addEventListener('click', () => setMode(mode === 'login' ? 'signup' : 'login'));
$('#acc-cancel').addEventListener('click', () => dialog.close());
$('#account-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const body = { name: $('#acc-name').value.trim(), password: $('#acc-password').value };
  try {
    const a = await call('POST', mode === 'signup' ? '/api/account' : '/api/login', body);
    me.name = a.name;
    $('#acc-password').value = '';
    dialog.close();
    renderBar();
    renderPairing();
    refreshTurns();
  } catch (e) {
    $('#acc-error').textContent = e.message;
  }
});

function renderBar() {
  if (!served) return;
  bar.innerHTML = me.name
    ? `<a href="#/player/${encodeURIComponent(me.name)}" id="acc-me" aria-label="Your page">${esc(me.name)}</a> <button type="button" id="acc-logout">Log out</button>`
    : '<button type="button" id="acc-login">Log in</button> <button type="button" id="acc-signup">Sign up</button>';
}

bar.addEventListener('click', async (ev) => {
  const id = /** @type {HTMLElement} */ (ev.target).id;
  if (id === 'acc-login') openAccount('login');
  else if (id === 'acc-signup') openAccount('signup');
  else if (id === 'acc-logout') {
    try { await call('POST', '/api/logout', {}); } catch { /* ended anyway */ }
    me.name = null;
    renderBar();
    renderPairing();
  }
});

async function whoAmI() {
  if (!served) return;
  try {
    const info = shared.info || await call('GET', '/api/info');
    $('#qp-variant').innerHTML = info.variants.map((v) => `<option value="${esc(v.name)}">${esc(v.name)}</option>`).join('');
  } catch { /* the list stays empty: Standard */ }
  try { me.name = (await call('GET', '/api/account')).name ?? null; } catch { me.name = null; }
  renderBar();
  renderPairing();
  refreshTurns();
}

// ---------- quick pairing (a card on the home page) ----------

const CLOCKS = ['1+0', '2+1', '3+0', '3+2', '5+0', '5+3', '10+0', '10+5', '15+10', '30+0'];
// Correspondence: days per move.
const DAYS = [1, 2, 3, 5, 7, 14];
const card = document.createElement('section');
card.className = 'card lead';
card.id = 'pairing-card';
card.innerHTML = `<h2>Quick pairing</h2>
  <form id="pairing-form">
    <div class="row">
      <label>Clock <select id="qp-clock" aria-label="Clock">${CLOCKS.map((c) => `<option ${c === '5+3' ? 'selected' : ''}>${c}</option>`).join('')}
        <optgroup label="Correspondence">${DAYS.map((d) => `<option value="${d}d">${d} day${d > 1 ? 's' : ''} a move</option>`).join('')}</optgroup></select></label>
      <label>Variant <select id="qp-variant" aria-label="Variant"></select></label>
    </div>
    <label class="check"><input type="checkbox" id="qp-rated" aria-label="Rated"> Rated</label>
    <p id="qp-note" class="muted"></p>
    <div class="row"><button type="submit" id="qp-start" class="primary">Find an opponent</button>
    <button type="button" id="qp-cancel" class="hidden">Cancel</button></div>
    <p id="qp-status" role="status"></p>
  </form>`;
const pairing = { timer: 0, waiting: false };

function renderPairing() {
  if (!served) return;
  $('#qp-rated').disabled = !me.name;
  if (!me.name) $('#qp-rated').checked = false;
  $('#qp-note').textContent = me.name
    ? `You play as ${me.name}; a rated game changes your rating.`
    : 'Without an account you play casual games as Anonymous. Log in to play rated.';
  $('#qp-start').disabled = pairing.waiting;
  $('#qp-cancel').classList.toggle('hidden', !pairing.waiting);
}

function stopPolling() {
  clearTimeout(pairing.timer);
  pairing.waiting = false;
  renderPairing();
}

function paired(g) {
  stopPolling();
  keepSeat(g.id, { token: g.seat.token, sides: [g.seat.side], owner: false });
  $('#qp-status').textContent = '';
  location.hash = `#/game/${g.id}`;
}

async function poll() {
  try {
    const v = await call('GET', '/api/pairing');
    if (v.game) return paired(v.game);
    $('#qp-status').textContent = `Looking for an opponent… ${v.seconds ?? 0} s`;
    pairing.timer = setTimeout(poll, 1000);
  } catch (e) {
    stopPolling();
    $('#qp-status').textContent = e.message;
  }
}

// (The card joins the page in startPeople, served only: its listeners are set on it, not looked up.)
card.querySelector('#pairing-form')?.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const body = { clock: $('#qp-clock').value, variant: $('#qp-variant').value || 'Standard', rated: $('#qp-rated').checked };
  try {
    const v = await call('POST', '/api/pairing', body);
    if (v.game) return paired(v.game);
    pairing.waiting = true;
    renderPairing();
    $('#qp-status').textContent = `Looking for an opponent (${body.clock}, ${body.variant}, ${body.rated ? 'rated' : 'casual'})…`;
    pairing.timer = setTimeout(poll, 1000);
  } catch (e) {
    $('#qp-status').textContent = e.message;
  }
});

card.querySelector('#qp-cancel')?.addEventListener('click', async () => {
  stopPolling();
  try {
    const v = await call('DELETE', '/api/pairing');
    if (v.game) return paired(v.game);
    $('#qp-status').textContent = 'Cancelled.';
  } catch (e) { $('#qp-status').textContent = e.message; }
});

// ---------- your turn (a card on the home page, logged in) ----------

const turnCard = document.createElement('section');
turnCard.className = 'card hidden';
turnCard.id = 'my-turn-card';
turnCard.innerHTML = '<h2>Your turn</h2><div id="my-turn"></div>';
const turns = { timer: 0 };

/** Time left as a player reads it. */
function left(ms) {
  if (ms === null || ms === undefined) return 'no clock';
  const h = Math.floor(ms / 3600000);
  if (h >= 24) return `${Math.floor(h / 24)} d ${h % 24} h left`;
  if (h >= 1) return `${h} h ${Math.floor((ms % 3600000) / 60000)} min left`;
  return `${Math.floor(ms / 60000)} min ${Math.floor((ms % 60000) / 1000)} s left`;
}

const clockText = (c) => (!c ? 'no clock' : c.days ? `${c.days} day${c.days > 1 ? 's' : ''} a move` : `${c.initial_ms / 60000}+${c.increment_ms / 1000}`);

/** Lists the account's games where it is its turn (every 10 s while the home page shows). */
async function refreshTurns() {
  clearTimeout(turns.timer);
  const home = $('#home');
  if (!served || !me.name) { turnCard.classList.add('hidden'); return; }
  if (home && home.classList.contains('hidden')) { turns.timer = setTimeout(refreshTurns, 10000); return; }
  try {
    const { games } = await call('GET', '/api/my-turn');
    turnCard.classList.remove('hidden');
    $('#my-turn').innerHTML = games.length
      ? `<table id="my-turn-table"><thead><tr><th>Opponent</th><th>You play</th><th>Variant</th><th>Clock</th><th>Time</th><th></th></tr></thead><tbody>${games.map((g) => `<tr data-turn-game="${g.id}">
          <td data-label="Opponent">${esc(g.opponent)}</td><td data-label="You play">${esc(cap(g.color))}</td><td data-label="Variant">${esc(g.variant)}</td><td data-label="Clock">${esc(clockText(g.clock))}${g.rated ? ' · rated' : ''}</td>
          <td data-label="Time">${esc(left(g.left_ms))}</td><td><a href="#/game/${g.id}" aria-label="Play game ${g.id}">Play</a></td></tr>`).join('')}</tbody></table>`
      : '<p class="muted" id="my-turn-none">No game is waiting for your move.</p>';
  } catch { turnCard.classList.add('hidden'); }
  turns.timer = setTimeout(refreshTurns, 10000);
}
window.addEventListener('hashchange', () => { if (!location.hash || location.hash === '#/' || location.hash === '#') refreshTurns(); });

// ---------- a seat of the account, on any device ----------

const claimed = new Set();

/** On a game of the logged-in account that this browser holds no seat of: its seat (the
 * server knows which side the account plays), then the game is shown as its player's. */
async function claimSeat(s) {
  if (!served || !me.name || !s || s.analysis || !s.seated || online.sides(s.id) || claimed.has(s.id)) return;
  claimed.add(s.id);
  try {
    const v = await call('POST', `/api/games/${s.id}/seat`, {});
    keepSeat(s.id, { token: v.seat.token, sides: [v.seat.side], owner: false });
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } catch { /* not this account's game: watched */ }
}

// ---------- the game page: fair play and the rating change ----------

const ratingLine = document.createElement('div');
ratingLine.id = 'rating-line';
ratingLine.setAttribute('role', 'status');
$('#gameover')?.after(ratingLine);
const ratings = { game: null, data: null, asked: null };

/** Whether the game shown is an online game between two people still going on: the engine's
 * help (Analyse, the computer review) is hidden then, for its players and spectators alike. */
function playedOnline(s) {
  if (!s || s.analysis || s.result || !s.seated) return false;
  const humans = !s.players.white.engine && !s.players.black.engine;
  const mine = online.sides(s.id) || [];
  return humans && mine.length < 2;
}

const rated = (r) => (r ? `${Math.round(r.rating)}${r.provisional ? '?' : ''}` : '');
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '±0');

async function loadRating(s, final) {
  const key = `${s.id}:${final}`;
  if (ratings.asked === key) return;
  ratings.asked = key;
  try {
    ratings.data = await call('GET', `/api/games/${s.id}/rating`);
    ratings.game = s.id;
  } catch { ratings.data = null; }
  renderRating(s);
}

function renderRating(s) {
  const d = ratings.game === s.id ? ratings.data : null;
  if (!d || !(d.white || d.black)) { ratingLine.textContent = ''; return; }
  const side = (c) => {
    const p = d[c];
    if (!p) return `${cap(c)}: Anonymous`;
    const change = p.change === null || p.change === undefined ? '' : ` (${signed(p.change)})`;
    return `${cap(c)}: ${p.name} ${d.rated ? rated(p) : ''}${change}`;
  };
  ratingLine.textContent = `${d.rated ? `Rated ${d.category}` : 'Casual'} · ${side('white')} · ${side('black')}`;
}

// ---------- the game page: a rematch once the game ends ----------

const rematchLine = document.createElement('div');
rematchLine.id = 'rematch-line';
rematchLine.className = 'online-actions';
ratingLine.after(rematchLine);
const rematch = { game: null, timer: 0, state: null };

/** The rematch offers of an ended game between two people, polled while it is shown. */
function watchRematch(s) {
  const ended = served && s && !s.analysis && s.seated && s.result && s.termination !== 'aborted'
    && !s.players.white.engine && !s.players.black.engine;
  if (!ended) {
    clearTimeout(rematch.timer);
    rematch.game = null;
    rematchLine.innerHTML = '';
    return;
  }
  if (rematch.game === s.id) return;
  clearTimeout(rematch.timer);
  rematch.game = s.id;
  rematch.state = null;
  pollRematch();
}

async function pollRematch() {
  const id = rematch.game;
  if (id === null) return;
  // Another page is shown: stop asking.
  if (!new RegExp(`^#/game/${id}(/|$)`).test(location.hash)) { rematch.game = null; return; }
  try {
    const v = await call('GET', `/api/games/${id}/rematch`);
    if (rematch.game !== id) return;
    const mine = online.sides(id) || [];
    // Both accepted: a player who offered takes their seat of the new game and goes there.
    if (v.game && mine.length === 1 && v.offered[mine[0]]) return await takeRematch(id);
    rematch.state = v;
    renderRematch(id, v, mine);
  } catch { /* tried again below */ }
  if (rematch.game === id) rematch.timer = setTimeout(pollRematch, 1500);
}

async function takeRematch(id) {
  const v = await call('POST', `/api/games/${id}/rematch`, {}, seatOf(id)?.token);
  if (!v.seat) return renderRematch(id, v, online.sides(id) || []);
  keepSeat(v.game, { token: v.seat.token, sides: v.seat.sides, owner: false });
  clearTimeout(rematch.timer);
  rematch.game = null;
  location.hash = `#/game/${v.game}`;
}

function renderRematch(id, v, mine) {
  const other = (c) => (c === 'white' ? 'black' : 'white');
  let html = '';
  if (v.game) html = `<a id="rematch-watch" href="#/game/${v.game}">Watch the rematch</a>`;
  else if (mine.length === 1) {
    const me = mine[0];
    if (v.offered[me]) html = '<span id="rematch-status">Rematch offered: waiting for your opponent.</span> <button type="button" data-rematch="cancel" aria-label="Cancel rematch">Cancel</button>';
    else if (v.offered[other(me)]) html = `<span id="rematch-status">Your opponent offers a rematch (you play ${cap(other(me))}).</span> <button type="button" class="primary" data-rematch="offer" aria-label="Accept rematch">Accept rematch</button> <button type="button" data-rematch="cancel" aria-label="Decline rematch">Decline</button>`;
    else html = `<button type="button" data-rematch="offer" aria-label="Rematch">Rematch</button> <span class="muted">(colours swapped: you play ${cap(other(me))})</span>`;
  } else if (v.offered.white || v.offered.black) {
    html = `<span id="rematch-status">${v.offered.white && v.offered.black ? 'Both' : cap(v.offered.white ? 'white' : 'black')} offer${v.offered.white && v.offered.black ? '' : 's'} a rematch.</span>`;
  }
  rematchLine.innerHTML = html;
}

rematchLine.addEventListener('click', async (ev) => {
  const b = /** @type {HTMLElement} */ (ev.target).closest(/** @type {'button'} */ ('button[data-rematch]'));
  const id = rematch.game;
  if (!b || id === null) return;
  try {
    if (b.dataset.rematch === 'offer') {
      const v = await call('POST', `/api/games/${id}/rematch`, {}, seatOf(id)?.token);
      if (v.game && v.seat) {
        keepSeat(v.game, { token: v.seat.token, sides: v.seat.sides, owner: false });
        clearTimeout(rematch.timer);
        rematch.game = null;
        location.hash = `#/game/${v.game}`;
        return;
      }
      renderRematch(id, v, online.sides(id) || []);
    } else {
      renderRematch(id, await call('DELETE', `/api/games/${id}/rematch`, undefined, seatOf(id)?.token), online.sides(id) || []);
    }
  } catch (e) {
    rematchLine.textContent = e.message;
  }
});

/** After each side panel drawn (online.js's hook). @param {any} s */
function onState(s) {
  watchRematch(s);
  claimSeat(s);
  const hide = playedOnline(s);
  // (by a class of the body: the review's own hook shows its button after this one)
  document.body.classList.toggle('fair-play', hide);
  if (served && s && !s.analysis && s.seated) loadRating(s, !!s.result);
  else ratingLine.textContent = '';
}

// ---------- a player's page ----------

const page = document.createElement('main');
page.id = 'player';
page.className = 'page hidden';
page.setAttribute('aria-label', 'Player');
$('#notfound')?.after(page);

/** Hides the player's page (another page is shown). */
export function endPlayer() { page.classList.add('hidden'); }

const W = 560;
const H = 160;

/** An SVG graph of a category's ratings over its games. */
function graph(points) {
  if (!points.length) return '';
  const rs = points.map((p) => p.rating);
  const lo = Math.min(...rs, 1500) - 50;
  const hi = Math.max(...rs, 1500) + 50;
  const all = [1500, ...rs];
  const x = (i) => 30 + (i * (W - 40)) / Math.max(1, all.length - 1);
  const y = (r) => 10 + ((hi - r) * (H - 30)) / (hi - lo);
  const line = all.map((r, i) => `${x(i).toFixed(1)},${y(r).toFixed(1)}`).join(' ');
  const dots = all.map((r, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(r).toFixed(1)}" r="3"><title>${i ? esc(points[i - 1].at) + ': ' : 'start: '}${Math.round(r)}</title></circle>`).join('');
  return `<svg class="rating-graph" viewBox="0 0 ${W} ${H}" role="img" aria-label="Rating over time">
    <text x="2" y="${y(hi - 50) + 4}">${Math.round(hi - 50)}</text><text x="2" y="${y(lo + 50) + 4}">${Math.round(lo + 50)}</text>
    <line x1="30" x2="${W - 10}" y1="${y(1500)}" y2="${y(1500)}" class="base"></line>
    <polyline points="${line}"></polyline>${dots}</svg>`;
}

/** Shows #/player/NAME. */
export async function openPlayer(name) {
  for (const p of ['home', 'play', 'notfound']) $(`#${p}`)?.classList.add('hidden');
  page.classList.remove('hidden');
  document.title = `${decodeURIComponent(name)} · chess5d`;
  page.innerHTML = '<section class="card"><p>Loading…</p></section>';
  let v;
  try { v = await call('GET', `/api/players/${name}`); } catch (e) {
    page.innerHTML = `<section class="card"><h2>No such player</h2><p>${esc(e.message)}</p><p><a href="#/">Back to the home page</a></p></section>`;
    return;
  }
  const cats = Object.entries(v.ratings);
  const ratingRows = cats.length
    ? cats.map(([c, r]) => `<tr><th>${esc(cap(c))}</th><td class="num" data-rating="${esc(c)}">${rated(r)}</td><td class="num">±${Math.round(r.rd)}</td><td class="num">${r.games}</td></tr>`).join('')
    : '<tr><td colspan="4">No rated game yet (a new player starts at 1500?).</td></tr>';
  const graphs = Object.entries(v.history).map(([c, pts]) => `<figure><figcaption>${esc(cap(c))}</figcaption>${graph(pts)}</figure>`).join('');
  const gameRow = (g) => `<tr>
      <td>${esc(g.date.slice(0, 16))}</td>
      <td><a href="#/game/${g.id}">${esc(g.opponent)}</a></td>
      <td>${esc(cap(g.color))}</td>
      <td>${esc(g.outcome === 'playing' ? 'playing' : `${g.outcome} (${g.result})`)}</td>
      <td>${g.rated ? esc(g.category) : 'casual'}</td>
      <td class="num">${g.change === null || g.change === undefined ? '' : signed(g.change)}</td></tr>`;
  const table = (rows, empty) => (rows.length
    ? `<table class="player-games"><thead><tr><th>Date</th><th>Opponent</th><th>Colour</th><th>Result</th><th>Kind</th><th>Change</th></tr></thead><tbody>${rows.map(gameRow).join('')}</tbody></table>`
    : `<p class="muted">${empty}</p>`);
  page.innerHTML = `<section class="card"><h2 id="player-name">${esc(v.name)}</h2>
      <table class="player-ratings"><thead><tr><th>Category</th><th>Rating</th><th>RD</th><th>Games</th></tr></thead><tbody>${ratingRows}</tbody></table>
      <p class="muted">A rating followed by ? is provisional (its deviation is over 110).</p>${graphs}</section>
    <section class="card"><h2>Playing now</h2>${table(v.ongoing, 'No game under way.')}</section>
    <section class="card"><h2>Games</h2>${table(v.games, 'No finished game yet.')}</section>`;
}

/** Starts playing people on the back-end door `door` (the router calls it after startOnline):
 * the home page's cards where it is the server, the game page's hook, who is logged in.
 * @param {import('./types/backend.js').Backend} door */
export function startPeople(door) {
  served = door.features.online;
  if (served) $('#lead')?.prepend(card);
  if (served) $('#lead')?.before(turnCard);
  online.addStateHook(onState);
  whoAmI();
}
