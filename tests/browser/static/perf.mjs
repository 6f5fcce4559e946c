// Point 6 of issue 19, a measurement (not a test: it prints figures and asserts nothing about
// time): on a position of 20 or more timelines (the first such game of tests/data/many-timelines
// .5dpgn), the time of a legal-move highlight (a click on a piece to its destinations drawn, the
// moves request included) and of the engine's actions (alpha-beta at 500 ms per action, engine
// against engine from the same position, per action as the API reports it), served and static.
//
//   SERVER_CMD="target/release/chess5d serve" STATIC_URL=http://127.0.0.1:PORT node tests/browser/static/perf.mjs
//
// (STATIC_URL: js/site served by `python3 -m http.server`; either half is left out without it.)
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, startServer, freshDb } from '../helpers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const games = readFileSync(join(here, '../../data/many-timelines.5dpgn'), 'utf8').split(/\n(?=\[Board )/).filter((t) => t.startsWith('[Board'));
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };

async function measure(label, base, page) {
  await page.goto(base);
  await page.locator('#ng-variant').waitFor();
  // The API through the page: the same code for both back-ends (the static one answers in the page).
  const api = (method, path, body) => page.evaluate(([m, p, b]) => fetch(p, { method: m, headers: { 'Content-Type': 'application/json' }, body: b && JSON.stringify(b) }).then((r) => r.json()), [method, path, body]);
  let g = null;
  for (const text of games) {
    const x = await api('POST', '/api/games', { import: text });
    if (x.timelines && x.timelines.length >= 20 && !x.result) { g = x; break; }
  }
  if (!g) throw new Error('no game of 20 timelines');
  const seat = g.seat ? `/join/${g.seat.sides.join('+')}/${g.seat.token}` : '';
  await page.goto(`${base}/#/game/${g.id}${seat}`);
  await page.locator('#world .board').first().waitFor();
  await page.waitForFunction(() => document.querySelector('#view').dataset.camera !== 'moving');
  // Pieces of the side to move on playable boards with at least one move.
  const picks = [];
  for (const b of g.boards.filter((b) => b.playable)) {
    for (const p of b.pieces.filter((p) => p.c === g.to_move)) {
      const r = await api('GET', `/api/games/${g.id}/moves?l=${b.l}&t=${b.t}&square=${p.sq}`);
      if (r.moves.length) picks.push({ l: b.l, t: b.t, sq: p.sq });
      if (picks.length >= 7) break;
    }
    if (picks.length >= 7) break;
  }
  if (!picks.length) console.error(label, 'no piece with moves', g.to_move, g.boards.filter((b) => b.playable).length);
  const times = [];
  for (const p of picks) {
    await page.evaluate(([l, t]) => window.__chess5dShow?.(l, t), [p.l, p.t]);
    await page.waitForTimeout(300);
    times.push(await page.evaluate(async ({ l, t, sq }) => {
      const el = document.querySelector(`#world .board[data-li="${l}"][data-ti="${t}"] rect[data-square="${sq}"]`);
      const r = el.getBoundingClientRect();
      const o = { bubbles: true, clientX: r.x + r.width / 2, clientY: r.y + r.height / 2, pointerId: 1, button: 0, isPrimary: true, pointerType: 'mouse' };
      const t0 = performance.now();
      el.dispatchEvent(new PointerEvent('pointerdown', o));
      el.dispatchEvent(new PointerEvent('pointerup', o));
      el.dispatchEvent(new MouseEvent('click', o));
      while (!document.querySelector('#world rect[data-dest]')) await new Promise((res) => requestAnimationFrame(res));
      const t1 = performance.now();
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
      return t1 - t0;
    }, p));
    await page.keyboard.press('Escape');
  }
  return { label, timelines: g.timelines.length, boards: g.boards.length, highlight: times };
}

async function engineReplies(base, page) {
  const api = (method, path, body) => page.evaluate(([m, p, b]) => fetch(p, { method: m, headers: { 'Content-Type': 'application/json' }, body: b && JSON.stringify(b) }).then(async (r) => (r.headers.get('content-type') || '').includes('json') ? r.json() : r.text()), [method, path, body]);
  let g = null;
  const engine = { type: 'engine', bot: 'alphabeta', movetime_ms: 500 };
  for (const text of games) {
    const x = await api('POST', '/api/games', { import: text, white: engine, black: engine });
    if (x.timelines && x.timelines.length >= 20 && !x.result) { g = x; break; }
    if (x.id) await api('DELETE', `/api/games/${x.id}`);
  }
  const n0 = g.action_count;
  const t0 = Date.now();
  const stamps = [];
  let s = g;
  while (stamps.length < 4 && Date.now() - t0 < 60000 && !s.result) {
    await page.waitForTimeout(20);
    s = await api('GET', `/api/games/${g.id}`);
    if (s.action_count - n0 > stamps.length) stamps.push(Date.now());
  }
  await api('POST', `/api/games/${g.id}/resign`, {});
  const per = stamps.map((t, i) => t - (i ? stamps[i - 1] : t0));
  return per;
}

const out = [];
if (process.env.SERVER_CMD || process.env.BASE_URL) {
  let server = null;
  let base = process.env.BASE_URL;
  if (!base) { server = await startServer(freshDb()); base = server.url; }
  const { ctx, page } = await launch();
  const m = await measure('served', base, page);
  m.engine = await engineReplies(base, page);
  out.push(m);
  await ctx.close();
  await server?.stop();
}
if (process.env.STATIC_URL) {
  const { ctx, page } = await launch();
  const m = await measure('static', process.env.STATIC_URL, page);
  m.engine = await engineReplies(process.env.STATIC_URL, page);
  out.push(m);
  await ctx.close();
}
for (const m of out) {
  console.log(`${m.label}: ${m.timelines} timelines, ${m.boards} boards; highlight median ${median(m.highlight).toFixed(1)} ms (${m.highlight.map((x) => x.toFixed(1)).join(', ')}); engine action (alphabeta 500 ms, engine vs engine) ${m.engine.join(', ')} ms`);
}
