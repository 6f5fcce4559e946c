// The home page leads with what players come for (issue 19, point 5): play the computer (level,
// colour, variant, one button), play a friend (an invite link; served only: the static site has
// no second person), a puzzle to start; then the saved games and the lobby. At 1280x800 the three
// leading cards are in the first screen, without scrolling; at 390x844 nothing is cut off.
// Screenshots: tests/browser/screenshots/landing-1280x800.png, landing-390x844.png (with
// -static before .png on the static site).
// Runs against the served GUI and (SITE=static) the static site.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, closeSession, launch, gameId, apiGet, SHOTS } from './helpers.mjs';

const STATIC = process.env.SITE === 'static';
const SUFFIX = STATIC ? '-static' : '';
let session, page, errors, BASE;
const extra = [];

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});

after(async () => {
  for (const b of extra) await b.ctx.close();
  await closeSession(session);
});

/** Opens the home page and waits until its cards are filled (levels, the puzzle to start). */
async function home(p) {
  await p.goto(`${BASE}/`);
  await p.locator('#pc-level option').first().waitFor({ state: 'attached' });
  await p.locator('#puzzle-next button[data-puzzle-start]').waitFor();
  if (!STATIC) await p.locator('#fr-variant option').first().waitFor({ state: 'attached' });
  await p.waitForTimeout(300);
}

/** The cards that lead: the computer, a friend (served only), a puzzle. */
const LEAD = STATIC ? ['#computer-card', '#puzzle-card'] : ['#computer-card', '#friend-card', '#puzzle-card'];

test('at 1280x800 the three leading cards are on the first screen, in order', async () => {
  await home(page);
  await page.screenshot({ path: join(SHOTS, `landing-1280x800${SUFFIX}.png`) });
  const { w, h, scrollTop } = await page.evaluate(() => ({ w: innerWidth, h: innerHeight, scrollTop: document.querySelector('#home').scrollTop }));
  assert.deepEqual([w, h, scrollTop], [1280, 800, 0]);
  let lastLeft = -1;
  for (const sel of LEAD) {
    const card = page.locator(sel);
    assert.ok(await card.isVisible(), `${sel} is shown`);
    const r = await card.boundingBox();
    assert.ok(r.y >= 0 && r.y + r.height <= h, `${sel} is within the first screen: top ${r.y}, bottom ${r.y + r.height}`);
    assert.ok(r.x >= 0 && r.x + r.width <= w, `${sel} is within the width`);
    assert.ok(r.x > lastLeft, `${sel} comes after the card before it`);
    lastLeft = r.x;
  }
  // Each leads to its one button, on the first screen too.
  const buttons = [page.getByRole('button', { name: 'Play the computer', exact: true }),
    page.locator('#puzzle-next').getByRole('button', { name: /^Solve puzzle / })];
  if (!STATIC) buttons.push(page.getByRole('button', { name: 'Create invite', exact: true }));
  for (const b of buttons) {
    const r = await b.boundingBox();
    assert.ok(r && r.y + r.height <= h, `${await b.getAttribute('aria-label')} is on the first screen`);
  }
  // Play a friend needs a second person: the static site does not offer it.
  assert.equal(await page.locator('#friend-card').isVisible(), !STATIC);
  assert.equal(await page.locator('#lobby-card').isVisible(), !STATIC);
  // Then the saved games, below the leading cards.
  const games = await page.locator('#games-card').boundingBox();
  const lead = await page.locator('#computer-card').boundingBox();
  assert.ok(games.y > lead.y + lead.height, 'the saved games come after the leading cards');
  // The custom game keeps every option under the names scripts use.
  for (const name of ['White player', 'Black player']) assert.equal(await page.getByRole('combobox', { name, exact: true }).count(), 1);
  assert.equal(await page.getByRole('button', { name: 'Start game', exact: true }).count(), 1);
  assert.deepEqual(errors, []);
});

test('Play the computer: one button, the engine plays the other colour', async () => {
  await home(page);
  await page.locator('#pc-level').selectOption({ label: 'Level 1: random moves' });
  await page.locator('#pc-color').selectOption('black');
  await page.locator('#pc-variant').selectOption('Standard');
  await page.getByRole('button', { name: 'Play the computer', exact: true }).click();
  await page.waitForFunction(() => /#\/game\/\d+/.test(location.hash));
  // The engine has White and moves first; then it is the player's move, as Black.
  await page.locator('#status').filter({ hasText: /^Black to move/ }).waitFor({ timeout: 20000 });
  assert.match(await page.locator('#p-white .name').textContent(), /chess5d|random|engine/i);
  assert.ok(gameId(page) > 0);
  // The board is turned for the player of Black: the first rank is at the top.
  const [a1, a8] = await Promise.all(['a1', 'a8'].map((sq) => page.locator(`#world .board rect[data-square="${sq}"]`).first().boundingBox()));
  assert.ok(a1.y < a8.y, 'the board is seen from Black');
  assert.deepEqual(errors, []);
});

test('Play the computer offers named levels, each a bot and a time per action, and the game gets the one chosen', async () => {
  await home(page);
  const levels = await page.locator('#pc-level option').allTextContents();
  assert.deepEqual(levels, ['Level 1: random moves', 'Level 2: greedy (takes what it can)', 'Level 3: alpha-beta, ½ s an action',
    'Level 4: alpha-beta, 2 s an action', 'Level 5: alpha-beta, 5 s an action']);
  assert.equal(await page.locator('#pc-level option:checked').textContent(), 'Level 3: alpha-beta, ½ s an action');
  await page.locator('#pc-level').selectOption({ label: 'Level 4: alpha-beta, 2 s an action' });
  await page.locator('#pc-color').selectOption('white');
  await page.locator('#pc-variant').selectOption('Standard');
  await page.getByRole('button', { name: 'Play the computer', exact: true }).click();
  await page.waitForFunction(() => /#\/game\/\d+/.test(location.hash));
  await page.locator('#status').filter({ hasText: /^White to move/ }).waitFor();
  const s = await apiGet(BASE, `/api/games/${gameId(page)}`);
  assert.equal(s.players.white.config.type, 'human');
  const { type, bot, movetime_ms: ms } = s.players.black.config;
  assert.deepEqual([type, bot, ms], ['engine', 'alphabeta', 2000]);
  assert.deepEqual(errors, []);
});

test('the puzzle card starts its puzzle', async () => {
  await home(page);
  const name = (await page.locator('#puzzle-next .puzzle-name').textContent()).trim();
  await page.locator('#puzzle-next button[data-puzzle-start]').click();
  await page.locator('#status').filter({ hasText: `Puzzle “${name}”` }).waitFor();
  assert.deepEqual(errors, []);
});

test('at 390x844 nothing of the home page is cut off, and it leads with the computer', async () => {
  const phone = await launch({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  extra.push(phone);
  await home(phone.page);
  await phone.page.screenshot({ path: join(SHOTS, `landing-390x844${SUFFIX}.png`), fullPage: true });
  const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the home page is ${width}px wide on a 390px screen`);
  const off = await phone.page.evaluate(() => [...document.querySelectorAll('#home button, #home select, #home input, #home textarea, #home td, #home .card, #home h2')]
    .filter((e) => e.offsetParent !== null)
    .map((e) => [e.id || e.textContent.trim().slice(0, 20) || e.tagName, Math.round(e.getBoundingClientRect().left), Math.round(e.getBoundingClientRect().right)])
    .filter(([, left, right]) => left < -1 || right > innerWidth + 1));
  assert.deepEqual(off, [], `cut off on a phone: ${JSON.stringify(off.slice(0, 8))}`);
  // The first screen shows the computer card with its button.
  const b = await phone.page.getByRole('button', { name: 'Play the computer', exact: true }).boundingBox();
  assert.ok(b.y + b.height <= 844, `Play the computer is on the first screen (bottom ${b.y + b.height})`);
  assert.deepEqual(phone.errors, []);
});
