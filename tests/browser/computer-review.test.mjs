// The computer review of a finished game (issue 33, point 1): "Review with the computer" runs
// it in the background (the server's budgeted job; on the static site a Web Worker), then the
// panel shows an evaluation graph with one point per action (a click goes to that action), each
// side's accuracy, the marks ?! ? ?? in the notation, and the engine's best action as arrows.
// Served GUI and static site (tests/browser/static/run.sh runs this file too).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, closeSession, createGame, seatLink, SHOTS } from './helpers.mjs';

let session, page, errors, BASE;
const site = process.env.SITE === 'static' ? 'static' : 'served';

// Scholar's mate: 3... Nf6?? lets 4. Qxf7#, a blunder; White wins by checkmate.
const SCHOLAR = '[Board "Standard"]\n\n1. e4 / e5\n2. Bc4 / Nc6\n3. Qh5 / Nf6\n4. Qxf7#\n';

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});

after(() => closeSession(session));

test('a finished game reviewed: graph, accuracy, the blunder marked, a click goes to an action', async () => {
  const g = await createGame(BASE, { import: SCHOLAR });
  assert.equal(g.result, '1-0');
  await page.goto(seatLink(BASE, g));
  await page.locator('#world .board').first().waitFor();
  const button = page.getByRole('button', { name: 'Review with the computer' });
  await button.click();
  // The review runs in the background: then the graph, one point per action.
  await page.waitForFunction(() => document.querySelector('#computer-review')?.dataset.status === 'done', null, { timeout: 60000 });
  const points = await page.$$eval('#cr-graph .cr-pt', (ps) => ps.map((p) => ({ index: Number(p.dataset.index), cls: p.getAttribute('class'), white: Number(p.dataset.white) })));
  assert.equal(points.length, g.action_count, JSON.stringify(points));
  assert.deepEqual(points.map((p) => p.index), [0, 1, 2, 3, 4, 5, 6]);
  // After Nf6 White is winning; after the mate it has won.
  assert.ok(points[5].white > 90 && points[6].white === 100, JSON.stringify(points));
  assert.match(points[5].cls, /blunder/);
  // The blunder is marked in the notation: Nf6??; nothing else is.
  await page.locator('#notation .act .cr-mark.blunder').waitFor();
  const marks = await page.$$eval('#notation .act', (as) => as.filter((a) => a.querySelector('.cr-mark')).map((a) => a.textContent));
  assert.deepEqual(marks, ['Nf6??']);
  // Each side's accuracy: Black, who blundered, below White.
  const acc = await page.$$eval('#cr-accuracy .cr-acc', (as) => as.map((a) => Number(a.textContent)));
  assert.equal(acc.length, 2);
  assert.ok(acc[0] > acc[1], `white ${acc[0]} black ${acc[1]}`);
  // A click on the blunder's point goes to the position after it, with the engine's best
  // action instead drawn as arrows and named in the panel.
  await page.locator('#cr-graph .cr-pt[data-index="5"]').click();
  await page.waitForFunction(() => document.querySelector('#play').dataset.review === '6');
  await page.locator('#world .arrow.pv.best').first().waitFor({ state: 'attached' });
  assert.match(await page.locator('#cr-note').textContent(), /Blunder.*Nf6.*Best: /);
  assert.match(await page.locator('#status').textContent(), /action 6 of 7/);
  assert.match(await page.locator('#cr-graph .cr-pt[data-index="5"]').getAttribute('class'), /current/);
  // Another point: the position after White's first action.
  await page.locator('#cr-graph .cr-pt[data-index="0"]').click();
  await page.waitForFunction(() => document.querySelector('#play').dataset.review === '1');
  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    await page.locator('#cr-graph .cr-pt[data-index="5"]').click();
    await page.waitForFunction(() => document.querySelector('#play').dataset.review === '6');
    await page.locator('#computer-review').scrollIntoViewIfNeeded();
    await page.waitForTimeout(200);
    // The graph fits the panel.
    const box = await page.locator('#cr-graph').boundingBox();
    const side = await page.locator('#side').boundingBox();
    assert.ok(box.width > 100 && box.x >= side.x - 1 && box.x + box.width <= side.x + side.width + 1, JSON.stringify({ box, side }));
    await page.screenshot({ path: join(SHOTS, `33-computer-review-${site}-${size.width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  // Kept with the game: a reload shows the review again without running it.
  await page.reload();
  await page.waitForFunction(() => document.querySelector('#computer-review')?.dataset.status === 'done', null, { timeout: 20000 });
  assert.equal(await page.locator('#cr-graph .cr-pt').count(), 7);
  assert.deepEqual(errors, []);
});
