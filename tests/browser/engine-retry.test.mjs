// An engine that fails is reported with a "Retry engine" button that restarts it: the server is
// started with a fake 5DUCI engine (a shell script) that fails on its first start and then
// answers ...e5 to everything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, dirname } from 'node:path';
import { launch, startServer, freshDb, board, move, submit, SHOTS } from './helpers.mjs';

test('an engine failure is shown and Retry engine restarts the engine', async () => {
  const db = freshDb();
  const marker = join(dirname(db), 'engine-started');
  const script = `if [ -e '${marker}' ]; then while read -r line; do case "$line" in `
    + `5duci) echo 'id name flaky'; echo 5duciok;; isready) echo readyok;; `
    + `go*) echo 'bestmove (0T1)e7(0T1)e5';; quit) echo bye; exit 0;; esac; done; `
    + `else touch '${marker}'; echo 'no engine today' >&2; exit 3; fi`;
  const server = await startServer(db, ['--engine', `flaky=${script}`]);
  const { ctx, page, errors } = await launch();
  try {
    await page.goto(server.url);
    await page.locator('#ng-variant').selectOption('Standard');
    await page.locator('#ng-black').selectOption('engine:flaky');
    await page.getByRole('button', { name: 'Start game', exact: true }).click();
    await page.waitForURL(/#\/game\/\d+/);
    await move(page, [0, 1, 'white'], 'e2', [0, 1, 'white'], 'e4');
    await submit(page);
    const problem = page.locator('#engine-problem');
    await problem.waitFor({ state: 'visible', timeout: 20000 });
    assert.match(await problem.textContent(), /Black's engine failed: .*no engine today/);
    await page.screenshot({ path: join(SHOTS, '13-engine-problem.png') });
    await page.getByRole('button', { name: 'Retry engine', exact: true }).click();
    await board(page, [0, 2, 'white']).waitFor({ timeout: 20000 });
    await problem.waitFor({ state: 'hidden' });
    assert.equal(await board(page, [0, 1, 'white'].with(2, 'black')).count(), 1);
    assert.deepEqual(errors.filter((e) => !/Failed to load resource.*(400|409)/.test(e)), []);
  } finally {
    await ctx.close();
    await server.stop();
  }
});
