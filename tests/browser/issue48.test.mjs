// Defects of issue 48, each at 1280x800 and 390x844: the computer's seat names its level (not
// "chess5d (alphabeta)"), and a shared game that ended by resignation opens with its result.
// Screenshots: tests/browser/screenshots/issue48-*.png (-static on the static site).
// Runs against the served GUI and (SITE=static) the static site.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, closeSession, launch, createGame, seatLink, SHOTS } from './helpers.mjs';

const STATIC = process.env.SITE === 'static';
const SUFFIX = STATIC ? '-static' : '';
const VIEWPORTS = [{ width: 1280, height: 800 }, { width: 390, height: 844 }];
let session, page, errors, BASE;

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});

after(async () => {
  await closeSession(session);
});

test("the computer's seat names its level", async () => {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.goto(`${BASE}/`);
    await page.locator('#pc-level option').first().waitFor({ state: 'attached' });
    await page.locator('#pc-level').selectOption({ label: 'Level 2: greedy (takes what it can)' });
    await page.locator('#pc-color').selectOption('white');
    await page.getByRole('button', { name: 'Play the computer', exact: true }).click();
    const name = page.locator('#p-black .name');
    await name.filter({ hasText: /chess5d/ }).waitFor();
    const text = await name.textContent();
    assert.match(text, /level 2/i, `the seat says its level: ${text}`);
    assert.doesNotMatch(text, /\((alphabeta|greedy|random)\)/);
    assert.ok(await name.isVisible(), 'the seat is shown');
    await page.screenshot({ path: join(SHOTS, `issue48-level-${viewport.width}${SUFFIX}.png`) });
  }
  assert.deepEqual(errors, []);
});

/** Whether the board (label 0, turn `t`, white) lies wholly inside the view. */
const boardInView = (p, t) => p.evaluate((t) => {
  const v = document.querySelector('#view').getBoundingClientRect();
  const b = document.querySelector(`#world .board[data-l="0"][data-t="${t}"][data-color="white"]`);
  if (!b) return false;
  const r = b.getBoundingClientRect();
  return r.left >= v.left - 1 && r.right <= v.right + 1 && r.top >= v.top - 1 && r.bottom <= v.bottom + 1;
}, t);

test('after Submit and the reply the camera follows the present unless the view is locked', async () => {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    const g = await createGame(BASE, { variant: 'Standard', black: { type: 'engine', bot: 'random', movetime_ms: 50 } });
    await page.goto(seatLink(BASE, g));
    await page.locator('#world .board[data-l="0"][data-t="1"][data-color="white"]').waitFor();
    await page.waitForFunction(() => document.querySelector('#view').dataset.camera !== 'moving');
    // The player pans far away (to plan a jump), then plays and submits.
    const pan = async () => {
      const box = await page.locator('#view').boundingBox();
      await page.mouse.move(box.x + 10, box.y + box.height - 20);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width - 20, box.y + box.height - 60, { steps: 8 });
      await page.mouse.up();
    };
    const { move, submit } = await import('./helpers.mjs');
    await move(page, ['0', '1', 'white'], 'e2', ['0', '1', 'white'], 'e4');
    await pan();
    await submit(page);
    await page.waitForFunction(() => /White to move/.test(document.querySelector('#status').textContent));
    await page.waitForFunction(() => document.querySelector('#view').dataset.camera !== 'moving');
    await page.waitForTimeout(500);
    assert.ok(await boardInView(page, 2), `${viewport.width}px: the board to play (T2) is in view after the reply`);
    await page.screenshot({ path: join(SHOTS, `issue48-camera-follows-${viewport.width}${SUFFIX}.png`) });
    // Locked: the panned view stays where the player put it.
    const lock = page.getByRole('button', { name: 'Lock view', exact: true });
    if (!(await lock.isVisible())) await page.locator('#view-tools').scrollIntoViewIfNeeded();
    await lock.click();
    assert.equal(await page.locator('#btn-lock').getAttribute('aria-pressed'), 'true');
    await move(page, ['0', '2', 'white'], 'd2', ['0', '2', 'white'], 'd4');
    await pan();
    const panned = await page.locator('#view').getAttribute('viewBox');
    await submit(page);
    await page.waitForFunction(() => /White to move/.test(document.querySelector('#status').textContent) && document.querySelectorAll('#notation li').length >= 2);
    await page.waitForTimeout(500);
    assert.equal(await page.locator('#view').getAttribute('viewBox'), panned, `${viewport.width}px: the locked view stays put`);
    await page.getByRole('button', { name: 'View locked', exact: true }).click();
  }
  assert.deepEqual(errors.filter((e) => !/Failed to load resource.*(400|409)/.test(e)), []);
});

test("the static site's home offers a game with a friend on this device (hot seat)", async () => {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.goto(`${BASE}/`);
    await page.locator('#pc-level option').first().waitFor({ state: 'attached' });
    if (!STATIC) {
      // The served page invites a friend by link instead.
      await page.locator('#friend-card').waitFor();
      assert.equal(await page.locator('#hotseat-card').count(), 0);
      continue;
    }
    const card = page.locator('#hotseat-card');
    await card.waitFor();
    await page.locator('#hs-variant option[value="Standard"]').waitFor({ state: 'attached' });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `issue48-hotseat-${viewport.width}${SUFFIX}.png`) });
    await page.getByRole('button', { name: 'Play on this device', exact: true }).click();
    await page.waitForFunction(() => /^#\/game\/\d+$/.test(location.hash));
    await page.locator('#world .board').first().waitFor();
    // Both sides are people at this screen.
    assert.equal(await page.locator('#p-white .name').textContent(), 'Human');
    assert.equal(await page.locator('#p-black .name').textContent(), 'Human');
  }
  assert.deepEqual(errors.filter((e) => !/Failed to load resource.*(400|409)/.test(e)), []);
});

// Last: it launches other browsers (helpers' createGame on the static site uses the page of the
// latest launch).
test('a shared game that ended by resignation opens with its result', async () => {
  const g = await createGame(BASE, { variant: 'Standard' });
  await page.setViewportSize(VIEWPORTS[0]);
  await page.goto(seatLink(BASE, g));
  await page.locator('#world .board').first().waitFor();
  page.once('dialog', (d) => d.accept());
  await page.getByRole('button', { name: 'Resign', exact: true }).click();
  await page.locator('#gameover', { hasText: /Resignation/ }).waitFor();
  await page.getByRole('button', { name: 'Share link', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('#share-link').value.length > 0);
  const link = await page.locator('#share-link').inputValue();
  await page.locator('#share-close').click();
  for (const viewport of VIEWPORTS) {
    // A fresh browser: nothing of the game is stored there.
    const b = await launch({ viewport });
    try {
      await b.page.goto(link);
      await b.page.locator('#world .board').first().waitFor();
      await b.page.screenshot({ path: join(SHOTS, `issue48-shared-result-${viewport.width}${SUFFIX}.png`) });
      const over = b.page.locator('#gameover');
      await over.filter({ hasText: /Resignation/ }).waitFor({ timeout: 10000 });
      assert.match(await over.textContent(), /Resignation: Black wins \(0-1\)/);
      await b.page.screenshot({ path: join(SHOTS, `issue48-shared-result-${viewport.width}${SUFFIX}.png`) });
      assert.deepEqual(b.errors, []);
    } finally {
      // (closed on a failure too: an open browser would keep the test file running)
      await b.ctx.close();
    }
  }
});
