import { launch, startServer, freshDb, move, submit, square, board } from './helpers.mjs';
const server = await startServer(freshDb());
const BASE = server.url;
const { ctx, page, errors } = await launch();
try {
  const g = await fetch(`${BASE}/api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ import: '[Board "custom"]\n[Size "5x5"]\n[4k/5/5/5/K1R2:0:1:w]\n\n1. Ka2 / Kd4\n' }) }).then((r) => r.json());
  await page.goto(`${BASE}/#/game/${g.id}`);
  await page.waitForTimeout(800);
  await square(page, [0, 2, 'white'], 'a2').click();
  const dest = square(page, [0, 1, 'white'], 'a2');
  await dest.and(page.locator('[data-dest]')).waitFor({ timeout: 5000 });
  await page.screenshot({ path: '/tmp/shots/g-before.png' });
  console.log(await dest.boundingBox(), await page.locator('#view').getAttribute('viewBox'));
  await dest.click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: '/tmp/shots/g-after.png' });
  console.log((await fetch(`${BASE}/api/games/${g.id}`).then((r) => r.json())).pending.map((m) => m.long));
} finally { console.log(errors); await ctx.close(); await server.stop(); }
