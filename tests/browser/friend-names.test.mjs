// Names in "Play a friend" (issue 32, point 8): the creator's name is shown; the friend who opens
// the invite link is asked theirs (none: "Guest"); both names are in the players' bar of both
// seats and of spectators; a name with a control or bidirectional character is refused by the
// server. Served GUI only (the static site has no invites).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, closeSession, launch, gameId, SHOTS } from './helpers.mjs';

let session, page, errors, BASE;

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});
after(() => closeSession(session));

const names = (p) => p.evaluate(() => ['white', 'black'].map((s) => document.querySelector(`#p-${s} .name`).textContent));

async function invite(name, side) {
  await page.goto(`${BASE}/#/`);
  await page.locator('#friend-card').waitFor();
  await page.getByLabel('Your name in the friend game', { exact: true }).fill(name);
  await page.locator('#fr-side').selectOption(side);
  await page.getByRole('button', { name: 'Create invite', exact: true }).click();
  await page.waitForURL(/#\/game\/\d+/);
  await page.locator('#invite-link').waitFor();
  return { id: gameId(page), link: await page.locator('#invite-link').inputValue() };
}

test("the friend who joins is asked their name; both names show for both players and spectators", { skip: process.env.SITE === 'static' && 'no invites in the static site' }, async () => {
  const { id, link } = await invite('Ann', 'white');
  await page.waitForFunction(() => document.querySelector('#p-white .name').textContent === 'Ann');
  {
    const friend = await launch();
    try {
      await friend.page.goto(link);
      const dialog = friend.page.locator('#join-dialog');
      await dialog.waitFor();
      assert.equal(await friend.page.getByLabel('Your name in the game', { exact: true }).inputValue(), '');
      await friend.page.screenshot({ path: join(SHOTS, 'friend-names-ask.png') });
      await friend.page.getByLabel('Your name in the game', { exact: true }).fill('Bob');
      await friend.page.getByRole('button', { name: 'Join', exact: true }).click();
      await friend.page.locator('#world .board').first().waitFor();
      await friend.page.waitForFunction(() => document.querySelector('#p-black .name').textContent === 'Bob');
      assert.deepEqual(await names(friend.page), ['Ann', 'Bob']);
      assert.match(await friend.page.locator('#seat-line').textContent(), /You play Black/);
      // The creator's page learns it live.
      await page.waitForFunction(() => document.querySelector('#p-black .name').textContent === 'Bob');
      assert.deepEqual(await names(page), ['Ann', 'Bob']);
      await friend.page.screenshot({ path: join(SHOTS, 'friend-names-joined.png') });
      assert.deepEqual(friend.errors, []);
    } finally {
      await friend.ctx.close();
    }
  }
  // A spectator.
  const watcher = await launch({ viewport: { width: 390, height: 844 } });
  try {
    await watcher.page.goto(`${BASE}/#/game/${id}`);
    await watcher.page.locator('#world .board').first().waitFor();
    await watcher.page.waitForFunction(() => document.querySelector('#p-black .name').textContent === 'Bob');
    assert.deepEqual(await names(watcher.page), ['Ann', 'Bob']);
    assert.equal(await watcher.page.locator('#join-dialog').evaluate((d) => d.open), false, 'a spectator is not asked');
    await watcher.page.screenshot({ path: join(SHOTS, 'friend-names-spectator.png') });
  } finally {
    await watcher.ctx.close();
  }
});

test('a friend who gives no name is "Guest"; a name with a control character is refused', { skip: process.env.SITE === 'static' && 'no invites in the static site' }, async () => {
  const { link } = await invite('Cleo', 'black');
  const friend = await launch();
  try {
    await friend.page.goto(link);
    await friend.page.locator('#join-dialog').waitFor();
    await friend.page.keyboard.press('Escape');
    await friend.page.locator('#world .board').first().waitFor();
    await friend.page.waitForFunction(() => document.querySelector('#p-white .name').textContent === 'Guest');
    assert.deepEqual(await names(friend.page), ['Guest', 'Cleo']);
  } finally {
    await friend.ctx.close();
  }
  // The server checks the name strictly (as every name): a bidirectional control is a 400, and
  // the invite stays open.
  const { id, link: link2 } = await invite('Dan', 'white');
  const token = link2.split('/').pop();
  const r = await fetch(`${BASE}/api/games/${id}/join`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: BASE, 'X-Chess5d-Seat': token },
    body: JSON.stringify({ name: 'Eve\u202Eevil' }),
  });
  assert.equal(r.status, 400);
  assert.match((await r.json()).error, /name/);
  const ok = await fetch(`${BASE}/api/games/${id}/join`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: BASE, 'X-Chess5d-Seat': token },
    body: JSON.stringify({ name: 'Eve' }),
  });
  assert.equal(ok.status, 200, 'the invite was not used by the refused request');
  assert.equal((await ok.json()).players.black.display, 'Eve');
  assert.deepEqual(errors, []);
});
