// The course (issue 48): a new player goes from the home page through the first three lessons
// by clicks only: each lesson's demonstration plays by itself on the multiverse view, then its
// exercises are solved on the boards (a wrong action first, refused by the service's goal check,
// then a right one), stars are shown and kept in IndexedDB across a reload.
// Screenshots: tests/browser/screenshots/learn-*.png (with -static on the static site).
// Runs against the served GUI and (SITE=static) the static site.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, closeSession, move, submit, SHOTS } from './helpers.mjs';

const STATIC = process.env.SITE === 'static';
const SUFFIX = STATIC ? '-static' : '';
let session, page, errors, BASE;

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});

after(async () => {
  await closeSession(session);
});

const shot = (name) => page.screenshot({ path: join(SHOTS, `learn-${name}${SUFFIX}.png`) });

/** Waits for the exercise's verdict: 'solved' or 'failed'. */
async function verdict() {
  const r = page.locator('#lesson-result[data-result]');
  await r.waitFor({ timeout: 10000 });
  return r.getAttribute('data-result');
}

/** Waits until the lesson's demonstration has played to its end. */
async function demoDone() {
  await page.locator('#lesson-panel[data-demo="done"]').waitFor({ timeout: 30000 });
}

/** Waits for an exercise's boards. */
async function exerciseReady(n) {
  await page.locator(`#lesson-nav [data-exercise="${n}"][aria-current="page"]`).waitFor();
  await page.locator('#world .board').first().waitFor();
  await page.waitForFunction(() => window.location.hash.match(/^#\/learn\/[^/]+\/\d+$/));
  // The exercise's own game is shown (not the demonstration's, nor the failed try's).
  await page.locator('#status', { hasText: /one action\. (White|Black) to move/ }).waitFor();
  await page.waitForTimeout(300);
}

test('a new player takes the first three lessons by clicks, with stars kept', async () => {
  await page.goto(`${BASE}/`);
  const start = page.getByRole('link', { name: 'Start learning' });
  await start.waitFor();
  await start.click();
  // The course: twenty lessons in order, none started.
  await page.locator('#learn-list li').nth(19).waitFor();
  assert.equal(await page.locator('#learn-list li').count(), 20);
  const titles = await page.locator('#learn-list li a').allTextContents();
  assert.match(titles[0], /boards/i);
  assert.match(titles[2], /rook/i);
  await shot('course');
  // Lesson 1: its demonstration plays by itself: actions appear on the view.
  await page.getByRole('link', { name: titles[0] }).click();
  await page.locator('#lesson-title').waitFor();
  await demoDone();
  assert.ok(await page.locator('#world .board').count() >= 4, 'the demonstration made boards');
  await shot('lesson1-demo');
  await page.getByRole('link', { name: 'Exercises' }).click();
  await exerciseReady(1);
  // A wrong action is refused by the goal (the rook must reach a5, not a2)...
  await move(page, ['0', '1', 'white'], 'a1', ['0', '1', 'white'], 'a2');
  await submit(page);
  assert.equal(await verdict(), 'failed');
  await shot('lesson1-failed');
  await page.getByRole('button', { name: 'Try again' }).click();
  await exerciseReady(1);
  // ... any right one counts; after a failure, two stars.
  await page.getByRole('button', { name: 'Hint' }).waitFor();
  await move(page, ['0', '1', 'white'], 'a1', ['0', '1', 'white'], 'a5');
  await submit(page);
  assert.equal(await verdict(), 'solved');
  assert.equal(await page.locator('#lesson-result .stars').textContent(), '★★☆');
  await shot('lesson1-solved');
  await page.getByRole('link', { name: 'Next exercise' }).click();
  await exerciseReady(2);
  await move(page, ['0', '1', 'white'], 'e1', ['0', '1', 'white'], 'd2');
  await submit(page);
  assert.equal(await verdict(), 'solved');
  assert.equal(await page.locator('#lesson-result .stars').textContent(), '★★★');
  await page.getByRole('link', { name: 'Next lesson' }).click();
  // Lesson 2: two timelines; the action needs a move on both before Submit.
  await page.locator('#lesson-title', { hasText: /submit/i }).waitFor();
  await demoDone();
  await page.getByRole('link', { name: 'Exercises' }).click();
  await exerciseReady(1);
  await page.getByRole('button', { name: 'Hint' }).click();
  assert.match(await page.locator('#lesson-hint').textContent(), /Submit/);
  await move(page, ['-0', '1', 'white'], 'a1', ['-0', '1', 'white'], 'a4');
  assert.ok(await page.locator('#btn-submit').isDisabled(), 'Submit waits for the other board');
  await move(page, ['+0', '1', 'white'], 'e1', ['+0', '1', 'white'], 'd1');
  await submit(page);
  assert.equal(await verdict(), 'solved');
  assert.equal(await page.locator('#lesson-result .stars').textContent(), '★★☆', 'a hint costs a star');
  await page.getByRole('link', { name: 'Next lesson' }).click();
  // Lesson 3: the rook travels back in time and makes a timeline.
  await page.locator('#lesson-title', { hasText: /rook/i }).waitFor();
  await demoDone();
  await shot('lesson3-demo');
  await page.getByRole('link', { name: 'Exercises' }).click();
  await exerciseReady(1);
  await move(page, ['0', '3', 'white'], 'a2', ['0', '1', 'white'], 'a2');
  await submit(page);
  assert.equal(await verdict(), 'solved');
  await shot('lesson3-solved');
  await page.getByRole('link', { name: 'Next exercise' }).click();
  await exerciseReady(2);
  await move(page, ['0', '3', 'white'], 'c1', ['0', '1', 'white'], 'c1');
  await submit(page);
  assert.equal(await verdict(), 'solved');
  // The stars stay after a reload (IndexedDB), on the course page.
  await page.goto(`${BASE}/#/learn`);
  await page.reload();
  await page.locator('#learn-list li').nth(19).waitFor();
  const stars = await page.locator('#learn-list li .stars').allTextContents();
  assert.equal(stars[0], '★★★★★☆');
  assert.equal(stars[1], '★★☆');
  assert.equal(stars[2], '★★★★★★');
  assert.equal(stars[3], '☆☆☆');
  // The lesson games were deleted as the player moved on: the saved games stay the player's.
  // (the server's list holds other tests' games too: the exercises' games are named 'TITLE: N')
  const games = await page.evaluate(() => window.chess5dBackend.then((b) => b.call('games')));
  const left = games.games.filter((g) => g.puzzle && titles.slice(0, 3).some((t) => g.puzzle.startsWith(`${t}: `)));
  assert.ok(left.length <= 1, `lesson games left behind: ${left.length}`);
  assert.deepEqual(errors, []);
});
