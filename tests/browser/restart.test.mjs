// Saved games survive a server restart (SIGTERM, then a new server on the same database).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, startServer, freshDb, board, seatLink, SHOTS } from './helpers.mjs';

test('a game survives a restart and can be resumed from the list', async () => {
  const db = freshDb();
  let server = await startServer(db);
  let seat = {};
  const post = (path, body) => fetch(server.url + path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...seat }, body: body === undefined ? undefined : JSON.stringify(body) })
    .then(async (r) => { const j = await r.json(); assert.ok(r.ok, JSON.stringify(j)); return j; });
  const g = await post('/api/games', { variant: 'Standard', white: { type: 'human', name: 'Alice' }, black: { type: 'human', name: 'Bob' } });
  seat = { 'X-Chess5d-Seat': g.seat.token };
  await post(`/api/games/${g.id}/move`, { move: '(0T1)e2(0T1)e4' });
  await post(`/api/games/${g.id}/submit`);
  const { code, sig } = await server.stop();
  assert.ok(code === 0 || sig === 'SIGTERM', `clean exit, got ${code} ${sig}`);
  assert.match(server.output(), /database closed/);

  server = await startServer(db);
  const { ctx, page } = await launch();
  try {
    // The page holds the creator's seat (as the browser that made the game would).
    await page.goto(seatLink(server.url, g));
    await board(page, [0, 1, 'black']).waitFor();
    await page.goto(`${server.url}/#/`);
    const row = page.locator(`#games-table tr[data-game="${g.id}"]`);
    await row.waitFor();
    assert.match(await row.textContent(), /Alice.*Bob.*Standard/);
    await row.getByRole('button', { name: `Open game ${g.id}` }).click();
    await board(page, [0, 1, 'black']).waitFor();
    assert.equal(await board(page, [0, 1, 'black']).locator('[data-piece="P"][data-at="e4"]').count(), 1);
    // Resume: Black plays on.
    await page.locator('#world .board[data-l="0"][data-t="1"][data-color="black"] rect[data-square="e7"]').click();
    await page.locator('#world .board[data-l="0"][data-t="1"][data-color="black"] rect[data-square="e5"][data-dest]').click();
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await board(page, [0, 2, 'white']).waitFor();
    await page.screenshot({ path: join(SHOTS, '09-after-restart.png') });
  } finally {
    await ctx.close();
    await server.stop();
  }
});
