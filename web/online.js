// Beneath the ui/ layers, with backend/ (it imports only backend/). chess5d online play on the
// game page: seats kept in this browser, invite links (taken in when opened), the spectator
// link, presence, draw offers and abort. The page calls the hooks of
// `online` (also window.chess5dOnline, for scripts): headers() for every API request, seen() with
// every answer, mayMove() before a piece is picked, onState() after the side panel is drawn,
// wsOpen(send, id) when the game's live connection opens, sides(id), joining. app.js starts this
// module first (startOnline), so an invite link is taken in before the page routes. The home page's online
// cards (play a friend, the lobby, your games) are ui/lobby.js.
import { callOf } from './backend/calls.js';

/** The back-end door, passed in by the router (startOnline). @type {import('./types/backend.js').Backend} */
let backend;

import { $, esc, cap } from './ui/dom.js';

/** A seat of this browser in a game: its token, the sides it plays, whether it made the game. */
/** @typedef {{token: string, sides: string[], owner?: boolean}} Seat */

export { esc, cap };
export const SEATS = 'chess5d.seats';           // { gameId: { token, sides: ['white'], owner } }
export const INVITES = 'chess5d.invites';       // { gameId: { token, side } }
export const CHALLENGES = 'chess5d.challenges'; // { challengeId: token }
/** A record kept in this browser (SEATS, INVITES, CHALLENGES) by key. @param {string} k @returns {Record<string, any>} */
export const load = (k) => { try { return JSON.parse(localStorage.getItem(k) || '{}') || {}; } catch { return {}; } };
/** @param {string} k @param {Record<string, any>} v */
export const save = (k, v) => localStorage.setItem(k, JSON.stringify(v));
/** This browser's seat in game `id`, or null. @param {string | number} id @returns {Seat | null} */
export const seatOf = (id) => load(SEATS)[id] || null;
/** @param {string | number} id @param {Seat} seat */
export const keepSeat = (id, seat) => { const all = load(SEATS); all[id] = seat; save(SEATS, all); };
/** The server's /api/info, once read (ui/lobby.js reads it too; only loadShared writes it). */
/** @type {{info: any}} */
export const shared = { info: null };
/** Reads the server's /api/info into `shared`, once. */
export async function loadShared() {
  if (!shared.info) shared.info = await call('GET', '/api/info');
}

// An invite link: #/game/ID/join/SIDES/TOKEN (SIDES: white, black or white+black, for a
// creator taking their seat to another browser). The token leaves the address bar (and the
// history) at once, before app.js routes (this listener is registered first); then the
// server says what it holds: an invite is claimed by this browser (which gets a token of its
// own), a seat's own token is kept, and a link that opens nothing is refused in plain words
// (app.js waits for the answer before it shows the game).
/** The answer to the invite link taken in, for its game's page. @type {{id: string, text: string, error: boolean} | null} */
let joinNotice = null;
function takeInvite() {
  const m = location.hash.match(/^#\/game\/(\d+)\/join\/([^/]*)\/?(.*)$/);
  if (!m) return;
  const [, id, , token] = m;
  history.replaceState(null, '', `#/game/${id}`);
  if (!/^[0-9a-f]{32}$/.test(token)) {
    joinNotice = { id, error: true, text: 'This invite link is not valid: its code is cut short or changed (a code is 32 letters and digits). Ask for the link again; meanwhile you can watch the game.' };
    online.joining = null;
    return;
  }
  online.joining = call('POST', `/api/games/${id}/join`, {}, token).then(async (v) => {
    keepSeat(id, { token: v.seat.token, sides: v.seat.sides, owner: v.seat.owner });
    // The player an invite just seated is asked their name (sent with their own seat's token).
    if (v.joined) await call('POST', `/api/games/${id}/join`, { name: await askName(v) }, v.seat.token).catch(() => {});
    const sides = v.seat.sides.map(cap).join(' and ');
    joinNotice = { id, error: false, text: v.joined ? `You joined game ${id}: you play ${sides}.` : `Your seat: you play ${sides}.` };
  }, (e) => {
    joinNotice = { id, error: true, text: `${cap(e.message)}` };
  });
}

// The player's name, remembered in this browser (the invite form of ui/lobby.js fills it in too).
export const NAME_KEY = 'chess5d.name';
export function rememberedName() { try { return localStorage.getItem(NAME_KEY) ?? ''; } catch { return ''; } }
/** @param {string} name */
export function rememberName(name) {
  try { if (name) localStorage.setItem(NAME_KEY, name); else localStorage.removeItem(NAME_KEY); } catch { /* private mode */ }
}

/** What an invite is, in words: who invites you, the side you play, the variant, the clock
 * (which waits for each side's first action) and casual (an invite is never rated). */
/** @param {any} v the join answer (its seat, players, variant, clock) */
export function inviteText(v) {
  const side = v.seat.sides[0] || 'white';
  const other = side === 'white' ? 'black' : 'white';
  const who = v.players?.[other]?.config?.name || v.players?.[other]?.display || 'Someone';
  const c = v.clock;
  const clock = c ? `${c.initial_ms / 60000}+${c.increment_ms / 1000} (each clock starts with that side's first move)` : 'no clock';
  return `${who} invites you to play ${cap(side)} · ${v.variant} · ${clock} · casual.`;
}

/** Asks the player opening an invite link for their name (the players' bar shows it to both
 * sides and spectators), saying what the invite is: resolves to the name, or 'Guest' when none
 * is given. */
/** @param {any} v the join answer @returns {Promise<string>} */
function askName(v) {
  const d = $('#join-dialog');
  let what = $('#join-what');
  if (!what) {
    what = document.createElement('p');
    what.id = 'join-what';
    $('#join-form h2').after(what);
  }
  what.textContent = v ? inviteText(v) : '';
  $('#join-name').value = rememberedName();
  return new Promise((resolve) => {
    d.addEventListener('close', () => {
      const name = $('#join-name').value.trim();
      if (name) rememberName(name);
      resolve(name || 'Guest');
    }, { once: true });
    d.showModal();
    $('#join-name').focus();
  });
}
$('#join-form').addEventListener('submit', (/** @type {SubmitEvent} */ ev) => { ev.preventDefault(); $('#join-dialog').close(); });

/** An API call through the back-end, acting for the seat `token` if given. Most of these
 * (seats, invites, the lobby) are the server's alone; on a back-end without URLs (the static
 * site) a URL of a call both doors answer goes as that call (backend/calls.js). */
/** @param {string} method @param {string} url @param {any} [body] @param {string} [token] @returns {Promise<any>} */
export async function call(method, url, body, token) {
  /** @type {Record<string, string>} */
  const headers = token ? { 'X-Chess5d-Seat': token } : {};
  if (backend.request) return backend.request(method, url, body, headers);
  const c = callOf(method, url, body);
  if (!c) throw Object.assign(new Error(`not in this build: ${method} ${url.split('?')[0]}`), { kind: 'not_found', code: 'no_request', status: 404 });
  return backend.call(c.name, c.args, headers);
}

/** The tokens of this page's analysis boards, by board id (in memory: a board ends with its page). */
const boardTokens = new Map();

/** @param {string} url */
function gameIdOf(url) {
  const g = String(url).match(/^\/api\/games\/(\d+)/);
  return g ? g[1] : null;
}

/** @type {((s: any) => void)[]} */
const stateHooks = [];

export const online = {
  /** The answer to an invite link being opened (app.js awaits it before showing the game). */
  /** @type {Promise<void> | null} */
  joining: null,
  /** The answer to an invite link being opened, once (the game page awaits it), or null. */
  takeJoining() {
    const j = online.joining;
    online.joining = null;
    return j;
  },
  /** Headers for an API request: the seat token of the game it is about. */
  /** @param {string} url @param {string} method @returns {Record<string, string>} */
  headers(url, method) {
    // An analysis board is its maker's: its token (from its creation answer) goes with every
    // request on it.
    const b = String(url).match(/^\/api\/analysis\/(\d+)/);
    if (b && boardTokens.has(b[1])) return { 'X-Chess5d-Seat': boardTokens.get(b[1]) };
    const id = gameIdOf(url);
    const seat = id ? seatOf(id) : null;
    if (seat) return { 'X-Chess5d-Seat': seat.token };
    const c = String(url).match(/^\/api\/challenges\/(\d+)$/);
    if (c && method === 'DELETE' && load(CHALLENGES)[c[1]]) return { 'X-Chess5d-Seat': load(CHALLENGES)[c[1]] };
    return {};
  },
  /** Every API answer: a new game's seat and invite are kept. */
  /** @param {string} url @param {string} method @param {any} data */
  seen(url, method, data) {
    if (data && data.analysis && data.analysis.token) boardTokens.set(String(data.analysis.id), data.analysis.token);
    if (!data || method !== 'POST' || !data.seat || data.id == null) return;
    keepSeat(data.id, { token: data.seat.token, sides: data.seat.sides, owner: data.seat.owner });
    if (data.invite) { const all = load(INVITES); all[data.id] = data.invite; save(INVITES, all); }
  },
  /** Whether this browser may move for the side to move. */
  /** @param {any} s a game state */
  mayMove(s) {
    if (s.analysis) return true; // an analysis board is the viewer's own scratch position
    const seat = seatOf(s.id);
    if (!seat) return !s.seated && !(shared.info && shared.info.public);
    return seat.sides.includes(s.to_move);
  },
  /** The game's live connection opened: say which seat is connected (send writes to it). */
  /** @param {(message: object) => void} send @param {string} id */
  wsOpen(send, id) {
    const seat = seatOf(id);
    if (seat) send({ seat: seat.token });
  },
  /** After each side panel drawn: this module's panel, then the hooks added (addStateHook). */
  /** @param {any} s */
  onState(s) { renderPanel(s); for (const h of stateHooks) h(s); },
  /** Adds a call after each side panel drawn (people.js: fair play, ratings, rematch). */
  /** @param {(s: any) => void} h */
  addStateHook(h) { stateHooks.push(h); },
  /** The sides this browser's seat holds in game `id` (null without a seat). */
  /** @param {string} id */
  sides(id) { return seatOf(id)?.sides ?? null; },
};

/** Starts online play on the back-end door `door` (the router calls it first, so an invite link
 * is taken in before the page routes): its hooks are `online`. */
/** @param {import('./types/backend.js').Backend} door */
export function startOnline(door) {
  backend = door;
  window.chess5dOnline = online;
  takeInvite();
  window.addEventListener('hashchange', takeInvite);
  return online;
}

// ---------- the game page: who you are, links, draw offers, abort ----------

/** @param {string} hash */
function linkTo(hash) { return `${location.origin}${location.pathname}${hash}`; }

function panel() {
  let p = $('#online-panel');
  if (!p) {
    p = document.createElement('div');
    p.id = 'online-panel';
    p.setAttribute('role', 'group');
    p.setAttribute('aria-label', 'Online play');
    $('#actions').after(p);
    p.addEventListener('click', onPanelClick);
  }
  return p;
}

/** The markup each panel shows now. @type {WeakMap<Element, string>} */
const panelHtml = new WeakMap();

/** The game page's online panel for state `s`. @param {any} s */
function renderPanel(s) {
  const p = panel();
  if (s.termination === 'aborted') $('#gameover').textContent = 'Game aborted: no result.';
  const seat = seatOf(s.id);
  const mine = seat ? seat.sides : (!s.seated && !(shared.info && shared.info.public) ? ['white', 'black'] : []);
  const spectator = mine.length === 0;
  document.body.classList.toggle('spectating', spectator);
  // A spectator (or a player whose side is not to move) cannot act on the position.
  const live = !s.result;
  if (spectator) {
    for (const b of ['#btn-submit', '#btn-undo', '#btn-resign', '#btn-retry']) { const e = $(b); if (e) e.disabled = true; }
  } else if (!mine.includes(s.to_move)) {
    for (const b of ['#btn-submit', '#btn-undo']) { const e = $(b); if (e) e.disabled = true; }
  }
  const parts = [];
  if (joinNotice && String(joinNotice.id) === String(s.id)) {
    parts.push(`<p id="join-notice" class="join-notice ${joinNotice.error ? 'error' : ''}" role="${joinNotice.error ? 'alert' : 'status'}">${esc(joinNotice.text)}</p>`);
  }
  if (spectator) parts.push('<p id="seat-line" class="seat-line">Spectating: you see every action live.</p>');
  else if (s.seated && mine.length === 1) parts.push(`<p id="seat-line" class="seat-line">You play ${esc(cap(mine[0]))}.</p>`);
  if (s.seated) {
    // A light for people; an engine is neither connected nor away.
    const dot = (/** @type {string} */ side) => (s.players[side].engine
      ? `<span class="presence engine" data-presence="${side}">${cap(side)}: engine</span>`
      : `<span class="presence ${s.online[side] ? 'on' : 'off'}" data-presence="${side}">${cap(side)} ${s.online[side] ? 'connected' : 'away'}</span>`);
    parts.push(`<p class="presence-line">${dot('white')} ${dot('black')}</p>`);
  }
  const inv = load(INVITES)[s.id];
  const open = s.invites_open || [];
  if (inv && !spectator && live && open.includes(inv.side)) {
    const url = linkTo(`#/game/${s.id}/join/${inv.side}/${inv.token}`);
    parts.push(`<label class="link-line">Invite (plays ${esc(inv.side)}) <input id="invite-link" readonly value="${esc(url)}" aria-label="Invite link"></label>
      <button type="button" data-copy="#invite-link" aria-label="Copy invite link">Copy</button>`);
  } else if (inv && !spectator && live && seat?.owner) {
    // Taken: the link seats nobody else. The creator can hand the seat out again.
    parts.push(`<p id="invite-used" class="seat-line">${esc(cap(inv.side))} joined through your invite link, which now seats nobody else.
      <button type="button" data-new-invite="1" aria-label="New invite link">New invite link</button></p>`);
  }
  // (A game in this browser only, on the static site: nobody else can watch it.)
  if (backend.features.online) parts.push(`<label class="link-line">Spectators <input id="spectator-link" readonly value="${esc(linkTo(`#/game/${s.id}`))}" aria-label="Spectator link"></label>
    <button type="button" data-copy="#spectator-link" aria-label="Copy spectator link">Copy</button>`);
  // Draw offers, for everyone watching too; a declined offer is told to the side that made it.
  if (live && spectator && s.draw_offer) parts.push(`<p id="draw-offered" class="seat-line">${esc(cap(s.draw_offer))} offers a draw.</p>`);
  if (live && s.draw_declined && !s.draw_offer && (spectator ? false : mine.includes(s.draw_declined))) {
    parts.push(`<p id="draw-declined" class="seat-line">Your draw offer was declined.</p>`);
  } else if (live && s.draw_declined && !s.draw_offer && spectator) {
    parts.push(`<p id="draw-declined" class="seat-line">${esc(cap(s.draw_declined))}'s draw offer was declined.</p>`);
  }
  if (!spectator && live) {
    const humanOther = mine.length === 1 && !s.players[mine[0] === 'white' ? 'black' : 'white'].engine;
    const me = mine.length === 1 ? mine[0] : s.to_move;
    const buttons = [];
    if (s.draw_offer && s.draw_offer !== me) {
      buttons.push('<span id="draw-offered">Your opponent offers a draw.</span>');
      buttons.push('<button type="button" data-draw="accept" aria-label="Accept draw">Accept draw</button>');
      buttons.push('<button type="button" data-draw="decline" aria-label="Decline draw">Decline</button>');
    } else if (s.draw_offer === me) {
      buttons.push('<span id="draw-offered">Draw offered.</span>');
    } else if (humanOther) {
      buttons.push('<button type="button" data-draw="offer" aria-label="Offer draw">Offer draw</button>');
    }
    const abortable = s.action_count < 2;
    if (abortable) buttons.push('<button type="button" data-abort="1" aria-label="Abort">Abort</button>');
    if (buttons.length) parts.push(`<div class="online-actions">${buttons.join(' ')}</div>`);
  }
  p.dataset.game = s.id;
  const html = parts.join('');
  // Every state update renders the panel; only a change rewrites it, and the focus stays on the
  // same control, so that a keyboard user tabbing through the panel keeps their place.
  if (panelHtml.get(p) === html) return;
  panelHtml.set(p, html);
  const focused = document.activeElement;
  const key = focused && p.contains(focused) ? (focused.id ? `#${focused.id}` : focused.getAttribute('aria-label')) : null;
  p.innerHTML = html;
  if (key) {
    const again = key.startsWith('#') ? p.querySelector(key) : [...p.querySelectorAll('[aria-label]')].find((e) => e.getAttribute('aria-label') === key);
    if (again instanceof HTMLElement) again.focus();
  }
}

/** @param {MouseEvent} ev */
async function onPanelClick(ev) {
  const b = /** @type {Element} */ (ev.target).closest('button');
  if (!b) return;
  const id = panel().dataset.game;
  const token = seatOf(id)?.token;
  try {
    if (b.dataset.copy) {
      const input = $(b.dataset.copy);
      try { await navigator.clipboard.writeText(input.value); } catch { input.select(); document.execCommand('copy'); }
      b.textContent = 'Copied';
      setTimeout(() => { b.textContent = 'Copy'; }, 1200);
    } else if (b.dataset.draw) {
      await call('POST', `/api/games/${id}/draw`, { action: b.dataset.draw }, token);
    } else if (b.dataset.newInvite) {
      if (!confirm('A new invite link takes the seat from whoever joined through the old one. Make it?')) return;
      const v = await call('POST', `/api/games/${id}/invite`, {}, token);
      const all = load(INVITES); all[id] = v.invite; save(INVITES, all);
      renderPanel(v);
    } else if (b.dataset.abort) {
      if (confirm('Abort this game?')) await call('POST', `/api/games/${id}/abort`, {}, token);
    }
  } catch (e) {
    const err = $('#error');
    err.textContent = e.message;
    err.classList.remove('hidden');
  }
}
