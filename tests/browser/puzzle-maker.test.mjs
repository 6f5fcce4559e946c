// Making puzzles: a position built in the editor (5x5, pieces placed by clicks) saved as
// "mate in 1" is proven and saved with its solution; a goal that is false is refused with the
// reason; the saved puzzle is listed, solved by playing the mate, exported as 5DPGN (goal
// header, solution as a variation) and imported again; a failed attempt says so once and is not
// recorded as a lost game.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, closeSession, square, move, submit, SHOTS, apiGet } from './helpers.mjs';

let session, page, errors, BASE;

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});

after(() => closeSession(session));

const B = [0, 1, 'white'];

async function place(tool, sq) {
  await page.locator(`#ed-palette button[data-tool="${tool}"]`).click();
  await square(page, B, sq).click();
  await page.locator(`#world .board [data-at="${sq}"]`).waitFor({ state: 'attached' });
}

async function saveAsPuzzle(mateIn, name = '') {
  await page.getByRole('button', { name: 'Save as puzzle', exact: true }).first().click();
  await page.locator('#puzzle-dialog').waitFor();
  await page.locator('#pz-name').fill(name);
  await page.locator('#pz-mate').selectOption(String(mateIn));
  await page.getByRole('button', { name: 'Prove and save', exact: true }).click();
  await page.waitForFunction(() => !document.querySelector('#pz-error').classList.contains('hidden') || /Saved/.test(document.querySelector('#pz-ok').textContent));
}

let puzzleId = null;

test('a position made in the editor: a false goal is refused with the reason, a true one is saved', async () => {
  await page.goto(`${BASE}/#/editor`);
  await page.locator('#editor-panel').waitFor();
  await page.locator('#ed-size').selectOption('5');
  await page.getByRole('button', { name: 'Clear board', exact: true }).click();
  await place('bK', 'e5');
  await place('wR', 'a1');
  // Without the white king the position is accepted (a side without a royal piece is never in
  // check): the goal is judged, and a lone rook has no mate in 1.
  await saveAsPuzzle(1);
  const err = await page.locator('#pz-error').textContent();
  assert.match(err, /White \(to move\) has no forced mate in 1/);
  await page.screenshot({ path: join(SHOTS, '40-puzzle-refused.png') });
  await page.locator('#pz-cancel').click();
  // With the king on e3, Ra5 mates.
  await place('wK', 'e3');
  assert.match(await page.locator('#ed-fen').inputValue(), /\[4k\*\/5\/4K\*\/5\/R\*4:0:1:w\]/);
  await saveAsPuzzle(1, 'Editor mate');
  assert.match(await page.locator('#pz-ok').textContent(), /Saved “Editor mate”: White mates in 1, proven\. Solution: 1\. Ra5/);
  puzzleId = await page.locator('#pz-ok').getAttribute('data-saved');
  await page.screenshot({ path: join(SHOTS, '41-puzzle-saved.png') });
  await page.locator('#pz-cancel').click();
  const list = await apiGet(BASE, '/api/puzzles');
  assert.ok(list.puzzles.some((p) => p.id === puzzleId && p.mate_in === 1 && p.to_move === 'white'));
});

test('a failed attempt says so once and is not a lost game; solving it is recorded', async () => {
  assert.ok(puzzleId, 'made by the previous test');
  await page.goto(BASE);
  await page.locator(`#puzzles-table button[data-puzzle-start="${puzzleId}"]`).click();
  await page.waitForURL(/#\/game\/\d+/);
  await square(page, B, 'a1').waitFor();
  // A wrong first action: the goal (mate in 1) is missed.
  await move(page, B, 'a1', B, 'a2');
  await submit(page);
  await page.locator('#gameover').waitFor({ state: 'visible' });
  const text = await page.locator('#play').innerText();
  assert.equal(text.match(/failed/gi).length, 1, `"failed" once in:\n${text}`);
  // This game by its id (other files, run at the same time, make games on this server too).
  const id = Number(page.url().match(/#\/game\/(\d+)/)[1]);
  const games = await apiGet(BASE, '/api/games');
  const failed = games.games.find((g) => g.id === id);
  assert.equal(failed.result, '*', 'not recorded as a loss');
  assert.equal(failed.termination, 'puzzle failed');
  // Solve it.
  await page.goto(BASE);
  await page.locator(`#puzzles-table button[data-puzzle-start="${puzzleId}"]`).click();
  await page.waitForURL(/#\/game\/\d+/);
  await square(page, B, 'a1').waitFor();
  await move(page, B, 'a1', B, 'a5');
  await submit(page);
  await page.locator('#gameover', { hasText: 'Puzzle solved' }).waitFor();
  // After solving, the position can be analysed.
  assert.equal(await page.getByRole('button', { name: 'Analyse', exact: true }).isEnabled(), true);
  await page.goto(BASE);
  await page.locator(`#puzzles-table tr[data-puzzle="${puzzleId}"] .status-solved`).waitFor();
});

test('a puzzle exports as 5DPGN with its goal and solution, and imports again (proven again)', async () => {
  await page.goto(BASE);
  await page.locator(`#puzzles-table button[data-puzzle-export="${puzzleId}"]`).click();
  await page.waitForFunction(() => document.querySelector('#export-text').value.length > 0);
  const text = await page.locator('#export-text').inputValue();
  assert.match(text, /\[Puzzle "mate-in-1"\]/);
  assert.match(text, /\[Goal "White mates in 1"\]/);
  assert.match(text, /\[Event "Editor mate"\]/);
  assert.match(text, /\(1\. Ra5[#+]?\)/);
  await page.locator('#export-close').click();
  await page.getByRole('button', { name: 'Import puzzle', exact: true }).click();
  await page.locator('#pz-text').fill(text.replace('Editor mate', 'Editor mate again'));
  await page.getByRole('button', { name: 'Prove and save', exact: true }).click();
  await page.locator('#pz-ok', { hasText: 'Saved “Editor mate again”' }).waitFor();
  await page.locator('#pz-cancel').click();
  await page.locator('#puzzles-table td', { hasText: 'Editor mate again' }).waitFor();
  // An imported record whose goal is false is refused.
  await page.getByRole('button', { name: 'Import puzzle', exact: true }).click();
  await page.locator('#pz-text').fill('[Puzzle "mate-in-1"]\n[Board "custom"]\n[Size "5x5"]\n[4k/5/5/5/K1R2:0:1:w]\n');
  await page.getByRole('button', { name: 'Prove and save', exact: true }).click();
  await page.locator('#pz-error', { hasText: 'no forced mate in 1' }).waitFor();
  await page.locator('#pz-cancel').click();
});

test('no console errors', () => {
  assert.deepEqual(errors.filter((e) => !/Failed to load resource.*(400|409)/.test(e)), []);
});
