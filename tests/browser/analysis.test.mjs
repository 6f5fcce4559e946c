// The analysis board: "Analyse" runs the engine continuously (go infinite / stop) on the
// position shown; an evaluation ([data-eval], centipawns or "mate N" from White's view) and a
// best line ([data-pv], in the notation panel's notation, clickable to preview as arrows) appear
// within 3 s on the standard start; moves tried there do not change the game and can be exported
// as a variation; stopping frees the engine (idle, ready for the next start).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, closeSession, board, move, SHOTS, seatLink } from './helpers.mjs';

let session, page, errors, BASE;

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});

after(() => closeSession(session));

/** The page's analysis board as the API gives it to its maker (with the board's token). */
async function boardState(page) {
  const [id, seat] = await page.evaluate(() => [window.__chess5dAnalysis(), window.__chess5dAnalysisSeat()]);
  return fetch(`${BASE}/api/analysis/${id}`, { headers: { 'X-Chess5d-Seat': seat } }).then((r) => r.json());
}

test('Analyse: eval and best line within 3 s, preview, scratch moves, export, stop and discard', async () => {
  const g = await fetch(`${BASE}/api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }).then((r) => r.json());
  await page.goto(seatLink(BASE, g));
  await board(page, [0, 1, 'white']).waitFor();
  const t0 = Date.now();
  await page.getByRole('button', { name: 'Analyse', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('[data-eval]').dataset.eval !== '' && document.querySelector('[data-pv]').dataset.pv !== '', null, { timeout: 3000 });
  console.log(`# eval and best line after ${Date.now() - t0} ms`);
  const ev = await page.locator('[data-eval]').getAttribute('data-eval');
  assert.match(ev, /^(-?\d+|mate -?\d+)$/);
  assert.match(await page.locator('#eval-depth').textContent(), /depth \d+/);
  assert.match(await page.locator('#eval-nps').textContent(), /nodes\/s/);
  // The best line is written as the notation panel writes actions (SAN, e.g. "e4", "Nf3").
  const pv = (await page.locator('[data-pv]').getAttribute('data-pv')).split(' | ');
  assert.ok(pv.length >= 1 && pv.every((a) => /^[a-zA-Z(][^|]*$/.test(a) && !a.includes('T1)')), pv.join(' | '));
  // Engine output stays out of the status line.
  assert.doesNotMatch(await page.locator('#status').textContent(), /depth|score|nodes|info/);
  // Hovering the first action of the best line previews it as an arrow on the board (a click
  // would play it: analysis-lines.test.mjs).
  await page.locator('#pv .pv-act').first().hover();
  await page.locator('#world .arrow.pv').first().waitFor({ state: 'attached' });
  await page.screenshot({ path: join(SHOTS, '30-analysis.png') });

  // A move tried on the analysis board: the game does not change.
  await move(page, [0, 1, 'white'], 'd2', [0, 1, 'white'], 'd4');
  await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/submit')),
    page.getByRole('button', { name: 'Submit', exact: true }).click(),
  ]);
  await page.locator('#analysis-tried', { hasText: '1 action tried' }).waitFor();
  const game = await fetch(`${BASE}/api/games/${g.id}`).then((r) => r.json());
  assert.equal(game.action_count, 0);
  assert.equal(game.pending.length, 0);
  // The engine goes on with the new position (Black to move).
  await page.waitForFunction(() => document.querySelector('[data-pv]').dataset.pv !== '', null, { timeout: 3000 });
  // Exported as a variation of the game.
  await page.getByRole('button', { name: 'Export variation', exact: true }).click();
  // The text arrives from the server after the dialog opens.
  await page.waitForFunction(() => document.querySelector('#export-text').value.length > 0);
  const text = await page.locator('#export-text').inputValue();
  assert.match(text, /\(1\. d4\)/);
  await page.locator('#export-close').click();

  // Stop: the engine is idle (the board says so, the counts stop) and can start again.
  await page.getByRole('button', { name: 'Stop engine', exact: true }).click();
  await page.locator('#analysis[data-engine="stopped"]').waitFor();
  const boards = await boardState(page);
  assert.equal(boards.engine.running, false);
  const nodes = boards.engine.nodes;
  await page.waitForTimeout(500);
  const again = await boardState(page);
  assert.equal(again.engine.nodes, nodes, 'no search after stop');
  await page.getByRole('button', { name: 'Start engine', exact: true }).click();
  await page.locator('#analysis[data-engine="running"]').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-eval]').dataset.eval !== '', null, { timeout: 3000 });

  // Discard: back to the game's own position; the analysis board is gone.
  const [aid, seat] = await page.evaluate(() => [window.__chess5dAnalysis(), window.__chess5dAnalysisSeat()]);
  await page.getByRole('button', { name: 'Discard analysis', exact: true }).click();
  await page.locator('#analysis').waitFor({ state: 'hidden' });
  await page.waitForFunction(() => !document.querySelector('#world .board[data-l="0"][data-t="1"][data-color="black"]'));
  await page.waitForTimeout(200);
  assert.equal((await fetch(`${BASE}/api/analysis/${aid}`, { headers: { 'X-Chess5d-Seat': seat } })).status, 404);
});

test('Analyse on a reviewed position starts from that position', async () => {
  const g = await fetch(`${BASE}/api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ import: '[Board "Standard"]\n\n1. e4 / e5\n2. Nf3 / Nc6\n' }) }).then((r) => r.json());
  await page.goto(seatLink(BASE, g));
  await board(page, [0, 3, 'white']).waitFor();
  await page.locator('#notation .act[data-index="2"]').click();
  await page.waitForFunction(() => document.querySelector('#play').dataset.review === '2');
  await page.getByRole('button', { name: 'Analyse', exact: true }).click();
  await page.waitForFunction(() => window.__chess5dAnalysis() !== null && document.querySelector('[data-pv]').dataset.pv !== '', null, { timeout: 3000 });
  const st = await boardState(page);
  assert.equal(st.action_count, 2);
  assert.equal(st.to_move, 'white');
  // An action tried there: in the board's own move list, exported as a variation of the whole
  // game that reads back (issue 17: it used to hang on the wrong action), and taken back.
  await move(page, [0, 2, 'white'], 'd2', [0, 2, 'white'], 'd4');
  await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/submit')),
    page.getByRole('button', { name: 'Submit', exact: true }).click(),
  ]);
  await page.locator('#analysis-line li', { hasText: 'd4' }).waitFor();
  // The dialog's text box still holds the last export (of the test before): empty it, so the
  // wait below sees this export's text.
  await page.locator('#export-text').evaluate((t) => { t.value = ''; });
  await page.getByRole('button', { name: 'Export variation', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('#export-text').value.length > 0);
  const text = await page.locator('#export-text').inputValue();
  await page.locator('#export-close').click();
  assert.match(text, /1\. e4 \/ e5 \(2\. d4\)\s*2\. Nf3 \/ Nc6/, text);
  const back = await fetch(`${BASE}/api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ import: text }) });
  assert.equal(back.status, 201, await back.text());
  await page.getByRole('button', { name: 'Take back', exact: true }).click();
  await page.waitForFunction(() => document.querySelectorAll('#analysis-line li').length === 0 && document.querySelector('#btn-takeback').disabled);
  const after = await boardState(page);
  assert.equal(after.action_count, 2, JSON.stringify(after.analysis));
  await page.getByRole('button', { name: 'Analyse', exact: true }).click();
  await page.locator('#analysis').waitFor({ state: 'hidden' });
});

test('no console errors', () => {
  assert.deepEqual(errors.filter((e) => !/Failed to load resource.*(400|409)/.test(e)), []);
});
