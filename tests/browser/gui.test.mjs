// The main browser walk-through: a whole game to checkmate by clicks (with a branch and a hop),
// Submit disabled while a mandatory board is unplayed, undo, an import error, a few actions
// against the engine, a puzzle, and screenshots of the main screens.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, closeSession, board, square, move, submit, gameId, apiAnswer, SHOTS } from './helpers.mjs';

let session, page, errors, BASE;

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});

after(() => closeSession(session));

async function importText(text) {
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.locator('#import-text').fill(text);
  await page.getByRole('button', { name: 'Load', exact: true }).click();
}

test('home page lists variants, puzzles and has the main buttons', async () => {
  await page.goto(BASE);
  for (const name of ['New game', 'Import', 'Games', 'Puzzles']) {
    await page.getByRole('button', { name, exact: true }).waitFor();
  }
  assert.ok(await page.locator('#ng-variant option').count() >= 30);
  await page.locator('#puzzles-table tbody tr').first().waitFor();
  await page.screenshot({ path: join(SHOTS, '01-home.png') });
});

test('import with an error shows the message with line and column', async () => {
  await page.goto(BASE);
  await importText('[Board "Standard"]\n\n1. e4 / e5\n2. Qh9 / Nc6\n');
  const err = page.locator('#import-error');
  await err.waitFor({ state: 'visible' });
  const text = await err.textContent();
  assert.match(text, /line 4, column 4/);
  await page.screenshot({ path: join(SHOTS, '02-import-error.png') });
  await page.locator('#import-cancel').click();
});

test('a whole game to checkmate by clicks, with a branch, a hop, Submit rules and undo', async () => {
  await page.goto(BASE);
  await importText('[Board "custom"]\n[Size "5x5"]\n[4k/5/5/5/K1R2:0:1:w]\n');
  await page.waitForURL(/#\/game\/\d+/);
  const submitBtn = page.getByRole('button', { name: 'Submit', exact: true });
  const undoBtn = page.getByRole('button', { name: 'Undo', exact: true });
  for (const name of ['Submit', 'Undo', 'Flip', 'Export', 'New game', 'Import']) {
    await page.getByRole('button', { name, exact: true }).waitFor();
  }
  await board(page, [0, 1, 'white']).waitFor();
  assert.equal(await submitBtn.isDisabled(), true, 'no move yet: Submit disabled');

  // 1. Ka2 / Kd4
  await move(page, [0, 1, 'white'], 'a1', [0, 1, 'white'], 'a2');
  assert.equal(await submitBtn.isEnabled(), true);
  await submit(page);
  await move(page, [0, 1, 'black'], 'e5', [0, 1, 'black'], 'd4');
  await submit(page);
  // 2. (0T2)Ka2>>(0T1)a2: a branching jump creates timeline 1.
  await move(page, [0, 2, 'white'], 'a2', [0, 1, 'white'], 'a2');
  await board(page, [1, 1, 'black']).waitFor();
  await submit(page);
  await page.screenshot({ path: join(SHOTS, '03-branch.png') });
  // ... / (0T2)Kd4>(1T1)e3: a hop onto the new timeline.
  await move(page, [0, 2, 'black'], 'd4', [1, 1, 'black'], 'e3');
  assert.equal(await board(page, [1, 2, 'white']).locator('[data-piece="K"][data-piece-color="black"][data-at="e3"]').count(), 1);
  await submit(page);
  // 3. (0T3)Rb1 first: (1T2) is a mandatory board still unplayed, so Submit stays disabled.
  await move(page, [0, 3, 'white'], 'c1', [0, 3, 'white'], 'b1');
  assert.equal(await board(page, [1, 2, 'white']).getAttribute('data-mandatory'), 'true');
  assert.equal(await submitBtn.isDisabled(), true, 'mandatory board unplayed: Submit disabled');
  await page.screenshot({ path: join(SHOTS, '04-mandatory.png') });
  // Undo takes the rook move back.
  assert.equal(await undoBtn.isEnabled(), true);
  await Promise.all([apiAnswer(page, '/undo'), undoBtn.click()]);
  // (The page draws the answer after it arrives: wait for the drawing, then check.)
  await board(page, [0, 3, 'black']).first().waitFor({ state: 'detached', timeout: 5000 }).catch(() => {});
  assert.equal(await board(page, [0, 3, 'black']).count(), 0, 'undo removed the new board');
  assert.equal(await undoBtn.isDisabled(), true);
  await move(page, [0, 3, 'white'], 'c1', [0, 3, 'white'], 'b1');
  await move(page, [1, 2, 'white'], 'c1', [1, 2, 'white'], 'e1');
  assert.equal(await submitBtn.isEnabled(), true);
  await submit(page);
  const over = page.locator('#gameover');
  await over.waitFor({ state: 'visible' });
  assert.match(await over.textContent(), /Checkmate: White wins \(1-0\)/);
  assert.equal(await submitBtn.isDisabled(), true);
  // The notation panel has the game, and clicking an action reviews it.
  const pgn = await page.evaluate(() => fetch(`/api/games/${location.hash.split('/')[2]}/pgn`).then((r) => r.text()));
  assert.match(pgn, /\(0T2\)Ka2>>\(0T1\)a2/);
  assert.match(pgn, /\(0T2\)Kd4>\(1T1\)e3/);
  assert.match(pgn, /#/);
  await page.screenshot({ path: join(SHOTS, '05-checkmate.png') });
  await page.locator('#notation .act[data-index="2"]').click();
  await page.locator('#review-bar').waitFor({ state: 'visible' });
  assert.equal(await board(page, [1, 1, 'black']).count(), 0, 'after action 2 there is one timeline');
  await page.keyboard.press('ArrowRight');
  await board(page, [1, 1, 'black']).waitFor();
  await page.keyboard.press('End');
  await page.locator('#review-bar').waitFor({ state: 'hidden' });
  // Export shows the 5DPGN.
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('#export-text').value.length > 0);
  assert.match(await page.locator('#export-text').inputValue(), /1-0/);
  await page.locator('#export-close').click();
});

test('a few actions against the engine', async () => {
  await page.goto(BASE);
  await page.locator('#ng-variant').selectOption('Standard');
  const engineOpt = await page.locator('#ng-black option[value^="engine:"]').first().getAttribute('value');
  await page.locator('#ng-black').selectOption(engineOpt);
  await page.locator('#ng-black-bot').selectOption('greedy');
  await page.locator('#ng-black-ms').fill('200');
  await page.getByRole('button', { name: 'Start game', exact: true }).click();
  await page.waitForURL(/#\/game\/\d+/);
  await move(page, [0, 1, 'white'], 'e2', [0, 1, 'white'], 'e4');
  await submit(page);
  await board(page, [0, 2, 'white']).waitFor({ timeout: 20000 });
  await move(page, [0, 2, 'white'], 'g1', [0, 2, 'white'], 'f3');
  await submit(page);
  await board(page, [0, 3, 'white']).waitFor({ timeout: 20000 });
  const id = gameId(page);
  const state = await page.evaluate((id) => fetch(`/api/games/${id}`).then((r) => r.json()), id);
  assert.equal(state.action_count, 4);
  assert.equal(state.engine_error, null);
  await page.screenshot({ path: join(SHOTS, '06-engine.png') });
});

test('solve a puzzle', async () => {
  await page.goto(BASE);
  await page.getByRole('button', { name: 'Start puzzle Rook tactics 1', exact: true }).click();
  await page.waitForURL(/#\/game\/\d+/);
  await move(page, [0, 3, 'white'], 'e1', [0, 3, 'white'], 'e5');
  await submit(page);
  const over = page.locator('#gameover');
  await over.waitFor({ state: 'visible' });
  assert.match(await over.textContent(), /Puzzle solved/);
  await page.screenshot({ path: join(SHOTS, '07-puzzle.png') });
  await page.goto(BASE);
  await page.locator('#puzzles-table tr[data-puzzle="rook-tactics-1"] .status-solved').waitFor();
  await page.screenshot({ path: join(SHOTS, '08-lists.png') });
});

test('no console errors', () => {
  assert.deepEqual(errors.filter((e) => !/Failed to load resource.*(400|409)/.test(e)), []);
});
