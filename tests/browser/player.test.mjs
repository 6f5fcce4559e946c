// What a new player met in the GUI (issue 19, point 7), each checked as the player sees it:
// review buttons, the status line (summarised actions, where the present goes), the boards
// turned for Black, `+` and `#` in the move list, every check drawn at a mate, the landing board
// of a jump framed in review, an engine that is not "away", draw offers seen by spectators and a
// declined offer told, the home page on a phone, and `/game/N` typed without `#`.
// Runs against the served GUI and (SITE=static) the static site, where a feature exists there.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, dirname } from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openSession, closeSession, createGame, launch, board, square, move, submit, seatLink, SHOTS, answerName } from './helpers.mjs';

const STATIC = process.env.SITE === 'static';
const here = dirname(fileURLToPath(import.meta.url));
// A 5x5 position where White mates in three actions, with a branch and a hop (as online.test).
const MATE = '[Board "custom"]\n[Size "5x5"]\n[4k/5/5/5/K1R2:0:1:w]\n';
let session, page, errors, BASE;
const extra = [];

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});

after(async () => {
  for (const b of extra) await b.ctx.close();
  await closeSession(session);
});

async function open(g) {
  await page.goto(seatLink(BASE, g));
  // This game's page (not the one before it, still on screen while the next one loads).
  await page.waitForFunction((id) => location.hash === `#/game/${id}` && document.title === `chess5d game ${id}`, g.id);
  await page.locator('#status').filter({ hasText: /to move|Game over/ }).waitFor();
}

const status = () => page.locator('#status').textContent();

/** Plays the mating game of MATE to its end (five actions), checking the status on the way. */
async function playMate() {
  const g = await createGame(BASE, { import: MATE });
  await open(g);
  await move(page, [0, 1, 'white'], 'a1', [0, 1, 'white'], 'a2');
  await submit(page);
  await move(page, [0, 1, 'black'], 'e5', [0, 1, 'black'], 'd4');
  await submit(page);
  // A jump back one turn: until submitted, the present is on Black's half of turn 1.
  await move(page, [0, 2, 'white'], 'a2', [0, 1, 'white'], 'a2');
  const said = await status();
  assert.doesNotMatch(said, /White to move\. Present: T\d black/, said);
  assert.match(said, /White to move\. This action takes the present back to turn 1, where Black plays next\./, said);
  await submit(page);
  await move(page, [0, 2, 'black'], 'd4', [1, 1, 'black'], 'e3');
  await submit(page);
  await move(page, [0, 3, 'white'], 'c1', [0, 3, 'white'], 'b1');
  await move(page, [1, 2, 'white'], 'c1', [1, 2, 'white'], 'e1');
  await submit(page);
  await page.locator('#gameover').filter({ hasText: 'Checkmate' }).waitFor();
  return g;
}

// Black's king on a5; White's knight on a3 hides the rook on a1, the rook on b1 holds the b-file.
const DOUBLE = '[Board "custom"]\n[Size "5x5"]\n[k4/5/N4/5/RR2K:0:1:w]\n';

test('`+` and `#` in the move list; at a double-check mate both checks are drawn', async () => {
  // A check that is no mate: Ra1+ (the king steps to b4 or b5).
  await open(await createGame(BASE, { import: '[Board "custom"]\n[Size "5x5"]\n[k4/5/5/5/1R2K:0:1:w]\n' }));
  await move(page, [0, 1, 'white'], 'b1', [0, 1, 'white'], 'a1');
  await submit(page);
  await page.locator('#notation .act').first().waitFor();
  assert.equal(await page.locator('#notation .act').first().textContent(), 'Ra1+');
  // Nc4#: the knight checks, and uncovers the rook's check.
  await open(await createGame(BASE, { import: DOUBLE }));
  await move(page, [0, 1, 'white'], 'a3', [0, 1, 'white'], 'c4');
  await submit(page);
  await page.locator('#gameover').filter({ hasText: 'Checkmate' }).waitFor();
  assert.equal(await page.locator('#notation .act').first().textContent(), 'Nc4#');
  await page.waitForFunction(() => document.querySelectorAll('#check-layer .arrow.check').length === 2);
  await page.screenshot({ path: join(SHOTS, 'player-double-check.png') });
});

test('review: first / previous / next / last buttons, and the landing board of a jump framed', async () => {
  await playMate();
  assert.ok((await page.locator('#notation .act').last().textContent()).endsWith('#'));
  const first = page.getByRole('button', { name: 'First position', exact: true });
  const prev = page.getByRole('button', { name: 'Previous action', exact: true });
  const next = page.getByRole('button', { name: 'Next action', exact: true });
  const last = page.getByRole('button', { name: 'Last action', exact: true });
  assert.equal(await last.isDisabled(), true);
  assert.equal(await next.isDisabled(), true);
  await first.click();
  await page.waitForFunction(() => document.querySelector('#play').dataset.review === '0');
  assert.equal(await prev.isDisabled(), true);
  await next.click();
  await page.waitForFunction(() => document.querySelector('#play').dataset.review === '1');
  await next.click();
  await next.click();
  await page.waitForFunction(() => document.querySelector('#play').dataset.review === '3');
  // Action 3 jumped from (0T2) to (0T1), making timeline 1: its first board is on screen.
  await page.waitForFunction(() => document.querySelector('#view').dataset.camera !== 'moving');
  await page.waitForTimeout(400);
  const view = await page.locator('#view').boundingBox();
  const landing = await board(page, [1, 1, 'black']).boundingBox();
  assert.ok(landing, 'the landing board is drawn');
  const inside = landing.x >= view.x - 1 && landing.y >= view.y - 1
    && landing.x + landing.width <= view.x + view.width + 1 && landing.y + landing.height <= view.y + view.height + 1;
  assert.ok(inside, `the landing board ${JSON.stringify(landing)} is off the view ${JSON.stringify(view)}`);
  await prev.click();
  await page.waitForFunction(() => document.querySelector('#play').dataset.review === '2');
  await last.click();
  await page.waitForFunction(() => document.querySelector('#play').dataset.review === '5');
  assert.equal(await page.locator('#review-bar').isHidden(), true);
});

test('a long action is summarised in the status line', async () => {
  // 30 timelines, then one action that plays a move on each of them.
  const lines = ['[Board "custom"]', '[Size "5x5"]'];
  for (let l = -15; l <= 14; l++) lines.push(`[k4/5/5/5/4K:${l}:1:w]`);
  const g = await createGame(BASE, { import: lines.join('\n') + '\n' });
  await open(g);
  // The action is played through the API (clicking thirty boards is not the point here), as a
  // well-behaved script does: over the server's rate limit (a 429) it waits as told, then goes on.
  const call = (path, body) => page.evaluate(async ([path, body, token]) => {
    for (;;) {
      const r = await fetch(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(token ? { 'X-Chess5d-Seat': token } : {}) },
        body: JSON.stringify(body),
      });
      if (r.status !== 429) return r.status;
      await new Promise((done) => setTimeout(done, 1000 * Number(r.headers.get('Retry-After') || 1)));
    }
  }, [path, body, g.seat?.token]);
  for (let l = -15; l <= 14; l++) {
    assert.equal(await call(`/api/games/${g.id}/move`, { move: `(${l}T1)e1(${l}T1)e2` }), 200, `move on L${l}`);
  }
  assert.equal(await call(`/api/games/${g.id}/submit`, {}), 200);
  for (let l = -15; l <= 14; l++) {
    assert.equal(await call(`/api/games/${g.id}/move`, { move: `(${l}T1)a5(${l}T1)a4` }), 200, `move on L${l}`);
  }
  assert.equal(await call(`/api/games/${g.id}/submit`, {}), 200);
  await page.reload();
  await page.locator('#notation .act').first().waitFor();
  await page.getByRole('button', { name: 'Previous action', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('#play').dataset.review === '1');
  const said = await status();
  assert.match(said, /… and 27 more moves/, said);
  assert.ok(said.length < 200, `status of ${said.length} characters: ${said}`);
  // The status does not run over the buttons: a few lines at most (30 moves took a dozen).
  const box = await page.locator('#status').boundingBox();
  assert.ok(box.height < 90, `status ${box.height}px high`);
});

test('the player of Black sees the boards turned', async () => {
  const g = await createGame(BASE, { white: { type: 'engine', bot: 'random' }, black: { type: 'human' } });
  await open(g);
  const b = [0, 1, 'white'];
  await board(page, b).waitFor();
  const a1 = await square(page, b, 'a1').boundingBox();
  const a5 = await square(page, b, 'a8').boundingBox();
  assert.ok(a1.y < a5.y, `a1 (y ${a1.y}) should be above a8 (y ${a5.y}) for Black`);
  assert.ok(a1.x > (await square(page, b, 'h1').boundingBox()).x, 'a-file on the right for Black');
  // White's player sees them as before.
  const w = await createGame(BASE, { white: { type: 'human' }, black: { type: 'engine', bot: 'random' } });
  await open(w);
  await board(page, b).waitFor();
  assert.ok((await square(page, b, 'a1').boundingBox()).y > (await square(page, b, 'a8').boundingBox()).y);
});

test('a big multiverse: timeline labels stay in view, and an overview leads around it', async () => {
  const text = readFileSync(join(here, 'data/big-multiverse.5dpgn'), 'utf8');
  const g = await createGame(BASE, { import: text });
  await open(g);
  await page.locator('#world .board').first().waitFor({ state: 'attached' });
  // A view of the present around timeline 0, far from where the timelines start (since issue 32
  // the camera opens on a board to play, here beside the start of its timeline): their labels
  // are still there, at the left edge, for the rows in view.
  await page.evaluate((t) => window.__chess5dShow(0, t), g.present.t);
  await page.keyboard.press('-');
  // (the chips follow every frame of the zoom: read them once it is over)
  await page.waitForFunction(() => document.querySelector('#view').dataset.camera === 'still' && document.querySelectorAll('#tl-rail .rail-label').length >= 2);
  const labels = await page.locator('#tl-rail .rail-label').allTextContents();
  assert.ok(labels.every((l) => /^L[+-]?\d+$/.test(l)), labels.join(' '));
  const view = await page.locator('#view').boundingBox();
  for (const box of await Promise.all((await page.locator('#tl-rail .rail-label').all()).map((l) => l.boundingBox()))) {
    assert.ok(box.y >= view.y && box.y + box.height <= view.y + view.height && box.x >= view.x, JSON.stringify(box));
  }
  // The overview: shown, framing the view; a click on its far corner moves the camera there.
  const mm = page.getByRole('img', { name: /Overview of the multiverse/ });
  await mm.waitFor();
  const before = await page.locator('#view').getAttribute('viewBox');
  const box = await mm.boundingBox();
  await mm.click({ position: { x: 8, y: box.height - 8 } });
  await page.waitForFunction((b) => document.querySelector('#view').getAttribute('viewBox') !== b, before);
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(SHOTS, 'player-overview.png') });
});

test('the home page fits a phone screen', async () => {
  const phone = await launch({ viewport: { width: 390, height: 844 } });
  extra.push(phone);
  await phone.page.goto(`${BASE}/`);
  await phone.page.locator('#home').waitFor();
  await phone.page.waitForTimeout(500);
  const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
  await phone.page.screenshot({ path: join(SHOTS, 'player-phone-home.png'), fullPage: true });
  assert.ok(width <= 390, `the home page is ${width}px wide on a 390px screen`);
  // Nothing is cut off at the right edge either (the page clips what overflows): every button,
  // field and cell of the home page lies within the screen's width.
  const off = await phone.page.evaluate(() => [...document.querySelectorAll('#home button, #home select, #home input, #home td, #home .card')]
    .filter((e) => e.offsetParent !== null)
    .map((e) => [e.id || e.textContent.trim().slice(0, 20) || e.tagName, Math.round(e.getBoundingClientRect().right)])
    .filter(([, right]) => right > innerWidth + 1));
  assert.deepEqual(off, [], `off screen on a phone: ${JSON.stringify(off.slice(0, 8))}`);
});

test('an engine opponent is not shown as away', { skip: STATIC && 'no seats in the static site' }, async () => {
  const g = await createGame(BASE, { white: { type: 'human' }, black: { type: 'engine', bot: 'random' }, seat: 'white' });
  await open(g);
  const black = page.locator(`#online-panel[data-game="${g.id}"] [data-presence="black"]`);
  await black.waitFor();
  const text = await black.textContent();
  assert.doesNotMatch(text, /away/, text);
  assert.match(text, /engine/, text);
});

test('spectators see a draw offer; the player who offered learns it was declined', { skip: STATIC && 'no seats in the static site' }, async () => {
  const g = await createGame(BASE, { white: { type: 'human' }, black: { type: 'human' }, seat: 'white' });
  await open(g);
  const friend = await launch();
  const spectator = await launch();
  extra.push(friend, spectator);
  await friend.page.goto(`${BASE}/#/game/${g.id}/join/black/${g.invite.token}`);
  await answerName(friend.page);
  await friend.page.locator('#seat-line').filter({ hasText: 'You play Black' }).waitFor();
  await spectator.page.goto(`${BASE}/#/game/${g.id}`);
  await spectator.page.locator('#seat-line').filter({ hasText: 'Spectating' }).waitFor();
  await page.getByRole('button', { name: 'Offer draw' }).click();
  await spectator.page.locator('#draw-offered').filter({ hasText: 'White offers a draw' }).waitFor();
  await friend.page.getByRole('button', { name: 'Decline draw' }).click();
  await page.locator('#draw-declined').filter({ hasText: 'Your draw offer was declined' }).waitFor();
  await spectator.page.locator('#draw-offered').waitFor({ state: 'detached' });
});

test('the online panel keeps the focus on its control when the opponent comes', { skip: STATIC && 'no seats in the static site' }, async () => {
  const g = await createGame(BASE, { white: { type: 'human' }, black: { type: 'human' }, seat: 'white' });
  await open(g);
  const copy = page.getByRole('button', { name: 'Copy spectator link' });
  await page.locator('[data-presence="black"]').filter({ hasText: 'away' }).waitFor();
  await copy.focus();
  const friend = await launch();
  extra.push(friend);
  await friend.page.goto(`${BASE}/#/game/${g.id}/join/black/${g.invite.token}`);
  await answerName(friend.page);
  // The panel is written anew (Black connected, the invite taken); a keyboard user keeps their place.
  await page.locator('[data-presence="black"]').filter({ hasText: 'connected' }).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Copy spectator link');
});

test('/game/N typed without # shows the page, which says there is no such game', { skip: STATIC && 'a static host serves files only' }, async () => {
  const res = await page.goto(`${BASE}/game/999999`);
  assert.ok(res.ok(), `status ${res.status()}`);
  await page.locator('#notfound').waitFor();
  assert.match(await page.locator('#notfound-text').textContent(), /no game 999999/);
});

test('no console errors', () => {
  // 429: the rate limit met by the long-action test's script, which waits and goes on.
  assert.deepEqual(errors.filter((e) => !/Failed to load resource.*(400|404|409|429)/.test(e)), []);
});
