// Checks as the view shows them (issue 32, point 6): a check whose piece and king are both in
// view is an arrow; a king in check out of view gets a marker at the view's edge (no long line
// leaving the screen), and a click on it brings the king's board into view. Both builds.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, dirname } from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openSession, closeSession, createGame, seatLink, SHOTS } from './helpers.mjs';

let session, page, errors, BASE;
const site = process.env.SITE === 'static' ? 'static' : 'served';

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});
after(() => closeSession(session));

/** Whether the king's board (Black's T2 board of L0) is wholly in the view. */
const kingBoardInView = () => page.evaluate(() => {
  const b = document.querySelector('#world .board[data-l="0"][data-t="2"][data-color="black"]');
  if (!b) return false;
  const r = b.getBoundingClientRect(), v = document.querySelector('#view').getBoundingClientRect();
  return r.left >= v.left - 1 && r.right <= v.right + 1 && r.top >= v.top - 1 && r.bottom <= v.bottom + 1;
});

test('a check in view is an arrow; a king in check out of view is an edge marker that brings it back', async () => {
  const g = await createGame(BASE, { import: '[Board "Standard"]\n\n1. e4 / f6\n2. Qh5+\n' });
  await page.goto(seatLink(BASE, g));
  await page.locator('#world .board[data-l="0"][data-t="2"][data-color="black"]').waitFor();
  await page.locator('#check-layer path.arrow.check').first().waitFor({ state: 'attached' });
  assert.equal(await page.locator('#check-edges .check-edge').count(), 0, 'the king is in view: no marker');
  // Look at White's first board, far from the present: the king's board leaves the view.
  const first = await page.locator('#world .board[data-l="0"][data-t="1"][data-color="white"]').getAttribute('data-ti');
  await page.evaluate((t) => window.__chess5dShow(0, Number(t)), first);
  await page.locator('#check-edges .check-edge').waitFor();
  assert.equal(await kingBoardInView(), false);
  assert.equal(await page.locator('#check-layer path').count(), 0, 'no arrow towards a king out of view');
  assert.equal(await page.locator('#arrow-layer path.check').count(), 0);
  const mark = page.locator('#check-edges .check-edge');
  assert.match(await mark.getAttribute('aria-label'), /King in check on \(0T2b\)/);
  // The marker is inside the view, at its edge on the king's side (the right).
  const [m, v] = await page.evaluate(() => [document.querySelector('#check-edges .check-edge').getBoundingClientRect().toJSON(),
    document.querySelector('#view').getBoundingClientRect().toJSON()]);
  assert.ok(m.left >= v.left && m.right <= v.right + 1 && m.top >= v.top && m.bottom <= v.bottom + 1, JSON.stringify({ m, v }));
  assert.ok(m.left > v.left + v.width / 2, 'on the right, where the king is');
  await page.screenshot({ path: join(SHOTS, `42-check-edge-${site}.png`) });
  await mark.click();
  await page.waitForFunction(() => !document.querySelector('#check-edges .check-edge'));
  assert.equal(await kingBoardInView(), true, 'the click brought the king into view');
  await page.locator('#check-layer path.arrow.check').first().waitFor({ state: 'attached' });
  assert.deepEqual(errors, []);
});

test('several kings in check out of view on a phone: markers that do not cover one another', async () => {
  // The end of a game of many timelines: kings in check on boards all around the present.
  const text = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'data', 'game-2.5dpgn'), 'utf8');
  const g = await createGame(BASE, { import: text });
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.goto(seatLink(BASE, g));
    await page.locator('#world .board').first().waitFor();
    await page.waitForFunction(() => document.querySelectorAll('#check-edges .check-edge').length >= 2);
    const rects = await page.evaluate(() => [...document.querySelectorAll('#check-edges .check-edge')]
      .map((b) => b.getBoundingClientRect().toJSON()));
    for (let i = 0; i < rects.length; i++) {
      for (let j = i + 1; j < rects.length; j++) {
        const [a, b] = [rects[i], rects[j]];
        const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        assert.ok(!overlap, `markers ${i} and ${j} overlap: ${JSON.stringify({ a, b })}`);
      }
    }
    await page.screenshot({ path: join(SHOTS, `42-check-edges-390-${site}.png`) });
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  assert.deepEqual(errors, []);
});
