// What players expect of the boards and the editor (issue 32, point 8): the editor's palette
// shows the boards' piece pictures (the letter as its accessible name and title); a board's
// (L T) label never overlaps a frame (its own outline or mandatory frame, another board, the
// present's band) at any zoom; the columns' headers (turn labels) stay readable when zoomed out,
// and the coordinates are not drawn where they would be unreadable. Served GUI and static site.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSession, closeSession, createGame, seatLink, SHOTS } from './helpers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const site = process.env.SITE === 'static' ? 'static' : 'served';
let session, page, errors, BASE;

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});
after(() => closeSession(session));

test("the editor's palette shows the boards' piece pictures, the letter as name and title", async () => {
  await page.goto(`${BASE}/#/editor`);
  await page.locator('#ed-palette .tool').first().waitFor();
  for (const c of ['white', 'black']) {
    for (const p of ['K', 'Q', 'R', 'B', 'N', 'P']) {
      const b = page.getByRole('button', { name: `${c} ${p}`, exact: true });
      assert.equal(await b.getAttribute('title'), `${c[0].toUpperCase()}${c.slice(1)} ${p}`);
      assert.equal((await b.textContent()).trim(), '', 'a picture, no letter');
      const pic = b.locator(`svg.piece-pic path.pc-${c}`);
      assert.equal(await pic.count(), 1, `${c} ${p}: the boards' ${c} piece path`);
      const box = await b.locator('svg').boundingBox();
      assert.ok(box.width >= 24 && box.height >= 24, `${c} ${p}: a picture of 24 px or more (${box.width})`);
    }
  }
  // The same outline as the boards draw for that piece.
  const same = await page.evaluate(() => {
    const onBoard = document.querySelector('#world .board path.pc-white').getAttribute('d');
    const pic = document.querySelector('#ed-palette [data-tool="wK"] path.pc-white').getAttribute('d');
    return onBoard.includes(pic.replace(/^M[-\d.]+ [-\d.]+/, ''));
  });
  assert.ok(same, "the palette's king is the boards' king");
  await page.getByRole('button', { name: 'black Q', exact: true }).click();
  assert.match(await page.locator('#ed-palette [data-tool="bQ"]').getAttribute('class'), /current/);
  await page.screenshot({ path: join(SHOTS, `polish-editor-${site}.png`) });
});

/** Every drawn board label against every frame in view: its own outline and mandatory frame
 * (the label above them, clear), the other boards' outlines, and the present's band's top edge. */
const overlaps = () => page.evaluate(() => {
  const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const bad = [];
  const outlines = [...document.querySelectorAll('#world .board')].map((g) => ({ g, r: g.querySelector('.board-outline').getBoundingClientRect() }));
  const band = document.querySelector('#bg-layer .present-line');
  const br = band?.getBoundingClientRect();
  const sw = band ? parseFloat(getComputedStyle(band).strokeWidth) * (br.width / band.getBBox().width) : 0;
  let n = 0;
  for (const g of document.querySelectorAll('#world .board')) {
    const lab = g.querySelector('.board-label');
    if (!lab) continue;
    n++;
    const l = lab.getBoundingClientRect();
    const name = lab.textContent;
    const own = [g.querySelector('.board-outline'), g.querySelector('.board-mandatory')].filter(Boolean);
    for (const f of own) {
      const r = f.getBoundingClientRect();
      if (l.bottom > r.top - 1) bad.push(`${name}: bottom ${l.bottom.toFixed(1)} on its frame (top ${r.top.toFixed(1)})`);
    }
    for (const o of outlines) if (o.g !== g && hit(l, o.r)) bad.push(`${name} on board (${o.g.dataset.l}T${o.g.dataset.t})`);
    if (br) {
      const edge = { left: br.left, right: br.right, top: br.top - sw / 2, bottom: br.top + sw / 2 };
      if (hit(l, edge)) bad.push(`${name} on the present's band`);
    }
  }
  return { n, bad };
});

test('board labels never overlap a frame, at any zoom', async () => {
  for (const file of ['camera-issue-32.5dpgn', null]) {
    const g = await createGame(BASE, file ? { import: readFileSync(join(here, 'data', file), 'utf8') } : {});
    await page.goto(seatLink(BASE, g));
    await page.locator('#world .board').first().waitFor();
    await page.waitForFunction(() => document.querySelector('#view').dataset.camera === 'still');
    const zooms = [0, 1, 1, 1, -1, -1, -1, -1, -1];
    for (const [i, z] of zooms.entries()) {
      if (z) {
        await page.getByRole('button', { name: z > 0 ? 'Zoom in' : 'Zoom out', exact: true }).click();
        await page.waitForFunction(() => document.querySelector('#view').dataset.camera === 'still');
      }
      const { n, bad } = await overlaps();
      if (i === 0) assert.ok(n > 0, 'labels at the default zoom');
      assert.deepEqual(bad, [], `zoom step ${i} of ${file ?? 'a new game'}`);
    }
  }
  await page.screenshot({ path: join(SHOTS, `polish-labels-${site}.png`) });
});

test('the turn headers stay readable zoomed out; coordinates are drawn only where readable', async () => {
  const g = await createGame(BASE, { import: readFileSync(join(here, 'data', 'camera-issue-32.5dpgn'), 'utf8') });
  await page.goto(seatLink(BASE, g));
  await page.locator('#world .board').first().waitFor();
  await page.waitForFunction(() => document.querySelector('#view').dataset.camera === 'still');
  const read = () => page.evaluate(() => {
    const shown = [...document.querySelectorAll('#bg-layer .turn-label')].filter((t) => getComputedStyle(t).display !== 'none');
    const rects = shown.map((t) => t.getBoundingClientRect()).filter((r) => r.right > 0 && r.left < innerWidth);
    let overlap = 0;
    const xs = rects.slice().sort((a, b) => a.left - b.left);
    for (let i = 1; i < xs.length; i++) if (xs[i].left < xs[i - 1].right) overlap++;
    const coords = [...document.querySelectorAll('#world .coord')].map((c) => c.getBoundingClientRect().height);
    const labels = [...document.querySelectorAll('#world .board-label')].map((c) => c.getBoundingClientRect().height);
    return { n: rects.length, minH: Math.min(...rects.map((r) => r.height)), overlap, coordMin: coords.length ? Math.min(...coords) : null, labelMin: labels.length ? Math.min(...labels) : null };
  });
  for (let i = 0; i < 12; i++) {
    const r = await read();
    assert.ok(r.n > 0, `step ${i}: turn headers shown`);
    assert.ok(r.minH >= 12, `step ${i}: turn headers 12 px or more high (${r.minH})`);
    assert.equal(r.overlap, 0, `step ${i}: turn headers do not overlap`);
    if (r.coordMin !== null) assert.ok(r.coordMin >= 9, `step ${i}: coordinates 9 px or more (${r.coordMin})`);
    if (r.labelMin !== null) assert.ok(r.labelMin >= 9, `step ${i}: board labels 9 px or more (${r.labelMin})`);
    if (i === 6) await page.screenshot({ path: join(SHOTS, `polish-zoomed-out-${site}.png`) });
    await page.getByRole('button', { name: 'Zoom out', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('#view').dataset.camera === 'still');
  }
  assert.deepEqual(errors, []);
});
