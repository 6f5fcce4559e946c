// The timeline labels pinned at the left edge of the view (issue 32, item 2): each chip ("L0",
// "L1"...) sits beside the row it names, in present views, after Fit all (an animated camera
// move), after a resize that letterboxes the view box, and on a phone; none is drawn beside the
// timeline's own label when that one is in view.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSession, closeSession, createGame, seatLink, SHOTS } from './helpers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
let session, page, errors, BASE;

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});

after(() => closeSession(session));

const still = async () => {
  await page.waitForFunction(() => document.querySelector('#view').dataset.camera !== 'moving');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
};

/** Each chip of the rail, with where its row is: the screen centre of the chip and of the
 * timeline's own label (drawn at the middle of its row), the row pitch on screen, and whether
 * that own label is inside the view. */
const chips = () => page.evaluate(() => {
  const view = document.querySelector('#view').getBoundingClientRect();
  const own = new Map([...document.querySelectorAll('#bg-layer text.tl-label')].map((t) => [t.textContent, t]));
  const pitch = 380 * document.querySelector('#world').getScreenCTM().d; // (8 squares + 1.5) * 40
  return [...document.querySelectorAll('#tl-rail .rail-label')].map((c) => {
    const cr = c.getBoundingClientRect();
    const t = own.get(c.textContent);
    const tr = t.getBoundingClientRect();
    return {
      name: c.textContent,
      chip: (cr.top + cr.bottom) / 2,
      row: (tr.top + tr.bottom) / 2,
      pitch,
      ownInView: tr.left >= view.left + 40 && tr.right <= view.right && tr.top >= view.top && tr.bottom <= view.bottom,
    };
  });
});

async function assertChips(where, { atLeast = 0 } = {}) {
  const list = await chips();
  assert.ok(list.length >= atLeast, `${where}: at least ${atLeast} chips, saw ${list.length}`);
  for (const c of list) {
    const tol = Math.max(2.5, Math.min(12, c.pitch / 4));
    assert.ok(Math.abs(c.chip - c.row) <= tol, `${where}: chip ${c.name} at y=${c.chip.toFixed(1)}, its row at y=${c.row.toFixed(1)} (row pitch ${c.pitch.toFixed(1)} px)`);
    assert.ok(!c.ownInView, `${where}: chip ${c.name} beside its own label, which is in view`);
  }
  return list.length;
}

async function openImport(file) {
  const g = await createGame(BASE, { import: readFileSync(join(here, 'data', file), 'utf8') });
  await page.goto(seatLink(BASE, g));
  await page.locator('#world .board').first().waitFor();
  await still();
  return g;
}

for (const [name, viewport] of [['1280x800', { width: 1280, height: 800 }], ['phone 390x844', { width: 390, height: 844 }]]) {
  test(`${name}: each chip beside the row it names (present view, Fit all, Go to present, a letterboxed resize)`, async () => {
    await page.setViewportSize(viewport);
    try {
      // The game of issue 32: present T4 on L2, the view far from the timelines' first boards.
      await openImport('camera-issue-32.5dpgn');
      await assertChips(`${name}, issue game, present view`, { atLeast: 1 });
      await page.getByRole('button', { name: 'Fit all', exact: true }).click();
      await still();
      await assertChips(`${name}, issue game, after Fit all`);
      await page.getByRole('button', { name: 'Go to present', exact: true }).click();
      await still();
      await assertChips(`${name}, issue game, after Go to present`, { atLeast: 1 });
      // A view the player moved stays put through a resize: the view box is then letterboxed.
      const box = await page.locator('#view').boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 + 30, box.y + box.height / 2 + 25, { steps: 4 });
      await page.mouse.up();
      await page.setViewportSize({ width: viewport.width, height: Math.round(viewport.height * 0.7) });
      await page.waitForTimeout(300);
      await still();
      await assertChips(`${name}, issue game, panned then resized`, { atLeast: 1 });
      await page.screenshot({ path: join(SHOTS, `63-timeline-rail-${viewport.width}.png`) });
      await page.setViewportSize(viewport);
      // 80 timelines: present view, then Fit all and back.
      await openImport('big-multiverse.5dpgn');
      await assertChips(`${name}, 80 timelines, present view`, { atLeast: 0 });
      await page.keyboard.press('f');
      await still();
      await assertChips(`${name}, 80 timelines, after Fit all`);
      await page.keyboard.press('p');
      await still();
      await assertChips(`${name}, 80 timelines, after Go to present`, { atLeast: 0 });
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
}

test('no console errors', () => {
  assert.deepEqual(errors.filter((e) => !/Failed to load resource.*(400|409)/.test(e)), []);
});
