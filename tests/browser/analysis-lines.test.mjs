// The analysis board's lines (issue 20, point 5): the engine's three best actions (MultiPV 3),
// each with its evaluation and its line in the notation panel's notation, best first, updated as
// the search deepens; a click on a line's first action plays it on the analysis board (as in
// lichess's analysis), hovering an action previews the line up to it as arrows. Served GUI and
// static site (tests/browser/static/run.sh runs this file too: the engine in a Web Worker).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, closeSession, board, createGame, seatLink, apiGet, apiAnswer, SHOTS } from './helpers.mjs';

let session, page, errors, BASE;
const site = process.env.SITE === 'static' ? 'static' : 'served';

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});

after(() => closeSession(session));

/** The lines the panel shows now. */
const shownLines = () => page.$$eval('#pv .pv-line', (ls) => ls.map((l) => ({
  rank: l.dataset.rank,
  eval: l.dataset.lineEval,
  shown: l.querySelector('.pv-eval').textContent,
  num: l.querySelector('.pv-num')?.textContent ?? '',
  first: l.querySelector('.pv-act.pv-first')?.textContent ?? '',
  acts: l.querySelectorAll('.pv-act').length,
})));

test('three lines with their scores, best first; a click on a line plays its first action', async () => {
  const g = await createGame(BASE, {});
  await page.goto(seatLink(BASE, g));
  await board(page, [0, 1, 'white']).waitFor();
  await page.getByRole('button', { name: 'Analyse', exact: true }).click();
  await page.waitForFunction(() => document.querySelectorAll('#pv .pv-line').length === 3, null, { timeout: 10000 });
  const lines = await shownLines();
  assert.deepEqual(lines.map((l) => l.rank), ['1', '2', '3']);
  for (const l of lines) {
    assert.match(l.eval, /^(-?\d+|mate -?\d+)$/, JSON.stringify(l));
    assert.match(l.shown, /^([+-]?\d+\.\d\d|#-?\d+)$/, JSON.stringify(l));
    // From the start: White's action, numbered 1, in SAN (e4, Nf3...).
    assert.equal(l.num, '1.', JSON.stringify(l));
    assert.match(l.first, /^[a-hKQRBN][a-h1-8x=+#]*$/, JSON.stringify(l));
  }
  assert.equal(new Set(lines.map((l) => l.first)).size, 3, `three different actions: ${JSON.stringify(lines)}`);
  // The best line is the evaluation shown above the lines.
  const [top, best] = await page.evaluate(() => [document.querySelector('#eval').dataset.eval,
    document.querySelector('#pv .pv-line[data-rank="1"]').dataset.lineEval]);
  assert.equal(top, best);
  // Hovering an action previews its line as arrows.
  await page.locator('#pv .pv-line[data-rank="1"] .pv-act.pv-first').hover();
  await page.locator('#world .arrow.pv').first().waitFor({ state: 'attached' });
  await page.mouse.move(5, 5);
  await page.waitForFunction(() => !document.querySelector('#world .arrow.pv'));
  // Wide and narrow windows: the lines fit the panel (one row each, nothing past its edge).
  await page.locator('#analysis').screenshot({ path: join(SHOTS, `31-analysis-lines-${site}.png`) });
  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    // The lines are redrawn as the search deepens and the layout follows the resize a frame or
    // two later: wait (up to 5 s) for a frame where every line fits, and on failure report the
    // rectangles of the last frame measured, not only a verdict. (A fixed 150 ms wait once read
    // all three lines outside the panel on a loaded CI machine.)
    const measure = () => page.$$eval('#pv .pv-line', (ls) => {
      const box = document.querySelector('#analysis').getBoundingClientRect();
      return ls.map((l) => {
        const r = l.getBoundingClientRect();
        return { inside: r.left >= box.left - 1 && r.right <= box.right + 1, oneRow: r.height < 30,
          line: [Math.round(r.left), Math.round(r.right), Math.round(r.height)],
          panel: [Math.round(box.left), Math.round(box.right)] };
      });
    });
    const fits = (fit) => fit.length >= 1 && fit.every((f) => f.inside && f.oneRow);
    let fit = await measure();
    for (let i = 0; i < 50 && !fits(fit); i += 1) {
      await page.waitForTimeout(100);
      fit = await measure();
    }
    assert.ok(fits(fit), `${size.width}px: ${JSON.stringify(fit)}`);
    await page.screenshot({ path: join(SHOTS, `32-analysis-lines-${size.width}-${site}.png`), fullPage: size.width < 500 });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // A click on the second line's first action plays that action (read as it is clicked: the
  // lines change as the engine goes deeper).
  const aid = await page.evaluate(() => window.__chess5dAnalysis());
  const submitted = apiAnswer(page, '/submit');
  const played = await page.evaluate(() => {
    const el = document.querySelector('#pv .pv-line[data-rank="2"] .pv-act.pv-first');
    const text = el.textContent;
    el.click();
    return text;
  });
  await submitted;
  await page.locator('#analysis-tried', { hasText: '1 action tried' }).waitFor();
  assert.equal(await page.locator('#analysis-line li').first().textContent(), played);
  const st = await apiGet(BASE, `/api/analysis/${aid}`, { seat: { token: await page.evaluate(() => window.__chess5dAnalysisSeat()) } });
  assert.equal(st.action_count, 1);
  assert.equal(st.to_move, 'black');
  assert.equal(st.actions[0].text.replace(/[+#]$/, ''), played.replace(/[+#]$/, ''));
  const game = await apiGet(BASE, `/api/games/${g.id}`);
  assert.equal(game.action_count, 0, 'the game itself is unchanged');
  // The engine goes on for Black: three lines again, numbered "1b.".
  await page.waitForFunction(() => {
    const ls = document.querySelectorAll('#pv .pv-line');
    return ls.length === 3 && [...ls].every((l) => l.querySelector('.pv-num')?.textContent === '1b.');
  }, null, { timeout: 10000 });
  await page.getByRole('button', { name: 'Discard analysis', exact: true }).click();
  await page.locator('#analysis').waitFor({ state: 'hidden' });
});

test('a position with two legal actions shows two lines', async () => {
  // Black's king in the corner has a4 and b5 (White's king guards b4).
  const g = await createGame(BASE, { import: '[Board "custom"]\n[Size "5x5"]\n[k4/5/2K2/5/5:0:1:b]\n' });
  await page.goto(seatLink(BASE, g));
  await page.locator('#world .board').first().waitFor();
  await page.getByRole('button', { name: 'Analyse', exact: true }).click();
  await page.waitForFunction(() => document.querySelectorAll('#pv .pv-line').length === 2 && document.querySelector('#eval').dataset.eval !== '', null, { timeout: 10000 });
  await page.waitForTimeout(600); // and no third line comes
  const lines = await shownLines();
  assert.deepEqual(lines.map((l) => l.first).sort(), ['Ka4', 'Kb5']);
  await page.getByRole('button', { name: 'Discard analysis', exact: true }).click();
});

test('lines are numbered as the notation panel numbers the game, after time travel too', async () => {
  // Five turns with a jump back: the present is T4, the game's next action is White's 6th.
  const pgn = '[Board "Standard"]\n\n1. e4 / a5\n2. Nf3 / b5\n3. (0T3)Nf3>>(0T1)f4~ / (1T1)a5\n'
    + '4. (1T2)e4 / (1T2)b5\n5. (1T3)Nf4>>(0T3)f6 / (1T3)c5 (0T3)c5\n';
  const g = await createGame(BASE, { import: pgn });
  await page.goto(seatLink(BASE, g));
  await page.locator('#world .board').first().waitFor();
  const st = await apiGet(BASE, `/api/games/${g.id}`);
  const last = st.actions[st.actions.length - 1];
  assert.deepEqual([last.number, last.color], [5, 'black']);
  await page.getByRole('button', { name: 'Analyse', exact: true }).click();
  // (the lines of this board: the panel may still show the last board's for a moment)
  const numbered = await page.waitForFunction(() => {
    const ls = [...document.querySelectorAll('#pv .pv-line')];
    return ls.length >= 1 && ls.every((l) => /^(Ka4|Kb5)$/.test(l.querySelector('.pv-act.pv-first')?.textContent ?? '') === false);
  }, null, { timeout: 15000 }).then(() => true, () => false);
  const lines = await shownLines();
  assert.ok(numbered && lines.every((l) => l.num === '6.'), JSON.stringify(lines));
  await page.getByRole('button', { name: 'Discard analysis', exact: true }).click();
});

test('no console errors', () => {
  assert.deepEqual(errors.filter((e) => !/Failed to load resource.*(400|409)/.test(e)), []);
});
