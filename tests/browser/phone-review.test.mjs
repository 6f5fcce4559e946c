// The computer review on a phone (issue 48, point 3): at 390x844 the evaluation graph and the
// board it reviews are on screen together (the graph right under the boards), without covering
// each other; a click on the graph shows its action's boards. Both builds.
// Screenshots: tests/browser/screenshots/48-phone-review-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, closeSession, createGame, seatLink, SHOTS } from './helpers.mjs';

let session, page, errors, BASE;
const site = process.env.SITE === 'static' ? 'static' : 'served';
const SCHOLAR = '[Board "Standard"]\n\n1. e4 / e5\n2. Bc4 / Nc6\n3. Qh5 / Nf6\n4. Qxf7#\n';

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});
after(() => closeSession(session));

test('on a phone the review graph and the board are seen together', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  const g = await createGame(BASE, { import: SCHOLAR });
  await page.goto(seatLink(BASE, g));
  await page.locator('#world .board').first().waitFor();
  const button = page.getByRole('button', { name: 'Review with the computer' });
  await button.scrollIntoViewIfNeeded();
  await button.click();
  await page.waitForFunction(() => document.querySelector('#computer-review')?.dataset.status === 'done', null, { timeout: 60000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('#cr-graph .cr-pt[data-index="5"]').click();
  await page.waitForFunction(() => document.querySelector('#play').dataset.review === '6');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(900);
  const r = await page.evaluate(() => {
    const box = (e) => e.getBoundingClientRect().toJSON();
    const view = box(document.querySelector('#view'));
    const vis = (b) => b.top >= 0 && b.bottom <= innerHeight && b.left >= -1 && b.right <= innerWidth + 1;
    // The boards wholly in the view's visible part (the view itself on screen).
    const boards = [...document.querySelectorAll('#world .board')].map(box)
      .filter((b) => b.top >= Math.max(view.top, 0) && b.bottom <= Math.min(view.bottom, innerHeight) && b.left >= view.left - 1 && b.right <= view.right + 1);
    return { graph: box(document.querySelector('#cr-graph')), view, boards: boards.length, graphOnScreen: vis(box(document.querySelector('#cr-graph'))), h: innerHeight };
  });
  await page.screenshot({ path: join(SHOTS, `48-phone-review-${site}.png`) });
  assert.ok(r.graphOnScreen, `the graph on screen with the boards: ${JSON.stringify(r)}`);
  assert.ok(r.boards >= 1, `a board on screen: ${JSON.stringify(r)}`);
  assert.ok(r.graph.top >= r.view.bottom - 1, `the graph does not cover the boards: ${JSON.stringify(r)}`);
  assert.deepEqual(errors, []);
});
