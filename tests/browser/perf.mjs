// Rendering figures of the multiverse view with many boards (a measurement, not a test: it
// prints numbers and asserts nothing about time).
//
//   SERVER_CMD="target/release/chess5d serve" node tests/browser/perf.mjs [file.5dpgn ...]
//
// (or BASE_URL=http://... for a running server). Default files: tests/browser/data/
// big-multiverse.5dpgn (80 timelines, 268 boards) and huge-multiverse.5dpgn (144 timelines,
// 517 boards), made by `cargo run --release -p chess5d-server --example big_multiverse -- N`.
// For each file it imports the game, opens it and measures (median of several runs):
//   open     - from opening the game's page to the first drawn frame of its opening view (the
//              present, readable); the other figures are taken after Fit all (every board)
//   redraw   - a full redraw of the same state (Flip twice), to the next frame
//   update   - a new state from the server after a move (click-click), to the next frame
//   select   - clicking a piece to its destinations highlighted (includes the /moves request)
//   pan      - frame intervals while dragging the view (page.mouse, 30 steps)
//   zoom     - frame intervals while zooming with the wheel (20 steps)
// plus the number of SVG elements in the view.
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, startServer, freshDb } from './helpers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const files = process.argv.slice(2);
if (!files.length) files.push(join(here, 'data/big-multiverse.5dpgn'), join(here, 'data/huge-multiverse.5dpgn'));

const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.floor(s.length / 2)] : NaN; };
const f1 = (x) => x.toFixed(1);

let server = null;
let BASE = process.env.BASE_URL;
if (!BASE) { server = await startServer(freshDb()); BASE = server.url; }
const { ctx, page } = await launch();

// Presses and releases the pointer on an element (in the page; works wherever it is drawn).
const tap = (selector) => {
  const el = document.querySelector(selector);
  const r = el.getBoundingClientRect();
  const o = { bubbles: true, clientX: r.x + r.width / 2, clientY: r.y + r.height / 2, pointerId: 1, button: 0, isPrimary: true, pointerType: 'mouse' };
  el.dispatchEvent(new PointerEvent('pointerdown', o));
  el.dispatchEvent(new PointerEvent('pointerup', o));
  el.dispatchEvent(new MouseEvent('click', o));
};

// Resolves after the next frame was produced (two animation frames).
const nextFrame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));

try {
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const res = await fetch(`${BASE}/api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ import: text }) });
    const g = await res.json();
    if (!res.ok) throw new Error(`import ${file}: ${g.error}`);
    const nBoards = g.boards.length, nTl = g.timelines.length;

    // open: from navigation to the first frame with all boards.
    const opens = [];
    for (let i = 0; i < 3; i++) {
      await page.goto(`${BASE}/#/`);
      await page.locator('#home').waitFor();
      const t0 = await page.evaluate(() => performance.now());
      await page.evaluate((id) => { location.hash = `#/game/${id}`; }, g.id);
      await page.locator(`#world .board`).first().waitFor();
      await page.waitForFunction(() => document.querySelector('#view').dataset.camera === 'still');
      const t1 = await page.evaluate(async () => { await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); return performance.now(); });
      opens.push(t1 - t0);
    }
    const openBoards = await page.evaluate(() => document.querySelectorAll('#world .board').length);
    // Everything in view for the other figures (as the page opened before it had a camera).
    await page.evaluate(() => document.querySelector('#btn-fit').click());
    await page.waitForFunction(() => document.querySelector('#view').dataset.camera === 'still');
    await page.waitForFunction((n) => document.querySelectorAll('#world .board').length === n, nBoards);
    const elements = await page.evaluate(() => document.querySelectorAll('#world *').length);
    const drawnBoards = await page.evaluate(() => document.querySelectorAll('#world .board').length);

    // redraw: Flip (a full redraw), to the next frame.
    const redraws = [];
    for (let i = 0; i < 6; i++) {
      redraws.push(await page.evaluate(async () => {
        const t0 = performance.now();
        document.querySelector('#btn-flip').click();
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        return performance.now() - t0;
      }));
    }

    // pan: drag across the view from empty space (the top-left corner of the view).
    const box = await page.locator('#view').boundingBox();
    const frames = async (fn) => {
      await page.evaluate(() => {
        window.__frames = [];
        let last = performance.now();
        const loop = (t) => { window.__frames.push(t - last); last = t; if (window.__frames.length < 1000) window.__raf = requestAnimationFrame(loop); };
        window.__raf = requestAnimationFrame(loop);
      });
      await fn();
      await page.evaluate(nextFrame);
      const fr = await page.evaluate(() => { cancelAnimationFrame(window.__raf); return window.__frames.slice(1); });
      return fr;
    };
    const pan = await frames(async () => {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height - 5);
      await page.mouse.down();
      for (let i = 1; i <= 30; i++) await page.mouse.move(box.x + box.width / 2 - i * 12, box.y + box.height - 5 - i * 6);
      await page.mouse.up();
    });
    const zoom = await frames(async () => {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      for (let i = 0; i < 10; i++) await page.mouse.wheel(0, -120);
      for (let i = 0; i < 10; i++) await page.mouse.wheel(0, 120);
    });
    // pan at the present (boards with full detail).
    await page.getByRole('button', { name: 'Go to present', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('#view').dataset.camera === 'still');
    await page.evaluate(nextFrame);
    const nearElements = await page.evaluate(() => document.querySelectorAll('#world *').length);
    const panNear = await frames(async () => {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height - 5);
      await page.mouse.down();
      for (let i = 1; i <= 30; i++) await page.mouse.move(box.x + box.width / 2 - i * 8, box.y + box.height - 5 - i * 12);
      await page.mouse.up();
    });
    await page.getByRole('button', { name: 'Fit all', exact: true }).click();

    // select + update: click a piece on a playable board, then a destination.
    const selects = [], updates = [];
    for (let i = 0; i < 3; i++) {
      const state = await page.evaluate((id) => fetch(`/api/games/${id}`).then((r) => r.json()), g.id);
      const mover = state.to_move;
      // a playable board with a piece of the side to move that has a move
      let picked = null;
      for (const b of state.boards.filter((b) => b.playable)) {
        for (const p of b.pieces.filter((p) => p.c === mover)) {
          const m = await page.evaluate(([id, b, p]) => fetch(`/api/games/${id}/moves?l=${b.l}&t=${b.t}&square=${p.sq}`).then((r) => r.json()), [g.id, b, p]);
          if (m.moves.length) { picked = { b, p, m: m.moves[0] }; break; }
        }
        if (picked) break;
      }
      if (!picked) break;
      const { b, p, m } = picked;
      const sel = `#world .board[data-li="${b.l}"][data-ti="${b.t}"] rect[data-square="${p.sq}"]`;
      const dest = `#world .board[data-li="${m.to.l}"][data-ti="${m.to.t}"] rect[data-square="${m.to.sq}"][data-dest]`;
      // Bring the board into view first (the view may only draw what is visible).
      await page.evaluate(([l, t]) => window.__chess5dShow && window.__chess5dShow(l, t), [b.l, b.t]);
      const t0 = await page.evaluate(() => performance.now());
      await page.evaluate(tap, sel);
      await page.locator(dest).waitFor({ state: 'attached' });
      const t1 = await page.evaluate(() => performance.now());
      selects.push(t1 - t0);
      const before = state.version;
      const [moveRes] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/move')),
        page.evaluate((d) => { window.__clickT = performance.now(); }).then(() => page.evaluate(tap, dest)),
      ]);
      void moveRes; void before;
      await page.waitForFunction((v) => document.querySelectorAll('#world .arrow.pending').length > 0, null);
      const t2 = await page.evaluate(async () => { await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); return performance.now() - window.__clickT; });
      updates.push(t2);
      await page.getByRole('button', { name: 'Undo', exact: true }).click();
      await page.waitForFunction(() => document.querySelectorAll('#world .arrow.pending').length === 0);
    }

    console.log(`${file.split('/').pop()}: ${nTl} timelines, ${nBoards} boards (${drawnBoards} board groups and ${elements} SVG elements in the DOM)`);
    console.log(`  open   ${f1(median(opens))} ms   (${openBoards} boards in the opening view; runs: ${opens.map(f1).join(', ')})`);
    console.log(`  redraw ${f1(median(redraws))} ms   (runs: ${redraws.map(f1).join(', ')})`);
    console.log(`  update ${f1(median(updates))} ms   (move click to next frame, incl. the request; runs: ${updates.map(f1).join(', ')})`);
    console.log(`  select ${f1(median(selects))} ms   (incl. the /moves request)`);
    console.log(`  pan    frame median ${f1(median(pan))} ms, max ${f1(Math.max(...pan))} ms over ${pan.length} frames`);
    console.log(`  pan at the present (${nearElements} SVG elements): frame median ${f1(median(panNear))} ms, max ${f1(Math.max(...panNear))} ms over ${panNear.length} frames`);
    console.log(`  zoom   frame median ${f1(median(zoom))} ms, max ${f1(Math.max(...zoom))} ms over ${zoom.length} frames`);
  }
} finally {
  await ctx.close();
  if (server) await server.stop();
}
