// Accessibility (issue 48, point 4): axe-core (npm) finds no serious or critical violation on
// the home, game, review, lesson and puzzle pages, in the dark and the light theme (its
// colour-contrast rule is WCAG AA's 4.5:1 for text).
// Runs against the served GUI and (SITE=static) the static site.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { openSession, closeSession, createGame, seatLink, move, submit } from './helpers.mjs';

// (evaluated through the devtools protocol: the page's Content-Security-Policy forbids inline scripts)
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let session, page, BASE;

before(async () => {
  session = await openSession();
  ({ page, BASE } = session);
});

after(async () => {
  await closeSession(session);
});

/** The serious and critical violations of the page shown, as lines. */
async function violations(theme) {
  await page.evaluate((t) => { document.documentElement.dataset.theme = t; }, theme);
  await page.waitForTimeout(200);
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(axeSource);
  const r = await page.evaluate(() => window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] } }));
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.slice(0, 5).map((n) => `${theme}: ${v.id} (${v.impact}) ${n.target.join(' ')}: ${n.failureSummary.split('\n').slice(1, 2).join('')}`));
}

async function check(name, open) {
  await open();
  const found = [...await violations('dark'), ...await violations('light')];
  assert.deepEqual(found, [], `${name}: ${found.length} serious/critical violations`);
}

test('home page', () => check('home', async () => {
  await page.goto(`${BASE}/`);
  await page.locator('#pc-level option').first().waitFor({ state: 'attached' });
  await page.waitForTimeout(500);
}));

test('game page', () => check('game', async () => {
  const g = await createGame(BASE, { variant: 'Standard' });
  await page.goto(seatLink(BASE, g));
  await page.locator('#world .board').first().waitFor();
  await move(page, ['0', '1', 'white'], 'e2', ['0', '1', 'white'], 'e4');
  await page.waitForTimeout(300);
}));

test('review', () => check('review', async () => {
  const g = await createGame(BASE, { variant: 'Standard' });
  await page.goto(seatLink(BASE, g));
  await page.locator('#world .board').first().waitFor();
  await move(page, ['0', '1', 'white'], 'e2', ['0', '1', 'white'], 'e4');
  await submit(page);
  await page.getByRole('button', { name: 'Previous action', exact: true }).click();
  await page.locator('#review-bar:not(.hidden)').waitFor();
}));

test('lesson', () => check('lesson', async () => {
  await page.goto(`${BASE}/#/learn/rook/1`);
  await page.locator('#lesson-prompt').waitFor();
  await page.locator('#world .board').first().waitFor();
  await page.waitForTimeout(500);
}));

test('course', () => check('course', async () => {
  await page.goto(`${BASE}/#/learn`);
  await page.locator('#learn-list li').first().waitFor();
}));

test('puzzle', () => check('puzzle', async () => {
  await page.goto(`${BASE}/`);
  const b = page.locator('#puzzle-next button[data-puzzle-start]');
  await b.waitFor();
  await b.click();
  await page.waitForFunction(() => /^#\/game\/\d+/.test(location.hash));
  await page.locator('#world .board').first().waitFor();
  await page.waitForTimeout(500);
}));

/** WCAG's contrast ratio of two CSS colours `rgb(r, g, b)`. */
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.match(/\d+(\.\d+)?/g).slice(0, 3).map((x) => {
      const v = Number(x) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

// axe skips disabled controls; the disabled Submit is text a player reads (issue 48).
test('the disabled Submit is readable (4.5:1) in both themes', async () => {
  const g = await createGame(BASE, { variant: 'Standard' });
  await page.goto(seatLink(BASE, g));
  await page.locator('#world .board').first().waitFor();
  for (const theme of ['dark', 'light']) {
    await page.evaluate((t) => { document.documentElement.dataset.theme = t; }, theme);
    const { fg, bg, opacity, disabled } = await page.evaluate(() => {
      const b = document.querySelector('#btn-submit');
      const st = getComputedStyle(b);
      return { fg: st.color, bg: st.backgroundColor, opacity: st.opacity, disabled: b.disabled };
    });
    assert.ok(disabled, 'Submit is disabled before a move');
    assert.equal(opacity, '1', `${theme}: not faded`);
    const ratio = contrast(fg, bg);
    assert.ok(ratio >= 4.5, `${theme}: the disabled Submit's text has ${ratio.toFixed(2)}:1`);
  }
});
