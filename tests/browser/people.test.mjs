// Playing people (issue 47), served only: two accounts in two browser contexts and a spectator in
// a third. Both sign up in the page, pair on 5+3 rated by quick pairing (both pages open the game
// at once), play scholar's mate by clicks (White mates on the fourth action); during the game the
// Analyse and review buttons are absent for all three and the API refuses an analysis board and a
// review; after the mate both ratings change as
// an independent Glicko-2 (below, written from Glickman's paper) computes; after the end the
// analysis board and the review open; the players' pages show the game and the graph; screenshots
// at 1280x800 and 390x844.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, startServer, freshDb, board, move, submit, SHOTS } from './helpers.mjs';

let server = null, BASE = process.env.BASE_URL;
const browsers = [];
const servers = [];

before(async () => {
  if (process.env.SITE === 'static') return;
  if (!BASE) {
    server = await startServer(freshDb());
    BASE = server.url;
  }
});

after(async () => {
  for (const b of browsers) await b.ctx.close();
  if (server) await server.stop();
  for (const s of servers) await s.stop();
});

async function open(url, options) {
  const b = await launch(options);
  browsers.push(b);
  await b.page.goto(url);
  return b;
}

/** Glicko-2, one game as its own rating period (τ = 0.75), for checking the server's. */
function glicko2(me, opp, s, tau = 0.75) {
  const K = 173.7178;
  const mu = (me.r - 1500) / K, phi = me.rd / K, sigma = me.vol;
  const muj = (opp.r - 1500) / K, phij = opp.rd / K;
  const g = 1 / Math.sqrt(1 + 3 * phij * phij / (Math.PI * Math.PI));
  const E = 1 / (1 + Math.exp(-g * (mu - muj)));
  const v = 1 / (g * g * E * (1 - E));
  const delta = v * g * (s - E);
  const a = Math.log(sigma * sigma);
  const f = (x) => Math.exp(x) * (delta * delta - phi * phi - v - Math.exp(x)) / (2 * (phi * phi + v + Math.exp(x)) ** 2) - (x - a) / (tau * tau);
  let A = a, B;
  if (delta * delta > phi * phi + v) B = Math.log(delta * delta - phi * phi - v);
  else { let k = 1; while (f(a - k * tau) < 0) k++; B = a - k * tau; }
  let fA = f(A), fB = f(B);
  while (Math.abs(B - A) > 1e-6) {
    const C = A + (A - B) * fA / (fB - fA), fC = f(C);
    if (fC * fB <= 0) { A = B; fA = fB; } else fA /= 2;
    B = C; fB = fC;
  }
  const sig2 = Math.exp(A / 2);
  const phiStar = Math.sqrt(phi * phi + sig2 * sig2);
  const phi2 = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  return { r: K * (mu + phi2 * phi2 * g * (s - E)) + 1500, rd: K * phi2, vol: sig2 };
}

async function signUp(page, name) {
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Password', { exact: true }).fill(`${name}-secret-pass`);
  await page.locator('#acc-submit').click();
  await page.locator('#acc-me').filter({ hasText: name }).waitFor();
}

test('two accounts pair on 5+3 rated, play to mate, and both ratings change by Glicko-2', { skip: process.env.SITE === 'static' }, async () => {
  const a = await open(BASE);
  const b = await open(BASE, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await signUp(a.page, 'Ann');
  await signUp(b.page, 'Ben');
  await a.page.screenshot({ path: join(SHOTS, 'people-home-1280.png') });
  await b.page.screenshot({ path: join(SHOTS, 'people-home-390.png') });

  // Quick pairing 5+3 rated in both; both pages open the game at once.
  for (const { page } of [a, b]) {
    await page.locator('#qp-clock').selectOption('5+3');
    await page.locator('#qp-rated').check();
    await page.locator('#qp-start').click();
  }
  await a.page.waitForURL(/#\/game\/\d+$/, { timeout: 10000 });
  await b.page.waitForURL(/#\/game\/\d+$/, { timeout: 10000 });
  const id = Number(a.page.url().match(/#\/game\/(\d+)/)[1]);
  assert.equal(Number(b.page.url().match(/#\/game\/(\d+)/)[1]), id);
  const spectator = await open(`${BASE}#/game/${id}`);
  const sides = await Promise.all([a, b].map(({ page }) => page.evaluate((g) => window.chess5dOnline.sides(g), id)));
  const [white, black] = sides[0][0] === 'white' ? [a, b] : [b, a];
  assert.deepEqual(sides.map((s) => s[0]).sort(), ['black', 'white']);
  await a.page.locator('#rating-line').filter({ hasText: 'Rated blitz' }).waitFor();

  // Fair play: no Analyse, no computer review for the seats and the spectator; the API says no.
  for (const { page } of [a, b, spectator]) {
    await board(page, [0, 1, 'white']).waitFor();
    await page.waitForFunction(() => document.body.classList.contains('fair-play'));
    assert.equal(await page.locator('#btn-analyse').isVisible(), false);
    assert.equal(await page.locator('#btn-computer-review').isVisible(), false);
    const [analysis, review] = await page.evaluate(async (g) => {
      const post = (url) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(url.endsWith('analysis') ? { game: g } : {}) });
      const r1 = await post('/api/analysis');
      const r2 = await post(`/api/games/${g}/review`);
      return [{ status: r1.status, body: await r1.json() }, r2.status];
    }, id);
    assert.equal(analysis.status, 409);
    assert.match(analysis.body.error, /open when the game ends/);
    assert.equal(review, 409);
  }

  // Scholar's mate, played by clicks on the two seats' pages: 1. e4 / e5 2. Bc4 / Nc6
  // 3. Qh5 / Nf6 4. Qxf7#. Each side waits for its board before it moves.
  const line = [
    [white, 1, 'e2', 'e4'], [black, 1, 'e7', 'e5'],
    [white, 2, 'f1', 'c4'], [black, 2, 'b8', 'c6'],
    [white, 3, 'd1', 'h5'], [black, 3, 'g8', 'f6'],
    [white, 4, 'h5', 'f7'],
  ];
  for (const [who, t, from, to] of line) {
    const color = who === white ? 'white' : 'black';
    await board(who.page, [0, t, color]).waitFor({ timeout: 10000 });
    await move(who.page, [0, t, color], from, [0, t, color], to);
    await submit(who.page);
    if (t === 2 && color === 'black') {
      await white.page.screenshot({ path: join(SHOTS, `people-game-${white === a ? 1280 : 390}.png`) });
      await black.page.screenshot({ path: join(SHOTS, `people-game-${black === a ? 1280 : 390}.png`) });
      // Still under way: still no engine for anyone.
      for (const { page } of [a, b, spectator]) {
        assert.equal(await page.locator('#btn-analyse').isVisible(), false);
      }
    }
  }
  // Mate: the game is over, 1-0, for the seats and the spectator.
  for (const { page } of [a, b, spectator]) {
    await page.locator('#gameover').filter({ hasText: /checkmate/i }).waitFor({ timeout: 10000 });
  }
  const ended = await (await fetch(`${BASE}/api/games/${id}`)).json();
  assert.equal(ended.result, '1-0');
  assert.equal(ended.termination, 'checkmate');

  // Both see their change; it is Glicko-2's.
  const fresh = { r: 1500, rd: 350, vol: 0.06 };
  const won = glicko2(fresh, fresh, 1), lost = glicko2(fresh, fresh, 0);
  const up = Math.round(won.r - 1500), down = Math.round(1500 - lost.r);
  for (const { page } of [a, b, spectator]) {
    await page.locator('#rating-line').filter({ hasText: `(+${up})` }).waitFor({ timeout: 10000 });
    await page.locator('#rating-line').filter({ hasText: `(−${down})` }).waitFor();
  }
  const r = await (await fetch(`${BASE}/api/games/${id}/rating`)).json();
  assert.ok(Math.abs(r.white.after - won.r) < 0.01, `${JSON.stringify(r)} vs ${won.r}`);
  assert.ok(Math.abs(r.black.after - lost.r) < 0.01, `${JSON.stringify(r)} vs ${lost.r}`);
  await a.page.screenshot({ path: join(SHOTS, 'people-end-1280.png') });
  await b.page.screenshot({ path: join(SHOTS, 'people-end-390.png') });

  // After the end, Analyse and the review are back, and the API opens them.
  for (const { page } of [a, b, spectator]) {
    await page.waitForFunction(() => !document.body.classList.contains('fair-play'));
    assert.equal(await page.locator('#btn-analyse').isVisible(), true);
    assert.equal(await page.locator('#btn-computer-review').isVisible(), true);
  }
  const status = await spectator.page.evaluate((g) => fetch('/api/analysis', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ game: g }) }).then((x) => x.status), id);
  assert.equal(status, 201);

  // The players' pages: the blitz rating (provisional), the game with its change, the graph.
  for (const [{ page }, name, who] of [[white, white === a ? 'Ann' : 'Ben', won], [black, black === a ? 'Ann' : 'Ben', lost]]) {
    await page.locator('#acc-me').click();
    await page.locator('#player-name').filter({ hasText: name }).waitFor();
    await page.locator('[data-rating="blitz"]').filter({ hasText: `${Math.round(who.r)}?` }).waitFor();
    await page.locator('.rating-graph polyline').waitFor();
    const row = page.locator('.player-games tbody tr').first();
    assert.match(await row.innerText(), who === won ? new RegExp(`\\+${up}`) : new RegExp(`−${down}`));
    await page.screenshot({ path: join(SHOTS, `people-player-${page === a.page ? 1280 : 390}.png`), fullPage: true });
  }

  // A rematch: the loser offers, the winner accepts; both pages open the new game, colours
  // swapped, rated again; the spectator is shown the way to it.
  for (const { page } of [white, black]) await page.goto(`${BASE}#/game/${id}`);
  await black.page.getByRole('button', { name: 'Rematch', exact: true }).click();
  await black.page.locator('#rematch-status').filter({ hasText: 'waiting for your opponent' }).waitFor();
  await white.page.locator('#rematch-status').filter({ hasText: 'Your opponent offers a rematch (you play Black)' }).waitFor({ timeout: 10000 });
  await spectator.page.locator('#rematch-status').filter({ hasText: 'Black offers a rematch' }).waitFor({ timeout: 10000 });
  await white.page.screenshot({ path: join(SHOTS, `people-rematch-${white === a ? 1280 : 390}.png`) });
  await white.page.getByRole('button', { name: 'Accept rematch', exact: true }).click();
  for (const { page } of [white, black]) {
    await page.waitForURL((u) => /#\/game\/\d+$/.test(u.hash) && Number(u.hash.match(/\d+/)[0]) !== id, { timeout: 10000 });
  }
  const next = Number(white.page.url().match(/#\/game\/(\d+)/)[1]);
  assert.equal(Number(black.page.url().match(/#\/game\/(\d+)/)[1]), next);
  assert.deepEqual(await white.page.evaluate((g) => window.chess5dOnline.sides(g), next), ['black']);
  assert.deepEqual(await black.page.evaluate((g) => window.chess5dOnline.sides(g), next), ['white']);
  await black.page.locator('#seat-line').filter({ hasText: 'You play White' }).waitFor();
  await black.page.locator('#rating-line').filter({ hasText: 'Rated blitz' }).waitFor();
  await spectator.page.locator('#rematch-watch').waitFor({ timeout: 10000 });
  // The old Black (now White) moves first in the rematch.
  await move(black.page, [0, 1, 'white'], 'd2', [0, 1, 'white'], 'd4');
  await submit(black.page);
  const rm = await (await fetch(`${BASE}/api/games/${next}`)).json();
  assert.equal(rm.action_count, 1);
  assert.equal(rm.clock.initial_ms, 300000);
  await black.page.screenshot({ path: join(SHOTS, `people-rematch-game-${black === a ? 1280 : 390}.png`) });
});

/** The "Your turn" table on a phone (390 px, issue 47): no header row there (rows wrap as
 * lines), so each cell names its column; nothing is cut at the screen's right edge. */
async function turnTableReadable(page, id) {
  const r = await page.evaluate((id) => {
    const row = document.querySelector(`#my-turn-table tr[data-turn-game="${id}"]`);
    const cells = [...row.querySelectorAll('td')].map((td) => ({
      label: td.dataset.label ?? null,
      shown: getComputedStyle(td, '::before').content,
      right: td.getBoundingClientRect().right,
    }));
    const head = [...document.querySelectorAll('#my-turn-table thead th')].map((th) => th.getBoundingClientRect());
    const headShown = head.length && head.every((b) => b.width > 0 && b.right <= innerWidth);
    return { cells, headShown, width: innerWidth, title: document.querySelector('#my-turn-card h2').getBoundingClientRect().right };
  }, id);
  for (const c of r.cells) assert.ok(c.right <= r.width + 0.5, `a cell cut at the right: ${JSON.stringify(c)}`);
  assert.ok(r.title <= r.width, 'the card title is in the screen');
  if (!r.headShown) {
    const named = r.cells.filter((c) => c.label && c.shown.includes(c.label)).map((c) => c.label);
    assert.deepEqual(named, ['Opponent', 'You play', 'Variant', 'Clock', 'Time'], JSON.stringify(r.cells));
  }
}

async function logIn(page, name) {
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Password', { exact: true }).fill(`${name}-secret-pass`);
  await page.locator('#acc-submit').click();
  await page.locator('#acc-me').filter({ hasText: name }).waitFor();
}

test('correspondence pairing; the home page lists the games where it is your move; another device gets the seat', { skip: process.env.SITE === 'static' }, async () => {
  // A server of its own: sign-ups are 5 an hour from one address.
  const own = await startServer(freshDb());
  servers.push(own);
  const BASE = own.url;
  const a = await open(BASE);
  const b = await open(BASE, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await signUp(a.page, 'Cora');
  await signUp(b.page, 'Dan');
  for (const { page } of [a, b]) {
    await page.locator('#qp-clock').selectOption('3d');
    await page.locator('#qp-rated').check();
    await page.locator('#qp-start').click();
  }
  await a.page.waitForURL(/#\/game\/\d+$/, { timeout: 10000 });
  await b.page.waitForURL(/#\/game\/\d+$/, { timeout: 10000 });
  const id = Number(a.page.url().match(/#\/game\/(\d+)/)[1]);
  const [white, black] = (await a.page.evaluate((g) => window.chess5dOnline.sides(g), id))[0] === 'white' ? [a, b] : [b, a];
  const whiteName = white === a ? 'Cora' : 'Dan';
  await white.page.locator('#rating-line').filter({ hasText: 'Rated correspondence' }).waitFor();
  // The clock shows days.
  await white.page.locator('#p-white .clock').filter({ hasText: '3 d 0 h' }).waitFor();
  // Home: White's move is listed for White, nothing for Black.
  for (const { page } of [white, black]) await page.goto(`${BASE}#/`);
  await white.page.locator(`#my-turn-table tr[data-turn-game="${id}"]`).filter({ hasText: '3 days a move' }).waitFor();
  await black.page.locator('#my-turn-none').waitFor();
  await turnTableReadable(white.page, id);
  await white.page.screenshot({ path: join(SHOTS, `people-my-turn-${white === a ? 1280 : 390}.png`) });
  await black.page.screenshot({ path: join(SHOTS, `people-my-turn-${black === a ? 1280 : 390}.png`) });

  // Another device of White's account (a fresh browser, logged in) gets White's seat and moves.
  const other = await open(BASE);
  await logIn(other.page, whiteName);
  await other.page.locator(`#my-turn-table a[href="#/game/${id}"]`).click();
  await other.page.locator('#seat-line').filter({ hasText: 'You play White' }).waitFor({ timeout: 10000 });
  await move(other.page, [0, 1, 'white'], 'e2', [0, 1, 'white'], 'e4');
  await submit(other.page);
  await other.page.screenshot({ path: join(SHOTS, 'people-other-device-1280.png') });
  // Now it is Black's move: the lists follow (the home page asks every 10 s; a reload asks now).
  for (const { page } of [white, black]) await page.reload();
  await black.page.locator(`#my-turn-table tr[data-turn-game="${id}"]`).waitFor({ timeout: 10000 });
  await white.page.locator('#my-turn-none').waitFor({ timeout: 10000 });
  await turnTableReadable(black.page, id);
  await black.page.screenshot({ path: join(SHOTS, `people-my-turn-black-${black === a ? 1280 : 390}.png`) });
});

test('the lobby shows names, ratings, clocks and kinds, filters by rating, and a challenge can be for one player', { skip: process.env.SITE === 'static' }, async () => {
  // A server of its own: sign-ups are 5 an hour from one address.
  const own = await startServer(freshDb());
  servers.push(own);
  const BASE = own.url;
  const a = await open(BASE);
  const b = await open(BASE, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const anon = await open(BASE);
  await signUp(a.page, 'Eli');
  await signUp(b.page, 'Fay');
  // Eli challenges Fay only: rated, 5+3, Eli plays White.
  await a.page.locator('#ch-minutes').fill('5');
  await a.page.locator('#ch-inc').fill('3');
  await a.page.locator('#ch-color').selectOption('white');
  await a.page.locator('#ch-rated').check();
  await a.page.locator('#ch-to').fill('Fay');
  await a.page.getByRole('button', { name: 'Post challenge', exact: true }).click();
  const row = b.page.locator('#lobby-table tbody tr').filter({ hasText: 'Eli' });
  await row.waitFor({ timeout: 10000 });
  const text = await row.innerText();
  for (const part of ['Eli', '1500?', 'Standard', '5+3', 'rated blitz', 'for Fay', 'white']) assert.ok(text.includes(part), `${part} in ${text}`);
  // Nobody else sees it.
  await anon.page.reload();
  await anon.page.locator('#lobby-table tbody').waitFor();
  await anon.page.waitForTimeout(1600);
  assert.equal(await anon.page.locator('#lobby-table tbody tr').filter({ hasText: 'Eli' }).count(), 0);
  // The rating filter: from 1600 hides it, from 1400 to 1600 shows it.
  await b.page.locator('#lobby-min').fill('1600');
  await b.page.locator('#lobby-min').dispatchEvent('change');
  await b.page.locator('#lobby-table tbody').filter({ hasText: 'No open challenges' }).waitFor();
  await b.page.locator('#lobby-min').fill('1400');
  await b.page.locator('#lobby-max').fill('1600');
  await b.page.locator('#lobby-max').dispatchEvent('change');
  await row.waitFor();
  await b.page.screenshot({ path: join(SHOTS, 'people-lobby-390.png'), fullPage: true });
  await a.page.screenshot({ path: join(SHOTS, 'people-lobby-1280.png'), fullPage: true });
  // Fay accepts: both are in the rated game, Eli as White.
  await row.getByRole('button', { name: /Accept challenge/ }).click();
  await b.page.waitForURL(/#\/game\/\d+$/, { timeout: 10000 });
  await a.page.waitForURL(/#\/game\/\d+$/, { timeout: 10000 });
  await a.page.locator('#seat-line').filter({ hasText: 'You play White' }).waitFor();
  await b.page.locator('#rating-line').filter({ hasText: 'Rated blitz · White: Eli 1500? · Black: Fay 1500?' }).waitFor();
});

test('an invite says who invites you, your side, the clock and casual; its clock waits', { skip: process.env.SITE === 'static' }, async () => {
  const made = await fetch(`${BASE}/api/games`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ variant: 'Standard', white: { type: 'human', name: 'Ann' }, black: { type: 'human' }, seat: 'white', clock: { initial_ms: 300000, increment_ms: 3000 } }),
  }).then((r) => r.json());
  assert.equal(made.clock.running, false, 'the clock waits for the friend');
  const friend = await open(`${BASE}#/game/${made.id}/join/black/${made.invite.token}`, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const what = friend.page.locator('#join-what');
  await what.waitFor();
  assert.equal(await what.innerText(), "Ann invites you to play Black · Standard · 5+3 (each clock starts with that side's first move) · casual.");
  await friend.page.screenshot({ path: join(SHOTS, 'people-invite-390.png') });
  await friend.page.getByRole('button', { name: 'Join', exact: true }).click();
});
