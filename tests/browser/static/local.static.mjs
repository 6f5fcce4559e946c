// The static site (js/site served by `python3 -m http.server`, see run.sh): a new Standard game
// against the engine by clicks, the engine answers from its Web Worker, the game survives a
// reload (IndexedDB), and no request goes to /api/ (nor any other server than the static host).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, board, move, submit, gameId, SHOTS } from '../helpers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const BASE = process.env.BASE_URL;
let ctx, page, errors;
const requests = [];

before(async () => {
  if (!BASE) throw new Error('BASE_URL is not set (run tests/browser/static/run.sh)');
  ({ ctx, page, errors } = await launch());
  page.on('request', (r) => requests.push(r.url()));
  ctx.on('request', (r) => requests.push(r.url())); // the worker's fetches too
});
after(async () => { await ctx?.close(); });

test('a new Standard game against the engine, e2-e4 by clicks, the engine answers, a reload keeps it', async () => {
  await page.goto(BASE);
  await page.locator('#ng-variant').selectOption('Standard');
  const engineOpt = await page.locator('#ng-black option[value^="engine:"]').first().getAttribute('value');
  assert.ok(engineOpt, 'an engine is offered for Black');
  await page.locator('#ng-black').selectOption(engineOpt);
  await page.locator('#ng-black-bot').selectOption('alphabeta');
  await page.locator('#ng-black-ms').fill('300');
  await page.getByRole('button', { name: 'Start game', exact: true }).click();
  await page.waitForURL(/#\/game\/\d+/);
  await move(page, [0, 1, 'white'], 'e2', [0, 1, 'white'], 'e4');
  await submit(page);
  // The engine's reply is Black's board (0T2): its board leads to White's T2 board.
  await board(page, [0, 2, 'white']).waitFor({ timeout: 20000 });
  const id = gameId(page);
  const before = await page.evaluate((id) => fetch(`/api/games/${id}`).then((r) => r.json()), id);
  assert.equal(before.action_count, 2);
  assert.equal(before.engine_error, null);
  assert.match(before.actions[0].text, /e4/);
  await page.reload();
  await board(page, [0, 2, 'white']).waitFor({ timeout: 20000 });
  const after = await page.evaluate((id) => fetch(`/api/games/${id}`).then((r) => r.json()), id);
  assert.equal(after.action_count, 2, 'the game is still there after a reload');
  assert.deepEqual(after.actions, before.actions);
  assert.equal(after.human_to_move, true);
  await page.screenshot({ path: join(SHOTS, 'static-01-engine.png') });
  await page.goto(BASE);
  // (the computer's seat names its level, or its bot and time off the levels: issue 48)
  await page.locator(`text=/chess5d(, level \\d| \\(alphabeta, )/`).first().waitFor({ timeout: 5000 });
  assert.deepEqual(errors, []);
});

test('an imported game of 144 timelines opens with readable boards, and review steps through it', async () => {
  const text = readFileSync(join(here, '../data/huge-multiverse.5dpgn'), 'utf8');
  await page.goto(BASE);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.locator('#import-text').fill(text);
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  await page.waitForURL(/#\/game\/\d+/, { timeout: 30000 });
  const id = gameId(page);
  const g = await page.evaluate((id) => fetch(`/api/games/${id}`).then((r) => r.json()), id);
  assert.ok(g.timelines.length >= 100, `${g.timelines.length} timelines`);
  await page.locator('#world .board rect[data-square]').first().waitFor({ timeout: 20000 });
  await page.waitForFunction(() => document.querySelector('#view').dataset.camera !== 'moving');
  // Readable: the boards in full detail inside the view have squares of 24 px or more.
  const near = await page.evaluate(() => {
    const v = document.querySelector('#view').getBoundingClientRect();
    return [...document.querySelectorAll('#world .board[data-lod="near"]')].map((b) => {
      const r = b.querySelector('rect[data-square]').getBoundingClientRect();
      const w = b.querySelector('.board-outline').getBoundingClientRect();
      return { sq: r.width, inside: w.left >= v.left - 1 && w.right <= v.right + 1 && w.top >= v.top - 1 && w.bottom <= v.bottom + 1 };
    }).filter((b) => b.inside);
  });
  assert.ok(near.length >= 1, 'a board in full detail in view');
  assert.ok(near.every((b) => b.sq >= 24), `squares of ${near.map((b) => b.sq.toFixed(0)).join(', ')} px`);
  await page.screenshot({ path: join(SHOTS, 'static-02-huge-import.png') });
  // Review: back one action, then to the start, then to the end.
  const n = g.action_count;
  await page.locator('#view').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((n) => document.querySelector('#play').dataset.review === String(n - 1), n);
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('#play').dataset.review === '0');
  await board(page, [0, 1, 'white']).waitFor();
  const start = await page.evaluate((id) => fetch(`/api/games/${id}?at=0`).then((r) => r.json()), id);
  assert.equal(start.boards.length, 1, 'the start position has one board');
  await page.keyboard.press('End');
  await page.waitForFunction((n) => document.querySelector('#play').dataset.review === String(n), n);
  await page.screenshot({ path: join(SHOTS, 'static-03-huge-review.png') });
  assert.deepEqual(errors, []);
});

test('a puzzle is solved against the engine, and the list says so after a reload', async () => {
  await page.goto(BASE);
  await page.getByRole('button', { name: 'Start puzzle Rook tactics 1', exact: true }).click();
  await page.waitForURL(/#\/game\/\d+/);
  await move(page, [0, 3, 'white'], 'e1', [0, 3, 'white'], 'e5');
  await submit(page);
  const over = page.locator('#gameover');
  await over.waitFor({ state: 'visible' });
  assert.match(await over.textContent(), /Puzzle solved/);
  await page.goto(BASE);
  await page.reload();
  await page.locator('#puzzles-table tr[data-puzzle="rook-tactics-1"] .status-solved').waitFor();
});

test('human against human with a clock: the clock runs for the side to move, and every game exports as one 5DPGN', async () => {
  await page.goto(BASE);
  // White's clock runs from the game's creation to the submit: at most `took` ms, however slow
  // the machine. With the increment White has 61,000 ms less what it spent, so at least
  // 61,000 - took; without it, about 1,000 ms less than that.
  const t0 = Date.now();
  const g = await page.evaluate(() => fetch('/api/games', { method: 'POST', body: JSON.stringify({ variant: 'Standard', clock: { initial_ms: 60000, increment_ms: 1000 } }) }).then((r) => r.json()));
  await page.goto(`${BASE}/#/game/${g.id}`);
  await move(page, [0, 1, 'white'], 'd2', [0, 1, 'white'], 'd4');
  await submit(page);
  await page.waitForTimeout(300);
  const took = Date.now() - t0;
  const s = await page.evaluate((id) => fetch(`/api/games/${id}`).then((r) => r.json()), g.id);
  assert.equal(s.clock.running, true);
  assert.ok(s.clock.white_ms >= 61000 - took && s.clock.white_ms <= 61000, `White has ${s.clock.white_ms} ms after the increment, ${took} ms after the game was made`);
  assert.ok(s.clock.black_ms < 60000, `Black's clock runs: ${s.clock.black_ms} ms`);
  const all = await page.evaluate(() => window.chess5dBackend.then((b) => b.exportAll()));
  const { games } = await page.evaluate(() => fetch('/api/games').then((r) => r.json()));
  assert.equal(games.length, 4, 'engine game, import, puzzle, clock game');
  assert.equal((all.match(/^\[White /gm) || []).length, 4, 'one record per saved game');
  assert.match(all, /^1\. .*d4/m, 'the clock game is in the export');
});

test('Analyse: eval, depth and best line from the engine in a Web Worker, a move tried, the variation exported', async () => {
  await page.goto(BASE);
  const g = await page.evaluate(() => fetch('/api/games', { method: 'POST', body: '{}' }).then((r) => r.json()));
  await page.goto(`${BASE}/#/game/${g.id}`);
  await board(page, [0, 1, 'white']).waitFor();
  const t0 = Date.now();
  await page.getByRole('button', { name: 'Analyse', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('[data-eval]')?.dataset.eval && document.querySelector('[data-pv]')?.dataset.pv, null, { timeout: 5000 });
  console.log(`# eval and best line after ${Date.now() - t0} ms`);
  assert.match(await page.locator('[data-eval]').getAttribute('data-eval'), /^(-?\d+|mate -?\d+)$/);
  assert.match(await page.locator('#eval-depth').textContent(), /depth \d+/);
  // The page stays responsive while the engine thinks (it is in a worker): a frame within 100 ms.
  const frame = await page.evaluate(() => new Promise((r) => { const t = performance.now(); requestAnimationFrame(() => r(performance.now() - t)); }));
  assert.ok(frame < 100, `a frame after ${frame.toFixed(0)} ms`);
  await move(page, [0, 1, 'white'], 'd2', [0, 1, 'white'], 'd4');
  await submit(page);
  await page.locator('#analysis-tried', { hasText: '1 action tried' }).waitFor();
  await page.getByRole('button', { name: 'Export variation', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('#export-text').value.length > 0);
  assert.match(await page.locator('#export-text').inputValue(), /\(1\. d4\)/);
  await page.locator('#export-close').click();
  const game = await page.evaluate((id) => fetch(`/api/games/${id}`).then((r) => r.json()), g.id);
  assert.equal(game.action_count, 0, 'the game itself is unchanged');
});

test('the puzzle maker proves the goal in a worker, refuses a false one with the reason, and the made puzzle is played', async () => {
  await page.goto(BASE);
  const pos = (king) => `[Board "custom"]\n[Size "5x5"]\n[Promotions "Q,R,B,N"]\n[4k*/5/${king}/5/R*4:0:1:w]\n`;
  const call = (path, body) => page.evaluate(([p, b]) => fetch(p, { method: 'POST', body: JSON.stringify(b) }).then(async (r) => ({ status: r.status, body: await r.json() })), [path, body]);
  const no = await call('/api/user-puzzles', { import: pos('K4'), mate_in: 1 });
  assert.equal(no.status, 400);
  assert.match(no.body.error, /not saved: White \(to move\) has no forced mate in 1/);
  const yes = await call('/api/user-puzzles', { import: pos('4K*'), mate_in: 1, name: 'Corner mate' });
  assert.equal(yes.status, 201, JSON.stringify(yes.body));
  assert.equal(yes.body.id, 'user-1');
  assert.match(yes.body.pgn, /\[Goal "White mates in 1"\][^]*\(1\. Ra5\)/);
  await page.reload();
  await page.locator('#puzzles-table tr[data-puzzle="user-1"]').waitFor();
  const started = await call('/api/puzzles/user-1', {});
  assert.equal(started.body.action_count, 0, 'posed before its solution');
  const id = started.body.id;
  await call(`/api/games/${id}/move`, { move: '(0T1)a1(0T1)a5' });
  const done = await call(`/api/games/${id}/submit`, {});
  assert.equal(done.body.puzzle.status, 'solved');
});

test('no request goes to /api/ nor away from the static host', async () => {
  assert.ok(requests.length > 0, 'the page was loaded');
  const api = requests.filter((u) => new URL(u).pathname.startsWith('/api/'));
  assert.deepEqual(api, [], 'no /api/ request');
  const away = requests.filter((u) => !u.startsWith(BASE) && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(away, [], 'nothing from elsewhere');
});
