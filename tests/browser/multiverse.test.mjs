// The multiverse view with many boards (80 timelines, 268 boards): drawn with its hooks, every
// destination of a piece shown across the boards, a move by drag and drop, pan and zoom; and
// drag moves on small games, with a promotion choice (click-click is in gui.test.mjs). Timings are printed, not asserted
// (tests/browser/perf.mjs measures them properly).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSession, closeSession, createGame, board, square, seatLink, SHOTS, apiGet, apiAnswer } from './helpers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
let session, page, errors, BASE;

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});

after(() => closeSession(session));

const create = (body) => createGame(BASE, body);

const state = (g) => apiGet(BASE, `/api/games/${g.id}`, g);

/** Drags with the mouse from the centre of one element to the centre of another. */
async function drag(from, to) {
  const a = await from.boundingBox(), b = await to.boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) {
    await page.mouse.move(a.x + a.width / 2 + ((b.x - a.x) * i) / 8, a.y + a.height / 2 + ((b.y - a.y) * i) / 8);
  }
  await page.mouse.up();
}

test('a move by dragging a piece; dragging empty space pans', async () => {
  const g = await create({ variant: 'Standard' });
  await page.goto(seatLink(BASE, g));
  await board(page, [0, 1, 'white']).waitFor();
  // Dragging from outside the boards pans the view and moves nothing.
  const vb0 = await page.locator('#view').getAttribute('viewBox');
  const box = await page.locator('#view').boundingBox();
  await page.mouse.move(box.x + 20, box.y + box.height - 20);
  await page.mouse.down();
  await page.mouse.move(box.x + 120, box.y + box.height - 60, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction((v) => document.querySelector('#view').getAttribute('viewBox') !== v, vb0);
  assert.equal((await state(g)).pending.length, 0);
  await page.getByRole('button', { name: 'Fit all', exact: true }).click();
  // (the camera moves there in an animation)
  await page.waitForFunction(() => document.querySelector('#view').dataset.camera === 'still');
  // Drag the e2 pawn to e4.
  await Promise.all([
    apiAnswer(page, '/move', 'POST'),
    drag(square(page, [0, 1, 'white'], 'e2'), square(page, [0, 1, 'white'], 'e4')),
  ]);
  await board(page, [0, 1, 'black']).waitFor();
  assert.equal(await board(page, [0, 1, 'black']).locator('[data-piece="P"][data-piece-color="white"][data-at="e4"]').count(), 1);
  assert.deepEqual((await state(g)).pending.map((m) => m.long), ['(0T1)e2(0T1)e4']);
  // A drop on a square that is not a destination moves nothing.
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await page.waitForFunction(() => !document.querySelector('#world .board[data-l="0"][data-t="1"][data-color="black"]'));
  await drag(square(page, [0, 1, 'white'], 'g1'), square(page, [0, 1, 'white'], 'g4'));
  await page.waitForTimeout(300);
  assert.equal((await state(g)).pending.length, 0);
});

test('a promotion by drag offers the choice of piece', async () => {
  const g = await create({ import: '[Board "custom"]\n[Size "5x5"]\n[Promotions "Q,R,B,N"]\n[4k/P4/5/5/K4:0:1:w]\n' });
  await page.goto(seatLink(BASE, g));
  await board(page, [0, 1, 'white']).waitFor();
  await drag(square(page, [0, 1, 'white'], 'a4'), square(page, [0, 1, 'white'], 'a5'));
  const box = page.locator('#promotion');
  await box.waitFor({ state: 'visible' });
  assert.ok(await box.getByRole('button').count() >= 2, 'several pieces to choose from');
  await Promise.all([
    apiAnswer(page, '/move', 'POST'),
    box.getByRole('button', { name: 'Promote to N', exact: true }).click(),
  ]);
  await board(page, [0, 1, 'black']).waitFor();
  assert.equal(await board(page, [0, 1, 'black']).locator('[data-piece="N"][data-piece-color="white"][data-at="a5"]').count(), 1);
});

test('80 timelines and 268 boards: hooks, destinations on every board, drag, pan and zoom', async () => {
  const text = readFileSync(join(here, 'data/big-multiverse.5dpgn'), 'utf8');
  const g = await create({ import: text });
  assert.ok(g.timelines.length >= 50 && g.boards.length >= 200, `${g.timelines.length} timelines, ${g.boards.length} boards`);
  const t0 = Date.now();
  await page.goto(seatLink(BASE, g));
  await page.locator('#world .board').first().waitFor();
  // It opens at the present with readable boards; Fit all: every board is drawn (at a low level
  // of detail), each with its hooks.
  await page.getByRole('button', { name: 'Fit all', exact: true }).click();
  await page.waitForFunction((n) => document.querySelectorAll('#world .board').length === n, g.boards.length);
  console.log(`# opened ${g.boards.length} boards in ${Date.now() - t0} ms`);
  const hooks = await page.evaluate(() => [...document.querySelectorAll('#world .board')].every((b) =>
    b.dataset.l !== undefined && b.dataset.t !== undefined && ['white', 'black'].includes(b.dataset.color)));
  assert.ok(hooks, 'every board has data-l, data-t and data-color');
  await page.screenshot({ path: join(SHOTS, '10-many-boards.png') });

  // A piece with moves to other boards: every destination is highlighted, wherever it is.
  let pick = null;
  for (const b of g.boards.filter((b) => b.playable)) {
    for (const p of b.pieces.filter((p) => p.c === g.to_move)) {
      const r = await apiGet(BASE, `/api/games/${g.id}/moves?l=${b.l}&t=${b.t}&square=${p.sq}`);
      const local = r.moves.find((m) => m.to.l === b.l && m.to.t === b.t);
      const away = new Set(r.moves.filter((m) => m.to.l !== b.l || m.to.t !== b.t).map((m) => `${m.to.l},${m.to.t}`));
      if (local && away.size >= 2) { pick = { b, p, moves: r.moves, local }; break; }
    }
    if (pick) break;
  }
  assert.ok(pick, 'a piece with moves to at least two other boards');
  const { b, p, moves, local } = pick;
  await page.evaluate(([l, t]) => window.__chess5dShow(l, t), [b.l, b.t]);
  const from = page.locator(`#world .board[data-li="${b.l}"][data-ti="${b.t}"] rect[data-square="${p.sq}"]`);
  await from.click();
  await page.locator('#world rect[data-dest]').first().waitFor();
  await page.getByRole('button', { name: 'Fit all', exact: true }).click();
  const distinct = new Set(moves.map((m) => `${m.to.l},${m.to.t},${m.to.sq}`));
  await page.waitForFunction((n) => document.querySelectorAll('#world rect[data-dest]').length === n, distinct.size);
  await page.screenshot({ path: join(SHOTS, '11-many-boards-destinations.png') });

  // Zoom and pan, then drag the piece to a destination on its own board.
  const box = await page.locator('#view').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -200);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 100, box.y + box.height / 2 + 50, { steps: 10 });
  await page.mouse.up();
  await page.evaluate(([l, t]) => window.__chess5dShow(l, t), [b.l, b.t]);
  const to = page.locator(`#world .board[data-li="${b.l}"][data-ti="${b.t}"] rect[data-square="${local.to.sq}"]`);
  await to.and(page.locator('[data-dest]')).waitFor();
  await Promise.all([
    apiAnswer(page, '/move', 'POST'),
    drag(from, to),
  ]);
  assert.deepEqual((await state(g)).pending.map((m) => m.long), [local.long]);
  await page.screenshot({ path: join(SHOTS, '12-many-boards-moved.png') });
});

test('no console errors', () => {
  assert.deepEqual(errors.filter((e) => !/Failed to load resource.*(400|409)/.test(e)), []);
});
