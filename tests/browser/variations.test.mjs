// Variations of an imported game (Branched 5DPGN): kept with the game, drawn in the notation
// panel as indented lines under the action they branch from (a variation of a variation
// further in), a move of one shows its position read-only (the game stays as it is), and the
// export writes them again (export -> import -> export is the same text). Runs on the served
// GUI and on the static site (tests/browser/static/run.sh).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, closeSession, board, gameId, apiGet, SHOTS } from './helpers.mjs';

let session, page, errors, BASE;

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});

after(() => closeSession(session));

// Two variations: after 1. e4 Black tries 1... c5 (in which White tries 2. Nc3 / Nc6), and
// after 2. Nf3 Black tries 2... Nf6 3. Nxe5.
const BRANCHED = '[Board "Standard"]\n[Event "Variations"]\n\n'
  + '1. e4 (/ c5 (2. Nc3 / Nc6) 2. Nf3 / d6) / e5\n'
  + '2. Nf3 (/ Nf6 3. Nxe5) / Nc6\n'
  + '3. Bc4 / Bc5\n';

async function importText(text) {
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.locator('#import-text').fill(text);
  await page.getByRole('button', { name: 'Load', exact: true }).click();
}

async function exportText() {
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('#export-text').value.length > 0);
  const text = await page.locator('#export-text').inputValue();
  await page.locator('#export-close').click();
  return text;
}

/** The notation panel's rows as text: a variation line as "[depth] moves". */
function panelRows() {
  return page.locator('#notation > li').evaluateAll((lis) => lis.map((li) => (li.classList.contains('variation')
    ? `[${li.dataset.depth}] ${li.textContent.trim().replace(/\s+/g, ' ')}`
    : li.textContent.trim().replace(/\s+/g, ' '))));
}

/** A piece on a square of a board, as "colour letter" (null if empty). */
function pieceAt(b, sq) {
  return board(page, b).locator(`.piece[data-at="${sq}"]`).evaluateAll((ps) => (ps[0] ? `${ps[0].dataset.pieceColor} ${ps[0].dataset.piece}` : null));
}

test('an imported game keeps its variations: indented lines in the notation', async () => {
  await page.goto(BASE);
  await importText(BRANCHED);
  await page.waitForURL(/#\/game\/\d+/);
  await page.locator('#notation li.variation').first().waitFor();
  const rows = await panelRows();
  // Each variation under the action it branches from (the turn's row is cut there), the
  // variation of the variation under it, one step further in.
  assert.deepEqual(rows, [
    'e4',
    '[1] 1… c5 2. Nf3 / d6',
    '[2] 2. Nc3 / Nc6',
    '… e5',
    'Nf3',
    '[1] 2… Nf6 3. Nxe5',
    '… Nc6',
    'Bc4 / Bc5',
  ]);
  const indent = await page.locator('#notation > li').evaluateAll((lis) => lis.map((li) => li.getBoundingClientRect().left));
  assert.ok(indent[1] > indent[0] + 8, `a variation is indented: ${indent}`);
  assert.ok(indent[2] > indent[1] + 8, `a variation of a variation further: ${indent}`);
  await page.screenshot({ path: join(SHOTS, 'variations-1-panel.png') });
  // On a phone the panel is under the boards: the lines keep their indentation.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('#notation').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, 'variations-1-panel-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('a move of a variation shows its position read-only; the game is unchanged', async () => {
  const id = gameId(page);
  // 1... c5: Black's pawn on c5 on the board after it, not the game's e5.
  await page.locator('#notation .var-act', { hasText: 'c5' }).click();
  await page.locator('#review-bar').waitFor({ state: 'visible' });
  assert.match(await page.locator('#review-bar').textContent(), /variation/i);
  assert.match(await page.locator('#status').textContent(), /variation.*1… c5/i);
  await board(page, [0, 2, 'white']).locator('.piece').first().waitFor({ state: 'attached' });
  assert.equal(await pieceAt([0, 2, 'white'], 'c5'), 'black P');
  assert.equal(await pieceAt([0, 2, 'white'], 'e5'), null);
  assert.equal(await page.locator('#notation .var-act.current').textContent(), 'c5');
  assert.equal(await page.locator('#btn-submit').isDisabled(), true);
  assert.equal(await board(page, [0, 2, 'white']).getAttribute('data-playable'), 'false');
  await page.screenshot({ path: join(SHOTS, 'variations-2-shown.png') });
  // Further along the variation of the variation: 2. Nc3 / Nc6, by the arrow key from 2. Nc3.
  await page.locator('#notation .var-act', { hasText: 'Nc3' }).click();
  await page.waitForFunction(() => document.querySelector('#notation .var-act.current')?.textContent === 'Nc3');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('#notation .var-act.current')?.textContent === 'Nc6');
  await board(page, [0, 3, 'white']).locator('.piece').first().waitFor({ state: 'attached' });
  assert.equal(await pieceAt([0, 3, 'white'], 'c6'), 'black N');
  assert.equal(await pieceAt([0, 3, 'white'], 'c3'), 'white N');
  // Back to the game: as it was, White to move after 3. Bc4 / Bc5.
  await page.locator('#btn-live').click();
  await page.locator('#review-bar').waitFor({ state: 'hidden' });
  await board(page, [0, 4, 'white']).locator('.piece[data-at="c5"]').waitFor({ state: 'attached' });
  assert.equal(await pieceAt([0, 4, 'white'], 'c5'), 'black B');
  const state = await apiGet(BASE, `/api/games/${id}`);
  assert.equal(state.action_count, 6);
  assert.equal(state.human_to_move, true);
  assert.equal(await page.locator('#btn-submit').isDisabled(), true, 'nothing played yet');
});

test('the export writes the variations again: export, import, export is the same', async () => {
  const first = await exportText();
  assert.ok(first.includes('1. e4 (/ c5 (2. Nc3 / Nc6) 2. Nf3 / d6) / e5\n'), first);
  assert.ok(first.includes('2. Nf3 (/ Nf6 3. Nxe5) / Nc6\n'), first);
  const id = gameId(page);
  await importText(first);
  await page.waitForURL((u) => /#\/game\/\d+/.test(u.hash) && Number(u.hash.split('/')[2]) !== id);
  await page.locator('#notation li.variation').first().waitFor();
  assert.equal(await page.locator('#notation li.variation').count(), 3);
  const second = await exportText();
  assert.equal(second, first);
  // Kept with the game: a reload (the static site: from IndexedDB) shows them again.
  await page.reload();
  await page.locator('#notation li.variation').nth(2).waitFor();
  assert.equal(await exportText(), first);
});

test('a variation with an illegal move is refused, saying where', async () => {
  await page.goto(BASE);
  await importText(BRANCHED.replace('Nxe5', 'Nxe7'));
  const err = page.locator('#import-error');
  await err.waitFor({ state: 'visible' });
  assert.match(await err.textContent(), /action 5, 'Nxe7' at line 5, column 18/);
  await page.locator('#import-cancel').click();
  // Nothing went wrong in the page (the refused import's answer is the only error logged).
  assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
});
