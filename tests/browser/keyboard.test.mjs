// Issue 48, point 4: keyboard play and reach.
// - Moves typed as the notation panel writes them, with completion: the list narrows as the
//   player types (the back-end's moves written by the notation crate), arrow keys and Enter,
//   several moves then Enter on the empty field submit a multi-move action, and a text that is
//   no legal move is refused with a message.
// - Every control reachable by Tab, the focus visible, no trap, on the game, review, lesson and
//   puzzle pages; the review graph's points by arrow keys, Home and End; dialogs and the
//   settings menu closed by Escape.
// Runs against the served GUI and (SITE=static) the static site.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, closeSession, createGame, seatLink, apiGet, apiAnswer, SHOTS } from './helpers.mjs';

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

const options = () => page.$$eval('#move-list li', (ls) => ls.map((l) => l.textContent));
const status = () => page.locator('#status').textContent();

/** Types `text` into the move field and waits for the list or the message to follow. */
async function typeMove(text) {
  await page.locator('#move-text').fill('');
  await page.locator('#move-text').pressSequentially(text);
  await page.waitForFunction((t) => document.querySelector('#move-text').value === t && document.querySelector('#move-msg').textContent !== '', text);
}

/** Presses Enter in the move field, waiting for the back-end's answer to `suffix`. */
async function enter(suffix) {
  await Promise.all([apiAnswer(page, suffix, 'POST'), page.locator('#move-text').press('Enter')]);
}

test('typed moves: completion narrows, arrows and Enter play, a multi-move action, a refusal', async () => {
  const g = await createGame(BASE, { variant: 'Standard' });
  await page.goto(seatLink(BASE, g));
  await page.locator('#world .board').first().waitFor();
  await page.locator('#move-text').focus();
  // The knights' moves as the notation writes them, narrowing as the player types.
  await typeMove('N');
  assert.deepEqual((await options()).sort(), ['Na3', 'Nc3', 'Nf3', 'Nh3']);
  await typeMove('Nf');
  assert.deepEqual(await options(), ['Nf3']);
  await page.screenshot({ path: join(SHOTS, `keyboard-completion-1280${SUFFIX}.png`) });
  await enter('/move');
  await page.waitForFunction(() => /Ready to submit/.test(document.querySelector('#status').textContent));
  // Enter on the empty field submits.
  await enter('/submit');
  await page.waitForFunction(() => /Black to move/.test(document.querySelector('#status').textContent));
  // Arrow keys choose among several: the second of Black's knight moves on f.
  await typeMove('N');
  const knights = await options();
  assert.equal(knights.length, 4, knights.join());
  await page.locator('#move-text').press('ArrowDown');
  const chosen = await page.locator('#move-list li.active').textContent();
  assert.equal(chosen, knights[1]);
  assert.equal(await page.locator('#move-text').getAttribute('aria-activedescendant'), 'move-opt-1');
  await enter('/move');
  await enter('/submit');
  await page.waitForFunction(() => /White to move/.test(document.querySelector('#status').textContent));
  const played = await page.$$eval('#notation .act', (as) => as.map((a) => a.textContent));
  assert.deepEqual(played, ['Nf3', chosen]);
  // A text that is no legal move here: refused, saying so; nothing is played.
  await typeMove('Qh5');
  assert.deepEqual(await options(), []);
  await page.locator('#move-text').press('Enter');
  assert.match(await page.locator('#move-msg').textContent(), /"Qh5" is not a legal move here/);
  assert.match(await page.locator('#move-msg').getAttribute('class'), /error/);
  assert.equal((await page.$$eval('#notation .act', (as) => as.length)), 2);

  // A jump back in time makes a timeline; the other side then plays on two boards: two typed
  // moves and Enter make one action.
  const { moves } = await apiGet(BASE, `/api/games/${g.id}/moves`, g);
  const jump = moves.find((m) => m.kind === 'branch' && m.san.startsWith('(0T2)N'));
  assert.ok(jump, `a knight's jump among ${moves.map((m) => m.san).join(' ')}`);
  await typeMove(jump.san);
  await enter('/move');
  await enter('/submit');
  await page.waitForFunction(() => /Black to move/.test(document.querySelector('#status').textContent));
  for (let i = 0; i < 2; i++) {
    await typeMove('(');
    const first = (await options())[0];
    assert.ok(first, `a move to type on board ${i + 1}`);
    await page.locator('#move-text').fill(first);
    await page.locator('#move-text').dispatchEvent('input');
    await page.waitForFunction((t) => [...document.querySelectorAll('#move-list li')].some((l) => l.textContent === t), first);
    await enter('/move');
  }
  await page.waitForFunction(() => /Ready to submit/.test(document.querySelector('#status').textContent));
  await enter('/submit');
  await page.waitForFunction(() => /White to move/.test(document.querySelector('#status').textContent));
  const last = await page.$$eval('#notation .act', (as) => as[as.length - 1].textContent);
  assert.equal(last.split(' ').length, 2, `a two-move action: ${last}`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('#move-text').scrollIntoViewIfNeeded();
  await typeMove('(0T4)N');
  await page.screenshot({ path: join(SHOTS, `keyboard-completion-390${SUFFIX}.png`) });
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.deepEqual(errors.filter((e) => !/Failed to load resource.*(400|409)/.test(e)), []);
});

/** Tabs through the page from its start: the controls focused in order (each described), with
 * whether its focus was visible; stops when the focus comes back to the first. */
async function tabThrough(max = 120) {
  await page.evaluate(() => { document.activeElement?.blur(); window.getSelection()?.removeAllRanges(); });
  const seen = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const f = await page.evaluate(() => {
      const e = document.activeElement;
      if (!e || e === document.body) return null;
      const st = getComputedStyle(e);
      const visible = (st.outlineStyle !== 'none' && parseFloat(st.outlineWidth) > 0) || st.boxShadow !== 'none';
      const name = e.id ? `#${e.id}` : `${e.tagName.toLowerCase()}${e.className && typeof e.className === 'string' ? `.${e.className.split(' ')[0]}` : ''}(${(e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 20)})`;
      return { name, visible };
    });
    if (!f) continue;
    if (seen.length && f.name === seen[0].name) break;
    seen.push(f);
  }
  return seen;
}

async function checkTabs(where, must) {
  const seen = await tabThrough();
  const names = seen.map((f) => f.name);
  assert.ok(seen.length >= 8, `${where}: ${names.join(' ')}`);
  assert.ok(seen.length < 120, `${where}: the focus never came back to the first control (a trap?): ${names.slice(-10).join(' ')}`);
  const hidden = seen.filter((f) => !f.visible).map((f) => f.name);
  assert.deepEqual(hidden, [], `${where}: focus not visible on these`);
  for (const m of must) assert.ok(names.includes(m), `${where}: ${m} not reached by Tab: ${names.join(' ')}`);
  return names;
}

test('every control by Tab on the game, review, lesson and puzzle pages; the review graph by keys; Escape closes', async () => {
  // The game page.
  const g = await createGame(BASE, { import: '[Board "Standard"]\n\n1. e4 / e5\n2. Bc4 / Nc6\n3. Qh5 / Nf6\n4. Qxf7#\n' });
  await page.goto(seatLink(BASE, g));
  await page.locator('#world .board').first().waitFor();
  await checkTabs('game', ['#btn-fit', '#btn-present', '#btn-export', '#btn-computer-review']);
  // The review: the graph is one stop; its points by arrow keys, Home and End.
  await page.getByRole('button', { name: 'Review with the computer' }).click();
  await page.waitForFunction(() => document.querySelector('#computer-review')?.dataset.status === 'done', null, { timeout: 60000 });
  const names = await checkTabs('review', ['#cr-graph', '#btn-first', '#btn-prev']);
  assert.ok(names.includes('span.act(e4)'), `the notation's actions: ${names.join(' ')}`);
  await page.locator('#cr-graph').focus();
  const review = () => page.evaluate(() => document.querySelector('#play').dataset.review);
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('#play').dataset.review === '1');
  assert.equal(await page.locator('#cr-graph').getAttribute('aria-valuenow'), '1');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('#play').dataset.review === '3');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.querySelector('#play').dataset.review === '2');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('#play').dataset.review === '7');
  assert.equal(await review(), '7');
  assert.match(await page.locator('#cr-graph .cr-pt[data-index="6"]').getAttribute('class'), /current/);
  assert.match(await page.locator('#cr-graph').getAttribute('aria-valuetext'), /Qxf7/);
  // Enter on a notation action goes there.
  await page.locator('#notation .act[data-index="2"]').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#play').dataset.review === '2');
  await page.screenshot({ path: join(SHOTS, `keyboard-review-1280${SUFFIX}.png`) });

  // The import dialog by keyboard, closed by Escape; the settings menu too.
  await page.locator('#btn-import').focus();
  await page.keyboard.press('Enter');
  await page.locator('#import-dialog[open]').waitFor();
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('#import-dialog').open);
  await page.locator('#settings summary').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#settings').open);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('#settings').open);
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), 'Settings');

  // A lesson.
  await page.goto(`${BASE}/#/learn/rook/1`);
  await page.locator('#lesson-prompt').waitFor();
  await page.locator('#world .board').first().waitFor();
  await checkTabs('lesson', ['#btn-fit']);
  // A puzzle.
  await page.goto(`${BASE}/`);
  const b = page.locator('#puzzle-next button[data-puzzle-start]');
  await b.waitFor();
  await b.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /^#\/game\/\d+/.test(location.hash));
  await page.locator('#world .board').first().waitFor();
  await checkTabs('puzzle', ['#move-text', '#btn-fit']);
  assert.deepEqual(errors.filter((e) => !/Failed to load resource.*(400|409)/.test(e)), []);
});
