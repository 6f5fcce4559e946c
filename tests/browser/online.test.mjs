// Online play between two browsers (two players) watched by a third (a spectator): the creator
// makes an invite, the friend opens the invite link, a game with a branch and a hop is played
// through to mate; the spectator sees every action and cannot move; reloads keep the seats; the
// invite is claimed once (the same link in a second browser seats nobody), and forged or
// malformed links are refused on opening, in plain words.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, startServer, freshDb, board, square, move, submit, SHOTS, answerName } from './helpers.mjs';

const MATE = '[Board "custom"]\n[Size "5x5"]\n[4k/5/5/5/K1R2:0:1:w]\n';
let server = null, BASE = process.env.BASE_URL;
const browsers = [];

before(async () => {
  if (!BASE) {
    server = await startServer(freshDb());
    BASE = server.url;
  }
});

after(async () => {
  for (const b of browsers) await b.ctx.close();
  if (server) await server.stop();
});

async function open(url) {
  const b = await launch();
  browsers.push(b);
  await b.page.goto(url);
  return b;
}

/** Waits until the page shows `n` actions in the notation panel. */
async function actions(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll('#notation .act').length === k, n, { timeout: 10000 });
}

test('an invite link played through to mate, watched by a spectator; reloads keep the seats', async () => {
  // White creates the game from a position and gets an invite link for Black.
  const white = await open(BASE);
  const wp = white.page;
  await wp.locator('#friend-card').waitFor();
  await wp.locator('#friend-card summary').click();
  await wp.locator('#fr-import').fill(MATE);
  await wp.locator('#fr-side').selectOption('white');
  await wp.getByRole('button', { name: 'Create invite', exact: true }).click();
  await wp.waitForURL(/#\/game\/\d+$/);
  const id = Number(wp.url().match(/#\/game\/(\d+)/)[1]);
  await wp.locator('#seat-line').filter({ hasText: 'You play White' }).waitFor();
  const invite = await wp.locator('#invite-link').inputValue();
  assert.match(invite, new RegExp(`#/game/${id}/join/black/[0-9a-f]{32}$`));
  const watch = await wp.locator('#spectator-link').inputValue();
  assert.ok(watch.endsWith(`#/game/${id}`), watch);

  // Black opens the invite (the token leaves the address bar); a spectator opens the game.
  const black = await open(invite);
  const bp = black.page;
  await answerName(bp, 'Bea');
  await bp.locator('#seat-line').filter({ hasText: 'You play Black' }).waitFor();
  assert.ok(bp.url().endsWith(`#/game/${id}`), `token left in the URL: ${bp.url()}`);
  const spectator = await open(watch);
  const sp = spectator.page;
  await sp.locator('#seat-line').filter({ hasText: 'Spectating' }).waitFor();
  await wp.locator('[data-presence="black"].on').waitFor();
  await board(sp, [0, 1, 'white']).waitFor();

  // The spectator can pick nothing, its buttons are off, and the API refuses it.
  await square(sp, [0, 1, 'white'], 'a1').click();
  await sp.waitForTimeout(300);
  assert.equal(await sp.locator('[data-dest]').count(), 0, 'a spectator got destinations');
  assert.equal(await sp.getByRole('button', { name: 'Resign', exact: true }).isDisabled(), true);
  assert.equal(await sp.getByRole('button', { name: 'Offer draw' }).count(), 0);
  const refused = await sp.evaluate((g) => fetch(`/api/games/${g}/move`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ move: '(0T1)a1(0T1)a2' }),
  }).then((r) => r.status), id);
  assert.equal(refused, 403);
  // Black cannot move White's pieces either.
  await square(bp, [0, 1, 'white'], 'a1').click();
  await bp.waitForTimeout(300);
  assert.equal(await bp.locator('[data-dest]').count(), 0, 'Black got destinations for a White piece');

  // 1. Ka2 / Kd4, the spectator following each action.
  await move(wp, [0, 1, 'white'], 'a1', [0, 1, 'white'], 'a2');
  await submit(wp);
  await actions(sp, 1);
  await actions(bp, 1);
  // Black reloads: still Black, still able to play.
  await bp.reload();
  await bp.locator('#seat-line').filter({ hasText: 'You play Black' }).waitFor();
  // The invite was claimed: the creator's page says so, and the same link opened in a second
  // browser seats nobody (it is told why, and watches in sync).
  await wp.locator('#invite-used').filter({ hasText: 'Black joined through your invite link' }).waitFor();
  assert.equal(await wp.locator('#invite-link').count(), 0);
  const black2 = await open(invite);
  await black2.page.locator('#join-notice').filter({ hasText: 'was used already' }).waitFor();
  await black2.page.locator('#seat-line').filter({ hasText: 'Spectating' }).waitFor();
  assert.ok(black2.page.url().endsWith(`#/game/${id}`), `token left in the URL: ${black2.page.url()}`);
  await square(black2.page, [0, 1, 'black'], 'e5').click();
  await black2.page.waitForTimeout(300);
  assert.equal(await black2.page.locator('[data-dest]').count(), 0, 'a used invite link let a second browser move');
  await move(bp, [0, 1, 'black'], 'e5', [0, 1, 'black'], 'd4');
  await submit(bp);
  await actions(sp, 2);
  await actions(black2.page, 2);
  await actions(wp, 2);
  // 2. (0T2)Ka2>>(0T1)a2 branches; Black hops (0T2)Kd4>(1T1)e3.
  await move(wp, [0, 2, 'white'], 'a2', [0, 1, 'white'], 'a2');
  await submit(wp);
  await actions(sp, 3);
  await board(sp, [1, 1, 'black']).waitFor();
  await actions(bp, 3);
  await move(bp, [0, 2, 'black'], 'd4', [1, 1, 'black'], 'e3');
  await submit(bp);
  await actions(sp, 4);
  await actions(wp, 4);
  // White reloads before the last action, then mates on both timelines.
  await wp.reload();
  await wp.locator('#seat-line').filter({ hasText: 'You play White' }).waitFor();
  await move(wp, [0, 3, 'white'], 'c1', [0, 3, 'white'], 'b1');
  await move(wp, [1, 2, 'white'], 'c1', [1, 2, 'white'], 'e1');
  await submit(wp);
  for (const p of [wp, bp, sp, black2.page]) {
    const over = p.locator('#gameover');
    await over.waitFor({ state: 'visible' });
    assert.match(await over.textContent(), /Checkmate: White wins \(1-0\)/);
  }
  assert.equal(await sp.locator('#notation .act').count(), 5);
  await wp.screenshot({ path: join(SHOTS, 'online-white.png') });
  await bp.screenshot({ path: join(SHOTS, 'online-black.png') });
  await sp.screenshot({ path: join(SHOTS, 'online-spectator.png') });

  // Only the creator may delete the game.
  const del = (p) => p.evaluate((g) => fetch(`/api/games/${g}`, {
    method: 'DELETE', headers: { 'Content-Type': 'application/json', 'X-Chess5d-Seat': JSON.parse(localStorage.getItem('chess5d.seats') || '{}')[g]?.token ?? '0'.repeat(32) },
  }).then((r) => r.status), id);
  assert.equal(await del(bp), 403);
  assert.equal(await del(sp), 403);
  for (const b of [white, black, spectator, black2]) assert.deepEqual(b.errors.filter((e) => !/403|Forbidden/.test(e)), []);
});

test('the lobby: a challenge posted by one visitor and accepted by another starts a game for both', async () => {
  const a = await open(BASE);
  const b = await open(BASE);
  await a.page.locator('#challenge-form').waitFor();
  await a.page.locator('#ch-name').fill('Ann');
  await a.page.locator('#ch-color').selectOption('black');
  await a.page.getByRole('button', { name: 'Post challenge', exact: true }).click();
  await a.page.locator('#lobby-table button[data-cancel]').waitFor();
  await b.page.locator('#ch-name').fill('Bob');
  const accept = b.page.locator('#lobby-table button[data-accept]').last();
  await accept.waitFor({ timeout: 5000 });
  await accept.click();
  await b.page.waitForURL(/#\/game\/\d+$/);
  await b.page.locator('#seat-line').filter({ hasText: 'You play White' }).waitFor();
  // The challenger's page notices the acceptance and opens the game as Black.
  await a.page.waitForURL(/#\/game\/\d+$/, { timeout: 10000 });
  await a.page.locator('#seat-line').filter({ hasText: 'You play Black' }).waitFor();
  assert.equal(a.page.url().split('#')[1], b.page.url().split('#')[1]);
  // A draw offer from White, accepted by Black.
  await b.page.getByRole('button', { name: 'Offer draw' }).click();
  await a.page.getByRole('button', { name: 'Accept draw' }).click();
  for (const p of [a.page, b.page]) {
    await p.locator('#gameover').filter({ hasText: 'Draw' }).waitFor();
  }
  await a.page.screenshot({ path: join(SHOTS, 'online-draw.png') });
  // An abort before the first action: a second challenge, accepted, aborted by its challenger.
  await a.page.goto(`${BASE}/#/`);
  await a.page.getByRole('button', { name: 'Post challenge', exact: true }).click();
  const accept2 = b.page.locator('#lobby-table button[data-accept]').last();
  await b.page.goto(`${BASE}/#/`);
  await accept2.waitFor({ timeout: 5000 });
  await accept2.click();
  await a.page.waitForURL(/#\/game\/\d+$/, { timeout: 10000 });
  a.page.once('dialog', (d) => d.accept());
  await a.page.getByRole('button', { name: 'Abort', exact: true }).click();
  for (const p of [a.page, b.page]) {
    await p.locator('#gameover').filter({ hasText: 'Game aborted' }).waitFor();
  }
  // Both see the game in their own list.
  await a.page.goto(`${BASE}/#/`);
  await a.page.locator('#my-games-table tbody tr[data-my-game]').first().waitFor();
  assert.match(await a.page.locator('#my-games-table tbody').textContent(), /black/);
});

test('forged and malformed invite links are refused when opened, in plain words', async () => {
  const owner = await open(BASE);
  const made = await owner.page.evaluate(() => fetch('/api/games', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ white: { type: 'human' }, black: { type: 'human' }, seat: 'white' }),
  }).then((r) => r.json()));
  const id = made.id;
  // A made-up token of the right form.
  const forged = await open(`${BASE}/#/game/${id}/join/black/${'ab'.repeat(16)}`);
  const fp = forged.page;
  await fp.locator('#join-notice').filter({ hasText: 'does not open a seat' }).waitFor();
  await fp.locator('#seat-line').filter({ hasText: 'Spectating' }).waitFor();
  assert.ok(fp.url().endsWith(`#/game/${id}`), `token left in the URL: ${fp.url()}`);
  assert.equal(await fp.getByRole('button', { name: 'Offer draw' }).count(), 0);
  assert.equal(await fp.getByRole('button', { name: 'Abort', exact: true }).count(), 0);
  assert.equal(await fp.getByRole('button', { name: 'Resign', exact: true }).isDisabled(), true);
  await board(fp, [0, 1, 'white']).waitFor();
  await square(fp, [0, 1, 'white'], 'e2').click();
  await fp.waitForTimeout(300);
  assert.equal(await fp.locator('[data-dest]').count(), 0, 'a forged link let the visitor pick a piece');
  assert.equal(await fp.evaluate(() => localStorage.getItem('chess5d.seats')), null, 'a forged token was kept');
  await fp.screenshot({ path: join(SHOTS, 'online-forged-invite.png') });
  // A cut-short token: said at once, without asking the server, and gone from the address bar.
  const cut = await open(`${BASE}/#/game/${id}/join/black/${made.invite.token.slice(0, 20)}`);
  await cut.page.locator('#join-notice').filter({ hasText: 'This invite link is not valid' }).waitFor();
  assert.ok(cut.page.url().endsWith(`#/game/${id}`), cut.page.url());
  await cut.page.locator('#seat-line').filter({ hasText: 'Spectating' }).waitFor();
  // The real link still works after those.
  const friend = await open(`${BASE}/#/game/${id}/join/black/${made.invite.token}`);
  await answerName(friend.page);
  await friend.page.locator('#seat-line').filter({ hasText: 'You play Black' }).waitFor();
  await friend.page.locator('#join-notice').filter({ hasText: 'You joined game' }).waitFor();
});
