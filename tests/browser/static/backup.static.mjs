// The static site's games live in one browser (issue 32, point 7): "Back up games" writes them
// all as one multi-game 5DPGN, and "Restore games" makes them again in another browser profile,
// each with its actions and its result (a resignation too, which no position shows).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launch } from '../helpers.mjs';

const BASE = process.env.BASE_URL;
const open = [];
after(async () => { for (const ctx of open) await ctx.close(); });

const call = (page, method, path, body) => page.evaluate(([m, p, b]) => fetch(p, { method: m, body: b && JSON.stringify(b) })
  .then((r) => r.json()), [method, path, body]);

test('every game backed up in one file is restored in a fresh profile, with its result', async () => {
  if (!BASE) throw new Error('BASE_URL is not set (run tests/browser/static/run.sh)');
  const first = await launch();
  open.push(first.ctx);
  const page = first.page;
  await page.goto(BASE);
  // Three games: one played on, one resigned, one imported with time travel.
  const a = await call(page, 'POST', '/api/games', {});
  await call(page, 'POST', `/api/games/${a.id}/move`, { move: '(0T1)e2(0T1)e4' });
  await call(page, 'POST', `/api/games/${a.id}/submit`, {});
  const b = await call(page, 'POST', '/api/games', { white: { type: 'human', name: 'Ann' } });
  await call(page, 'POST', `/api/games/${b.id}/resign`, { color: 'black' });
  await call(page, 'POST', '/api/games', { import: '[Board "Standard"]\n\n1. e4 / a5\n2. Nf3 / b5\n3. (0T3)Nf3>>(0T1)f4~ / (1T1)a5\n' });
  const before = (await call(page, 'GET', '/api/games')).games;
  assert.equal(before.length, 3);
  await page.reload();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Back up games' }).click()]);
  await page.locator('#games-backup-status', { hasText: '3 games written' }).waitFor();
  const file = await download.path();
  assert.equal((readFileSync(file, 'utf8').match(/^\[White /gm) || []).length, 3);

  const second = await launch();
  open.push(second.ctx);
  const fresh = second.page;
  await fresh.goto(BASE);
  assert.equal((await call(fresh, 'GET', '/api/games')).games.length, 0, 'a fresh profile has no games');
  await fresh.locator('#restore-file').setInputFiles(file);
  await fresh.locator('#games-backup-status', { hasText: '3 games restored' }).waitFor();
  await fresh.locator('#games-table tbody tr[data-game]').nth(2).waitFor();
  const after = (await call(fresh, 'GET', '/api/games')).games;
  const key = (g) => [g.white, g.black, g.result, g.termination, g.actions, g.variant].join('|');
  assert.deepEqual(after.map(key).sort(), before.map(key).sort());
  // They are saved: a reload keeps them.
  await fresh.reload();
  assert.equal((await call(fresh, 'GET', '/api/games')).games.length, 3);
  // A file that holds no game says so.
  await fresh.locator('#restore-file').setInputFiles({ name: 'bad.5dpgn', mimeType: 'text/plain', buffer: Buffer.from('[Board "Standard"]\n\n1. e9 / e5\n') });
  await fresh.locator('#games-backup-status', { hasText: '0 games restored from bad.5dpgn; 1 not read: game 1 (line' }).waitFor();
  assert.deepEqual([...first.errors, ...second.errors].filter((e) => !/status of 400/.test(e)), []);
});
