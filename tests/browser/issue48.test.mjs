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
    await b.page.goto(link);
    const over = b.page.locator('#gameover');
    await over.filter({ hasText: /Resignation/ }).waitFor({ timeout: 10000 });
    assert.match(await over.textContent(), /Resignation: Black wins \(0-1\)/);
    await b.page.screenshot({ path: join(SHOTS, `issue48-shared-result-${viewport.width}${SUFFIX}.png`) });
    assert.deepEqual(b.errors, []);
    await b.ctx.close();
  }
});
