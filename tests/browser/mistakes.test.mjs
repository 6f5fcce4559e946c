// Learn from your mistakes (issue 48, point 2): after a computer review, each mistake and
// blunder of a player is offered as a puzzle, the position before it: find a better action.
// The game service's engine judges the answer (within the review's good margin of the best),
// not one expected action: the blunder played again is refused, the engine's best accepted.
// Served GUI and static site (tests/browser/static/run.sh runs this file too; there the service
// runs in wasm). Screenshots: tests/browser/screenshots/48-mistakes-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, closeSession, createGame, seatLink, move, submit, gameId, SHOTS } from './helpers.mjs';

let session, page, errors, BASE;
const site = process.env.SITE === 'static' ? 'static' : 'served';

// Scholar's mate: 3... Nf6?? lets 4. Qxf7#, a blunder.
const SCHOLAR = '[Board "Standard"]\n\n1. e4 / e5\n2. Bc4 / Nc6\n3. Qh5 / Nf6\n4. Qxf7#\n';
const BLACK3 = ['0', '3', 'black'];

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});

after(() => closeSession(session));

/** The page's own call of the back-end (the static site answers in the page). */
const call = (method, path) => page.evaluate(([m, p]) => fetch(p, { method: m, headers: { 'Content-Type': 'application/json' }, body: m === 'POST' ? '{}' : undefined }).then(async (r) => ({ status: r.status, body: await r.json() })), [method, path]);

/** Opens the puzzle of the review's one mistake from the reviewed game's page. */
async function openPuzzle(reviewed) {
  const item = page.locator('#cr-mistakes button.cr-mistake');
  await item.waitFor({ timeout: 20000 });
  assert.equal(await item.count(), 1);
  assert.match(await item.textContent(), /3b\. Nf6\?\?: find a better action/);
  await item.click();
  await page.waitForFunction((id) => { const m = location.hash.match(/#\/game\/(\d+)/); return m && Number(m[1]) !== id; }, reviewed);
  await page.locator('#status', { hasText: 'Learn from your mistakes' }).waitFor();
  await page.locator(`#world .board[data-l="0"][data-t="3"][data-color="black"]`).waitFor();
  assert.match(await page.locator('#status').textContent(), /Black played Nf6 here \(a blunder\); find a better action/);
  await page.waitForTimeout(300);
}

/** Plays a one-move answer from `from` to `to` on Black's board of turn 3 and submits it: the
 * verdict line. */
async function answer(from, to) {
  await move(page, BLACK3, from, BLACK3, to);
  await submit(page);
  const go = page.locator('#gameover');
  await go.waitFor({ state: 'visible', timeout: 30000 });
  return go.textContent();
}

test('a reviewed blunder becomes a puzzle: the blunder refused, the engine\'s better action accepted', async () => {
  const g = await createGame(BASE, { import: SCHOLAR });
  await page.goto(seatLink(BASE, g));
  await page.locator('#world .board').first().waitFor();
  // Before a review nothing is offered, and the back-end says why a puzzle cannot be made.
  assert.equal(await page.locator('#cr-mistakes:not(.hidden)').count(), 0);
  const none = await call('POST', `/api/games/${g.id}/mistakes/5`);
  assert.equal(none.status, 404, JSON.stringify(none));
  assert.equal(none.body.kind, 'not_found', JSON.stringify(none));
  assert.match(none.body.error, /no computer review/);
  // (the browser logs that 404, the one error this test asks for)
  await page.waitForTimeout(100);
  assert.ok(errors.every((e) => /status of 404/.test(e)), JSON.stringify(errors));
  errors.splice(0);
  await page.getByRole('button', { name: 'Review with the computer' }).click();
  await page.waitForFunction(() => document.querySelector('#computer-review')?.dataset.status === 'done', null, { timeout: 60000 });
  const list = await call('GET', `/api/games/${g.id}/mistakes`);
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.puzzles.map((p) => [p.index, p.class, p.played, p.player]), [[5, 'blunder', 'Nf6', 'black']]);
  const review = await call('GET', `/api/games/${g.id}/review`);
  const best = review.body.review.actions[5].best_long;
  const bm = best.match(/^\(0T3\)([a-h][1-8])\(0T3\)([a-h][1-8])$/);
  assert.ok(bm, `a one-move best on the board: ${best}`);
  await page.locator('#cr-mistakes').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, `48-mistakes-list-${site}.png`) });

  // The blunder again: refused, and the engine's best named.
  await openPuzzle(g.id);
  // The engine's choice is not in the page before the answer.
  const shown = await page.evaluate(() => document.body.innerText);
  assert.ok(!shown.includes('best'), 'no best action shown before the answer');
  await page.screenshot({ path: join(SHOTS, `48-mistakes-puzzle-${site}.png`) });
  const refused = await answer('g8', 'f6');
  assert.match(refused, /That is Nf6 again, the blunder\. The engine's best: /);
  await page.screenshot({ path: join(SHOTS, `48-mistakes-refused-${site}.png`) });

  // Back to the reviewed game: the engine's best is accepted.
  await page.goto(seatLink(BASE, g));
  await page.waitForFunction(() => document.querySelector('#computer-review')?.dataset.status === 'done', null, { timeout: 20000 });
  await openPuzzle(g.id);
  const accepted = await answer(bm[1], bm[2]);
  assert.match(accepted, /Better action found! The engine agrees/);
  const puzzle = await call('GET', `/api/games/${gameId(page)}`);
  assert.equal(puzzle.body.puzzle.status, 'solved');
  assert.equal(puzzle.body.puzzle.better.answer.by, 'best');
  await page.screenshot({ path: join(SHOTS, `48-mistakes-solved-${site}.png`) });

  // Another answer is judged by the engine's search: 3... a6 lets the mate too.
  await page.goto(seatLink(BASE, g));
  await page.waitForFunction(() => document.querySelector('#computer-review')?.dataset.status === 'done', null, { timeout: 20000 });
  await openPuzzle(g.id);
  const a6 = await answer('a7', 'a6');
  assert.match(a6, /^Not better: your chances \d+%, with the best \d+%\. The engine's best: /);
  assert.deepEqual(errors, []);
});
