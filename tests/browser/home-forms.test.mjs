// The home page's forms (issue 32, point 8): a clock on "Play the computer", the player's name
// in "Play a friend" (remembered), and a dialog that closes when the page changes under it.
// Served GUI and static site (which has no "Play a friend": that test is skipped there).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSession, closeSession, apiGet, gameId } from './helpers.mjs';

let session, page, errors, BASE;
let computerGame = null;
const isStatic = process.env.SITE === 'static';

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});
after(() => closeSession(session));

test('Play the computer with a clock', async () => {
  await page.goto(BASE);
  await page.locator('#pc-variant option').first().waitFor({ state: 'attached' });
  await page.getByLabel('Computer game clock minutes').fill('3');
  await page.getByLabel('Computer game clock increment').fill('2');
  await page.getByRole('button', { name: 'Play the computer', exact: true }).click();
  await page.waitForURL(/#\/game\/\d+/);
  computerGame = gameId(page);
  const s = await apiGet(BASE, `/api/games/${computerGame}`);
  assert.equal(s.clock?.initial_ms, 180000, JSON.stringify(s.clock));
  assert.equal(s.clock?.increment_ms, 2000);
});

test('Play a friend under your name, remembered', { skip: isStatic && 'no online play in the static site' }, async () => {
  await page.goto(BASE);
  await page.locator('#friend-card').waitFor();
  await page.getByLabel('Your name in the friend game', { exact: true }).fill('Ann');
  await page.locator('#fr-side').selectOption('black');
  await page.getByRole('button', { name: 'Create invite', exact: true }).click();
  await page.waitForURL(/#\/game\/\d+/);
  const s = await apiGet(BASE, `/api/games/${gameId(page)}`);
  assert.equal(s.players.black.display, 'Ann');
  await page.goto(`${BASE}/#/`);
  await page.reload();
  assert.equal(await page.getByLabel('Your name in the friend game', { exact: true }).inputValue(), 'Ann');
});

test('a dialog closes when the page changes under it', async () => {
  await page.goto(`${BASE}/#/`);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  assert.equal(await page.locator('#import-dialog').evaluate((d) => d.open), true);
  // The page changes under it (a link followed, the back button): a game opens.
  await page.evaluate((id) => { location.hash = `#/game/${id}`; }, computerGame);
  await page.locator('#play').waitFor();
  await page.waitForFunction(() => !document.querySelector('#import-dialog').open);
  assert.deepEqual(errors, []);
});
