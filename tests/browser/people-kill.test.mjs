// A rated game's end and a kill -9 (issue 47), over HTTP against a real server process: two
// accounts pair on 5+3 rated and play an action each; Black resigns while the server is killed
// with SIGKILL at that moment (the request in flight, several timings). After a restart on the
// same database the game is over with both ratings changed exactly once, or (killed before the
// resignation was stored) still going with no change: never a result without its rating change,
// never a change twice. A last resignation after the restart rates the game once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, freshDb } from './helpers.mjs';

async function api(base, method, path, body, headers = {}) {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const cookie = (r.headers.getSetCookie?.() || []).find((c) => c.startsWith('chess5d_session='));
  return { status: r.status, body: await r.json().catch(() => null), cookie: cookie?.split(';')[0] };
}

async function account(base, name) {
  const r = await api(base, 'POST', '/api/account', { name, password: `${name} password` });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return { cookie: r.cookie };
}

async function pairAndPlay(base, a, b) {
  const body = { clock: '5+3', variant: 'Standard', rated: true };
  assert.equal((await api(base, 'POST', '/api/pairing', body, a)).body.waiting, true);
  const gb = (await api(base, 'POST', '/api/pairing', body, b)).body.game;
  const ga = (await api(base, 'GET', '/api/pairing', null, a)).body.game;
  assert.equal(ga.id, gb.id);
  const [w, bl] = ga.seat.side === 'white' ? [ga, gb] : [gb, ga];
  for (const [s, m] of [[w, '(0T1)e2(0T1)e4'], [bl, '(0T1)e7(0T1)e5']]) {
    const h = { 'X-Chess5d-Seat': s.seat.token };
    assert.equal((await api(base, 'POST', `/api/games/${ga.id}/move`, { move: m }, h)).status, 200);
    assert.equal((await api(base, 'POST', `/api/games/${ga.id}/submit`, {}, h)).status, 200);
  }
  return { id: ga.id, black: bl.seat.token };
}

test('kill -9 as a rated game ends: after the restart the result and the rating change come together, once', { skip: process.env.SITE === 'static' }, async () => {
  const db = freshDb();
  let server = await startServer(db);
  const games = [];
  for (const [i, delay] of [0, 1, 3, 10].entries()) {
    const a = await account(server.url, `ka${i}`);
    const b = await account(server.url, `kb${i}`);
    const g = await pairAndPlay(server.url, a, b);
    games.push(g);
    // Black resigns; the server is killed at that moment.
    const resign = api(server.url, 'POST', `/api/games/${g.id}/resign`, {}, { 'X-Chess5d-Seat': g.black }).catch(() => null);
    await new Promise((r) => setTimeout(r, delay));
    const gone = new Promise((r) => server.proc.once('exit', r));
    server.proc.kill('SIGKILL');
    await gone;
    await resign;
    server = await startServer(db);
    const base = server.url;
    const state = (await api(base, 'GET', `/api/games/${g.id}`)).body;
    const rating = (await api(base, 'GET', `/api/games/${g.id}/rating`)).body;
    const pa = (await api(base, 'GET', `/api/players/ka${i}`)).body;
    const pb = (await api(base, 'GET', `/api/players/kb${i}`)).body;
    if (state.result) {
      assert.equal(state.result, '1-0');
      assert.equal(rating.white.change, 162, JSON.stringify(rating));
      assert.equal(rating.black.change, -162, JSON.stringify(rating));
      for (const p of [pa, pb]) assert.equal(p.ratings.blitz.games, 1, JSON.stringify(p));
    } else {
      assert.equal(rating.white.change, null, JSON.stringify(rating));
      for (const p of [pa, pb]) assert.equal(p.ratings.blitz, undefined, JSON.stringify(p));
      // The game goes on after the restart; Black resigns now: rated once.
      const r = await api(base, 'POST', `/api/games/${g.id}/resign`, {}, { 'X-Chess5d-Seat': g.black });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const again = (await api(base, 'GET', `/api/games/${g.id}/rating`)).body;
      assert.equal(again.white.change, 162, JSON.stringify(again));
    }
  }
  await server.stop();
});
