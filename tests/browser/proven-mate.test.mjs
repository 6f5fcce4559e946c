// Proven mates on the analysis board: beside the engine, the solver looks for a short forced
// mate (chess5d_play::mates); once proven the panel shows "Mate in N (proven)" with its line,
// above the engine's lines. Timeline Fragments from the start is a win in 2 for White
// (crates/solve/README.md); the standard start shows nothing. Runs in both builds (SITE=static:
// the worker's proven_mate).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, closeSession, createGame, seatLink, SHOTS } from './helpers.mjs';

let session, page, errors, BASE;

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});

after(() => closeSession(session));

async function analyse(variant) {
  const g = await createGame(BASE, { variant });
  await page.goto(seatLink(BASE, g));
  await page.locator('#world .board').first().waitFor({ state: 'attached' });
  await page.getByRole('button', { name: 'Analyse', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('[data-pv]')?.dataset.pv, null, { timeout: 20000 });
}

test('Analyse shows a proven mate in 2 with its line, and nothing where none is proven', async () => {
  await analyse('Misc - Timeline Fragments');
  const box = page.locator('#proven[data-proven="2"]');
  await box.waitFor({ timeout: 30000 });
  const text = await box.textContent();
  assert.match(text, /^Mate in 2 \(proven\) for white: /);
  // The line: White's action, a defence, White's mating action.
  assert.equal(text.split(': ')[1].split(' | ').length, 3, text);
  await page.screenshot({ path: join(SHOTS, '70-proven-mate.png') });

  await analyse('Standard');
  await page.waitForTimeout(1500);
  assert.equal(await page.locator('#proven').getAttribute('data-proven'), '');
  assert.ok(await page.locator('#proven').evaluate((e) => e.classList.contains('hidden')));
  assert.deepEqual(errors, []);
});
