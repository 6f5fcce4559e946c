// Sounds, themes and board palettes (issue 32, point 8): a move, a capture and the end of the
// game each make their sound; a switch turns sounds off; a light and a dark theme and two board
// palettes; each setting is remembered over a reload. Served GUI and static site.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, closeSession, board, createGame, seatLink, move, submit, square, SHOTS } from './helpers.mjs';

let session, page, errors, BASE;
const site = process.env.SITE === 'static' ? 'static' : 'served';

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});
after(() => closeSession(session));

const sounds = () => page.evaluate(() => [...(window.__chess5dSounds || [])]);
const setting = async (label, value) => {
  await page.getByRole('button', { name: 'Settings' }).or(page.locator('#settings summary')).first().click();
  const el = page.getByLabel(label, { exact: true });
  if (typeof value === 'boolean') await el.setChecked(value); else await el.selectOption(value);
  await page.locator('#settings summary').click();
};

test('a move, a capture and the end of the game sound; sounds off stays off after a reload', async () => {
  const g = await createGame(BASE, {});
  await page.goto(seatLink(BASE, g));
  await board(page, [0, 1, 'white']).waitFor();
  assert.equal(await page.getByLabel('Sounds', { exact: true }).isChecked(), true, 'sounds are on at first');
  await move(page, [0, 1, 'white'], 'e2', [0, 1, 'white'], 'e4');
  await page.waitForFunction(() => window.__chess5dSounds?.length === 1);
  await submit(page);
  await board(page, [0, 1, 'black']).waitFor();
  await move(page, [0, 1, 'black'], 'd7', [0, 1, 'black'], 'd5');
  await submit(page);
  await board(page, [0, 2, 'white']).waitFor();
  await move(page, [0, 2, 'white'], 'e4', [0, 2, 'white'], 'd5');
  await page.waitForFunction(() => window.__chess5dSounds?.length === 3);
  assert.deepEqual(await sounds(), ['move', 'move', 'capture'], 'a submitted action does not sound twice');
  await setting('Sounds', false);
  await page.reload();
  await board(page, [0, 2, 'white']).waitFor();
  assert.equal(await page.getByLabel('Sounds', { exact: true }).isChecked(), false, 'remembered');
  await submit(page);
  await board(page, [0, 2, 'black']).waitFor();
  assert.deepEqual(await sounds(), [], 'nothing sounds when sounds are off');
  await setting('Sounds', true);
  page.once('dialog', (d) => d.accept());
  await page.getByRole('button', { name: 'Resign', exact: true }).click();
  await page.waitForFunction(() => window.__chess5dSounds?.includes('end'));
});

test('light and dark themes and two board palettes, remembered', async () => {
  const g = await createGame(BASE, {});
  await page.goto(seatLink(BASE, g));
  await board(page, [0, 1, 'white']).waitFor();
  const look = () => page.evaluate(() => {
    const lum = (c) => { const [r, g, b] = c.match(/\d+/g).map(Number); return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255; };
    const sq = document.querySelector('#chk rect.sq-light'); // the squares' pattern
    return { theme: document.documentElement.dataset.theme, bg: lum(getComputedStyle(document.body).backgroundColor),
      text: lum(getComputedStyle(document.body).color), light: getComputedStyle(sq).fill };
  });
  const dark = await look();
  assert.equal(dark.theme, 'dark');
  assert.ok(dark.bg < 0.3 && dark.text > 0.7, JSON.stringify(dark));
  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(SHOTS, `40-theme-dark-${size.width}-${site}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await setting('Theme', 'light');
  await setting('Board colours', 'blue');
  await page.reload();
  await board(page, [0, 1, 'white']).waitFor();
  const light = await look();
  assert.equal(light.theme, 'light');
  assert.ok(light.bg > 0.8 && light.text < 0.3, JSON.stringify(light));
  assert.equal(light.light, 'rgb(222, 227, 230)', 'the blue palette');
  assert.notEqual(light.light, dark.light);
  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(SHOTS, `41-theme-light-${size.width}-${site}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await setting('Theme', 'dark');
  await setting('Board colours', 'wood');
  assert.deepEqual(errors, []);
});
