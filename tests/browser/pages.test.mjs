// The pages around the game: the new-game form shows engine fields only for engine players and
// clock fields only with a clock; Delete asks first; an unknown game id says "no such game" with
// a link home; and a phone-size run (390x844, touch): the multiverse takes the width, the side
// panel is below it, e2-e4 is played by two taps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, closeSession, launch, square, board, SHOTS, seatLink } from './helpers.mjs';

let session, page, errors, BASE;

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});

after(() => closeSession(session));

test('new-game form: engine fields only for engine players, clock fields only with a clock', async () => {
  await page.goto(BASE);
  await page.locator('#ng-white option').nth(1).waitFor({ state: 'attached' });
  const visible = (sel) => page.locator(sel).isVisible();
  assert.equal(await visible('#ng-white-bot'), false);
  assert.equal(await visible('#ng-black-ms'), false);
  assert.equal(await visible('#ng-minutes'), false);
  const engine = await page.locator('#ng-black option').nth(1).getAttribute('value');
  await page.locator('#ng-black').selectOption(engine);
  assert.equal(await visible('#ng-black-bot'), true);
  assert.equal(await visible('#ng-black-ms'), true);
  assert.equal(await visible('#ng-white-bot'), false);
  await page.locator('#ng-clock').check();
  assert.equal(await visible('#ng-minutes'), true);
  assert.equal(await visible('#ng-inc'), true);
  await page.screenshot({ path: join(SHOTS, '50-new-game-form.png') });
  await page.locator('#ng-clock').uncheck();
  assert.equal(await visible('#ng-minutes'), false);
  await page.locator('#ng-black').selectOption('human');
  assert.equal(await visible('#ng-black-bot'), false);
});

test('Delete asks for confirmation', async () => {
  const g = await fetch(`${BASE}/api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }).then((r) => r.json());
  await page.goto(seatLink(BASE, g)); // the page keeps the creator's seat: only its holder may delete
  await board(page, [0, 1, 'white']).waitFor();
  await page.goto(BASE);
  const del = page.getByRole('button', { name: `Delete game ${g.id}`, exact: true });
  await del.waitFor();
  page.once('dialog', (d) => d.dismiss());
  await del.click();
  await page.waitForTimeout(300);
  assert.equal((await fetch(`${BASE}/api/games/${g.id}`)).status, 200, 'kept after Cancel');
  page.once('dialog', (d) => { assert.match(d.message(), /Delete game/); d.accept(); });
  await Promise.all([page.waitForResponse((r) => r.request().method() === 'DELETE'), del.click()]);
  assert.equal((await fetch(`${BASE}/api/games/${g.id}`)).status, 404, 'deleted after OK');
});

test('an unknown game id shows "no such game" with a link home', async () => {
  await page.goto(`${BASE}/#/game/987654`);
  await page.getByRole('heading', { name: 'No such game' }).waitFor();
  assert.equal(await page.locator('#play').isVisible(), false, 'no playable page');
  assert.equal(await page.locator('#world .board').count(), 0);
  await page.screenshot({ path: join(SHOTS, '51-no-such-game.png') });
  await page.getByRole('link', { name: 'Back to the home page' }).click();
  await page.locator('#new-game-card').waitFor();
});

test('a phone (390x844, touch): the view uses the width, the panel is below, e2-e4 by taps', async () => {
  const phone = await launch({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  try {
    const p = phone.page;
    const g = await fetch(`${BASE}/api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }).then((r) => r.json());
    await p.goto(seatLink(BASE, g));
    await board(p, [0, 1, 'white']).waitFor();
    const view = await p.locator('#view').boundingBox();
    const side = await p.locator('#side').boundingBox();
    assert.ok(view.width >= 380, `view width ${view.width}`);
    assert.ok(side.y >= view.y + view.height - 1, 'side panel below the view');
    const sq = await square(p, [0, 1, 'white'], 'e2').boundingBox();
    assert.ok(sq.width >= 24, `squares of ${sq.width} px`);
    await p.screenshot({ path: join(SHOTS, '52-phone.png') });
    const tap = async (s) => { const b = await square(p, [0, 1, 'white'], s).boundingBox(); await p.touchscreen.tap(b.x + b.width / 2, b.y + b.height / 2); };
    await tap('e2');
    await square(p, [0, 1, 'white'], 'e4').and(p.locator('[data-dest]')).waitFor();
    await Promise.all([p.waitForResponse((r) => r.url().endsWith('/move')), tap('e4')]);
    // The seat's own view: its tries are shown to it only.
    const st = await fetch(`${BASE}/api/games/${g.id}`, { headers: { 'X-Chess5d-Seat': g.seat.token } }).then((r) => r.json());
    assert.deepEqual(st.pending.map((m) => m.long), ['(0T1)e2(0T1)e4']);
    await p.getByRole('button', { name: 'Submit', exact: true }).tap();
    await p.waitForFunction(() => /Black to move/.test(document.querySelector('#status').textContent));
    await p.screenshot({ path: join(SHOTS, '53-phone-after-e4.png'), fullPage: true });
    assert.deepEqual(phone.errors, []);
  } finally {
    await phone.ctx.close();
  }
});

test('no console errors', () => {
  // The unknown id is asked for once (a 404 by design).
  assert.deepEqual(errors.filter((e) => !/Failed to load resource.*(400|404|409)/.test(e)), []);
});
