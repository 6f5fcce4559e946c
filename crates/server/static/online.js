// chess5d online play: seats kept in this browser, invite and spectator links, the lobby of
// open challenges, "your games", draw offers and abort. app.js calls the hooks of
// window.chess5dOnline: headers() for every API request, seen() with every answer, mayMove()
// before a piece is picked, onState() after the side panel is drawn, wsOpen() when the game's
// WebSocket opens. Loaded before app.js (both deferred), so an invite link is taken in first.
'use strict';

(() => {
  const $ = (s) => document.querySelector(s);
  const SEATS = 'chess5d.seats';           // { gameId: { token, sides: ['white'], owner } }
  const INVITES = 'chess5d.invites';       // { gameId: { token, side } }
  const CHALLENGES = 'chess5d.challenges'; // { challengeId: token }
  const load = (k) => { try { return JSON.parse(localStorage.getItem(k) || '{}') || {}; } catch { return {}; } };
  const save = (k, v) => localStorage.setItem(k, JSON.stringify(v));
  const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);
  const seatOf = (id) => load(SEATS)[id] || null;
  const keepSeat = (id, seat) => { const all = load(SEATS); all[id] = seat; save(SEATS, all); };
  let info = null;

  // An invite link: #/game/ID/join/SIDES/TOKEN (SIDES: white, black or white+black, for a
  // creator taking their seat to another browser). The token leaves the address bar (and the
  // history) at once, before app.js routes (this listener is registered first); then the
  // server says what it holds: an invite is claimed by this browser (which gets a token of its
  // own), a seat's own token is kept, and a link that opens nothing is refused in plain words
  // (app.js waits for the answer before it shows the game).
  let joinNotice = null; // { id, text, error }
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
    online.joining = call('POST', `/api/games/${id}/join`, {}, token).then((v) => {
      keepSeat(id, { token: v.seat.token, sides: v.seat.sides, owner: v.seat.owner });
      const sides = v.seat.sides.map(cap).join(' and ');
      joinNotice = { id, error: false, text: v.joined ? `You joined game ${id}: you play ${sides}.` : `Your seat: you play ${sides}.` };
    }, (e) => {
      joinNotice = { id, error: true, text: `${cap(e.message)}` };
    });
  }

  async function call(method, url, body, token) {
    const headers = { 'Content-Type': 'application/json' };
    if (token) headers['X-Chess5d-Seat'] = token;
    const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
    return data;
  }

  function gameIdOf(url) {
    const g = String(url).match(/^\/api\/games\/(\d+)/);
    return g ? g[1] : null;
  }

  const online = {
    /** The answer to an invite link being opened (app.js awaits it before showing the game). */
    joining: null,
    /** Headers for an API request: the seat token of the game it is about. */
    headers(url, method) {
      const id = gameIdOf(url);
      if (id && seatOf(id)) return { 'X-Chess5d-Seat': seatOf(id).token };
      const c = String(url).match(/^\/api\/challenges\/(\d+)$/);
      if (c && method === 'DELETE' && load(CHALLENGES)[c[1]]) return { 'X-Chess5d-Seat': load(CHALLENGES)[c[1]] };
      return {};
    },
    /** Every API answer: a new game's seat and invite are kept. */
    seen(url, method, data) {
      if (!data || method !== 'POST' || !data.seat || data.id == null) return;
      keepSeat(data.id, { token: data.seat.token, sides: data.seat.sides, owner: data.seat.owner });
      if (data.invite) { const all = load(INVITES); all[data.id] = data.invite; save(INVITES, all); }
    },
    /** Whether this browser may move for the side to move. */
    mayMove(s) {
      if (s.analysis) return true; // an analysis board is the viewer's own scratch position
      const seat = seatOf(s.id);
      if (!seat) return !s.seated && !(info && info.public);
      return seat.sides.includes(s.to_move);
    },
    wsOpen(ws, id) {
      const seat = seatOf(id);
      if (seat) ws.send(JSON.stringify({ seat: seat.token }));
    },
    onState(s) { renderPanel(s); },
    /** The sides this browser's seat holds in game `id` (null without a seat). */
    sides(id) { return seatOf(id)?.sides ?? null; },
  };
  window.chess5dOnline = online;
  takeInvite();
  window.addEventListener('hashchange', takeInvite);

  // ---------- the game page: who you are, links, draw offers, abort ----------

  function linkTo(hash) { return `${location.origin}${location.pathname}${hash}`; }

  function panel() {
    let p = $('#online-panel');
    if (!p) {
      p = document.createElement('div');
      p.id = 'online-panel';
      p.setAttribute('aria-label', 'Online play');
      $('#actions').after(p);
      p.addEventListener('click', onPanelClick);
    }
    return p;
  }

  function renderPanel(s) {
    const p = panel();
    if (s.termination === 'aborted') $('#gameover').textContent = 'Game aborted: no result.';
    const seat = seatOf(s.id);
    const mine = seat ? seat.sides : (!s.seated && !(info && info.public) ? ['white', 'black'] : []);
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
      const dot = (side) => (s.players[side].engine
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
    parts.push(`<label class="link-line">Spectators <input id="spectator-link" readonly value="${esc(linkTo(`#/game/${s.id}`))}" aria-label="Spectator link"></label>
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
    p.innerHTML = parts.join('');
    p.dataset.game = s.id;
  }

  async function onPanelClick(ev) {
    const b = ev.target.closest('button');
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

  // ---------- the home page: play a friend, the lobby, your games ----------

  function variantOptions() {
    return (info?.variants || []).map((v) => `<option value="${esc(v.name)}">${esc(v.name)} (${esc(v.size)})</option>`).join('');
  }

  function clockOf(prefix) {
    const min = Number($(`#${prefix}-minutes`).value);
    if (!min) return undefined;
    return { initial_ms: Math.round(min * 60000), increment_ms: Math.round(Number($(`#${prefix}-inc`).value || 0) * 1000) };
  }

  function homeCards() {
    if ($('#friend-card')) return;
    const home = $('#home');
    const friend = document.createElement('section');
    friend.className = 'card';
    friend.id = 'friend-card';
    friend.innerHTML = `<h2>Play a friend online</h2>
      <form id="friend-form">
        <label>Variant <select id="fr-variant" aria-label="Friend game variant">${variantOptions()}</select></label>
        <label>You play <select id="fr-side" aria-label="Your side"><option value="white">White</option><option value="black">Black</option></select></label>
        <label>Clock minutes (0: none) <input id="fr-minutes" type="number" min="0" max="600" value="0"></label>
        <label>+ seconds <input id="fr-inc" type="number" min="0" max="600" value="0"></label>
        <details><summary>Start from a position</summary>
          <textarea id="fr-import" rows="4" cols="50" aria-label="Friend game position" spellcheck="false" placeholder="5DPGN or 5DFEN (optional)"></textarea></details>
        <button type="submit" aria-label="Create invite">Create invite</button>
      </form>`;
    const lobby = document.createElement('section');
    lobby.className = 'card';
    lobby.id = 'lobby-card';
    lobby.innerHTML = `<h2>Lobby</h2>
      <form id="challenge-form">
        <label>Variant <select id="ch-variant" aria-label="Challenge variant">${variantOptions()}</select></label>
        <label>Colour <select id="ch-color" aria-label="Challenge colour"><option value="random">Random</option><option value="white">White</option><option value="black">Black</option></select></label>
        <label>Clock minutes (0: none) <input id="ch-minutes" type="number" min="0" max="600" value="10"></label>
        <label>+ seconds <input id="ch-inc" type="number" min="0" max="600" value="5"></label>
        <label>Your name <input id="ch-name" maxlength="60" aria-label="Your name"></label>
        <button type="submit" aria-label="Post challenge">Post challenge</button>
      </form>
      <p id="challenge-wait" class="hidden" role="status"></p>
      <table id="lobby-table"><thead><tr><th>#</th><th>By</th><th>Variant</th><th>Clock</th><th>Their colour</th><th></th></tr></thead><tbody></tbody></table>`;
    const mine = document.createElement('section');
    mine.className = 'card';
    mine.id = 'my-games-card';
    mine.innerHTML = `<h2>Your games</h2>
      <table id="my-games-table"><thead><tr><th>#</th><th>You</th><th>White</th><th>Black</th><th>Variant</th><th>Result</th><th></th></tr></thead><tbody></tbody></table>`;
    home.append(friend, lobby, mine);
    $('#friend-form').addEventListener('submit', createFriendGame);
    $('#challenge-form').addEventListener('submit', postChallenge);
    $('#lobby-table').addEventListener('click', acceptChallenge);
    $('#my-games-table').addEventListener('click', (ev) => {
      const b = ev.target.closest('button[data-open]');
      if (b) location.hash = `#/game/${b.dataset.open}`;
    });
  }

  async function createFriendGame(ev) {
    ev.preventDefault();
    const text = $('#fr-import').value.trim();
    const body = { white: { type: 'human' }, black: { type: 'human' }, seat: $('#fr-side').value };
    if (text) body.import = text; else body.variant = $('#fr-variant').value;
    const clock = clockOf('fr');
    if (clock) body.clock = clock;
    try {
      const g = await call('POST', '/api/games', body);
      online.seen('/api/games', 'POST', g);
      location.hash = `#/game/${g.id}`;
    } catch (e) { alert(e.message); }
  }

  const fmtClock = (c) => (c ? `${Math.round(c.initial_ms / 60000)}+${Math.round(c.increment_ms / 1000)}` : '—');

  async function refreshLobby() {
    if (!$('#lobby-table') || $('#home').classList.contains('hidden')) return;
    const { challenges } = await call('GET', '/api/challenges');
    const own = load(CHALLENGES);
    $('#lobby-table tbody').innerHTML = challenges.map((c) => `<tr data-challenge="${c.id}">
      <td>${c.id}</td><td>${esc(c.name || 'Anonymous')}</td><td>${esc(c.variant)}</td><td>${fmtClock(c.clock)}</td><td>${esc(c.color)}</td>
      <td>${own[c.id] ? `<button type="button" data-cancel="${c.id}" aria-label="Cancel challenge ${c.id}">Cancel</button>`
        : `<button type="button" data-accept="${c.id}" aria-label="Accept challenge ${c.id}">Accept</button>`}</td></tr>`).join('')
      || '<tr><td colspan="6">No open challenges.</td></tr>';
  }

  async function refreshMine() {
    if (!$('#my-games-table')) return;
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
    const clock = clockOf('ch');
    if (clock) body.clock = clock;
    const name = $('#ch-name').value.trim();
    if (name) body.name = name;
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
    if (wait) {
      const n = Object.keys(load(CHALLENGES)).length;
      wait.classList.toggle('hidden', n === 0);
      wait.textContent = n ? 'Waiting for someone to accept your challenge…' : '';
    }
  }

  async function home() {
    if ($('#home').classList.contains('hidden')) return;
    if (!info) info = await call('GET', '/api/info');
    homeCards();
    await Promise.all([refreshLobby(), refreshMine()]);
  }

  async function tick() {
    try {
      if (!info) info = await call('GET', '/api/info');
      await watchChallenges();
      if (!$('#home').classList.contains('hidden')) { homeCards(); await refreshLobby(); }
    } catch (e) { console.warn(e); }
  }

  window.addEventListener('hashchange', () => setTimeout(() => home().catch((e) => console.warn(e)), 0));
  window.addEventListener('DOMContentLoaded', () => { home().catch((e) => console.warn(e)); });
  setInterval(tick, 1500);
})();
