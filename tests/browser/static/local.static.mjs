// The static site (js/site served by `python3 -m http.server`, see run.sh): a new Standard game
// against the engine by clicks, the engine answers from its Web Worker, the game survives a
// reload (IndexedDB), and no request goes to /api/ (nor any other server than the static host).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, board, move, submit, gameId, SHOTS } from '../helpers.mjs';

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
  await page.locator(`text=/chess5d \\(alphabeta\\)/`).first().waitFor({ timeout: 5000 });
  assert.deepEqual(errors, []);
});

test('no request goes to /api/ nor away from the static host', async () => {
  assert.ok(requests.length > 0, 'the page was loaded');
  const api = requests.filter((u) => new URL(u).pathname.startsWith('/api/'));
  assert.deepEqual(api, [], 'no /api/ request');
  const away = requests.filter((u) => !u.startsWith(BASE) && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(away, [], 'nothing from elsewhere');
});
