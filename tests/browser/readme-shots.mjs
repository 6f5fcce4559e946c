// Makes the README's screenshots (crates/server/docs/*.png) with a fresh server:
//   SERVER_CMD="target/release/chess5d serve" node tests/browser/readme-shots.mjs
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, startServer, freshDb } from './helpers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const docs = join(here, '../../crates/server/docs');
const server = await startServer(freshDb());
const BASE = server.url;
const { ctx, page } = await launch();
const create = (body) => fetch(`${BASE}/api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
const still = () => page.waitForFunction(() => document.querySelector('#view').dataset.camera === 'still');
try {
  // A real game of four timelines, reviewed, with the analysis board and its best line.
  const g = await create({ import: readFileSync(join(here, 'data/game-2.5dpgn'), 'utf8') });
  await page.goto(`${BASE}/#/game/${g.id}`);
  await page.locator('#world .board').first().waitFor();
  await page.locator('#notation .act[data-index="28"]').click();
  await page.waitForFunction(() => document.querySelector('#play').dataset.review === '28');
  await still();
  await page.getByRole('button', { name: 'Analyse', exact: true }).click();
  await page.waitForFunction(() => document.querySelectorAll('#pv .pv-line:first-child .pv-act').length >= 2, null, { timeout: 15000 });
  await page.waitForTimeout(1500);
  await page.keyboard.press('p');
  await still();
  await page.locator('#pv .pv-line:first-child .pv-act').nth(1).click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(docs, 'screenshot.png') });
  // 80 timelines and 268 boards, as the game opens: the present, readable.
  const big = await create({ import: readFileSync(join(here, 'data/big-multiverse.5dpgn'), 'utf8') });
  await page.goto(`${BASE}/#/game/${big.id}`);
  await page.locator('#world .board').first().waitFor();
  await still();
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(docs, 'screenshot-multiverse.png') });
} finally {
  await ctx.close();
  await server.stop();
}
