// Check markers (issue 48, point 3): drawn under the pieces (the check arrows lie below the
// boards, showing between them, never over a piece; the squares of the checking piece and the
// king are marked under their pieces), one arrow per checking piece, and a setting (Settings:
// "Check markers") hides them all, kept across a reload. At 1280x800 and 390x844, both builds.
// Screenshots: tests/browser/screenshots/48-check-markers-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, closeSession, createGame, seatLink, SHOTS } from './helpers.mjs';

let session, page, errors, BASE;
const site = process.env.SITE === 'static' ? 'static' : 'served';

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});
after(() => closeSession(session));

const counts = () => page.evaluate(() => ({
  arrows: document.querySelectorAll('#check-layer path.arrow.check').length,
  royal: document.querySelectorAll('#world .sq.check-royal').length,
  from: document.querySelectorAll('#world .sq.check-from').length,
  // Whether the arrows' layer is drawn before (under) the boards' layer.
  under: !!(document.querySelector('#check-layer').compareDocumentPosition(document.querySelector('#board-layer')) & Node.DOCUMENT_POSITION_FOLLOWING),
}));

async function setChecks(on) {
  await page.locator('#settings summary').click();
  const box = page.getByLabel('Check markers', { exact: true });
  if (on) await box.check(); else await box.uncheck();
  await page.locator('#settings summary').click();
}

test('check markers lie under the pieces, one per checking piece, and a setting hides them', async () => {
  const g = await createGame(BASE, { import: '[Board "Standard"]\n\n1. e4 / f6\n2. Qh5+\n' });
  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    await page.goto(seatLink(BASE, g));
    await page.locator('#world .board[data-l="0"][data-t="2"][data-color="black"]').waitFor();
    await page.locator('#check-layer path.arrow.check').first().waitFor({ state: 'attached' });
    let c = await counts();
    assert.deepEqual(c, { arrows: 1, royal: 1, from: 1, under: true }, `${size.width}: ${JSON.stringify(c)}`);
    await page.screenshot({ path: join(SHOTS, `48-check-markers-${site}-${size.width}.png`) });
    await setChecks(false);
    await page.waitForFunction(() => !document.querySelector('#world .sq.check-royal'));
    c = await counts();
    assert.deepEqual(c, { arrows: 0, royal: 0, from: 0, under: true }, JSON.stringify(c));
    // Kept across a reload.
    await page.reload();
    await page.locator('#world .board[data-l="0"][data-t="2"][data-color="black"]').waitFor();
    await page.waitForTimeout(300);
    assert.equal((await counts()).royal, 0);
    await page.screenshot({ path: join(SHOTS, `48-check-markers-off-${site}-${size.width}.png`) });
    await setChecks(true);
    await page.locator('#world .sq.check-royal').first().waitFor({ state: 'attached' });
    assert.deepEqual(await counts(), { arrows: 1, royal: 1, from: 1, under: true });
  }
  assert.deepEqual(errors, []);
});
