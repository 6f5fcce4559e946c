// "Thinking" in both builds (issue 32, item 3): while the engine of the side to move searches
// (the state's `engine_busy`), the status line says so with the seconds it has been at it,
// counting on (the state's `thinking_ms`, the same in the served and the static build).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSession, closeSession, createGame, seatLink, board, move, submit, apiGet } from './helpers.mjs';

let session, page, errors, BASE;

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});

after(() => closeSession(session));

const status = () => page.locator('#status').textContent();
const seconds = async () => Number((await status()).match(/is thinking… (\d+) s\./)?.[1] ?? NaN);

test('the engine\'s think: "Black (engine) is thinking… N s", N counting on, then Black\'s action', async () => {
  const g = await createGame(BASE, { variant: 'Standard', black: { type: 'engine', bot: 'alphabeta', movetime_ms: 3500 } });
  await page.goto(seatLink(BASE, g));
  await board(page, [0, 1, 'white']).waitFor();
  await move(page, [0, 1, 'white'], 'e2', [0, 1, 'white'], 'e4');
  await submit(page);
  await page.waitForFunction(() => /^Black \(engine\) is thinking… \d+ s\. The present is turn 1\./.test(document.querySelector('#status').textContent), null, { timeout: 5000 });
  const first = await seconds();
  assert.ok(first <= 2, `starts near 0 s: ${await status()}`);
  // The state says how long it has been thinking (both builds: the game service).
  const st = await apiGet(BASE, `/api/games/${g.id}`, g);
  if (st.engine_busy) assert.equal(typeof st.thinking_ms, 'number', JSON.stringify({ engine_busy: st.engine_busy, thinking_ms: st.thinking_ms }));
  // It ticks: a second later the count is higher.
  await page.waitForFunction((n) => {
    const m = document.querySelector('#status').textContent.match(/is thinking… (\d+) s\./);
    return m && Number(m[1]) >= n + 1;
  }, first, { timeout: 3000 });
  // The action comes; the status says whose move it is, and nothing of thinking.
  await page.waitForFunction(() => /^White to move\./.test(document.querySelector('#status').textContent), null, { timeout: 20000 });
  assert.doesNotMatch(await status(), /thinking/);
  const after = await apiGet(BASE, `/api/games/${g.id}`, g);
  assert.equal(after.engine_busy, false);
  assert.equal(after.thinking_ms, null);
});

test('no console errors', () => {
  assert.deepEqual(errors.filter((e) => !/Failed to load resource.*(400|409)/.test(e)), []);
});
