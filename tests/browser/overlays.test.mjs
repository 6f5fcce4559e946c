// Issue 48, point 3: nothing the page draws over the multiverse (the overview, the insets, the
// view's buttons, the check markers at its edges, the timeline labels of the rail) covers a
// board to play. At 1280x800 and 390x844, in recorded games (tests/browser/data) at positions
// where overlays covered boards to play on the old page (selfplay game 2 after 40 actions at
// 1280x800: the overview over (12T9)'s first rank, its king's; selfplay game 4 after 60 actions:
// "Next board to play", "+" and two check markers over boards to play): the squares of every
// playable board in the view, against the rectangle of every overlay shown. Also after "Fit
// all".
// Screenshots: tests/browser/screenshots/overlays-*.png (-static on the static site).
// Runs against the served GUI and (SITE=static) the static site.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, startServer, freshDb, createGame, seatLink, SHOTS, gameFile, prefix, actionCount } from './helpers.mjs';

const STATIC = process.env.SITE === 'static';
const SUFFIX = STATIC ? '-static' : '';
const VIEWPORTS = [{ width: 1280, height: 800 }, { width: 390, height: 844 }];
let server, browser, page, errors, BASE;

before(async () => {
  if (STATIC) BASE = process.env.BASE_URL;
  else {
    server = await startServer(freshDb(), ['--rate-limit', 'off']);
    BASE = server.url;
  }
  ({ ctx: browser, page, errors } = await launch());
  await page.goto(BASE);
  await page.emulateMedia({ reducedMotion: 'reduce' });
});

after(async () => {
  await browser?.close();
  if (server) await server.stop();
});

/** Waits for the camera to rest and the overlays to follow it (two frames). */
async function still() {
  await page.waitForFunction(() => document.querySelector('#view').dataset.camera !== 'moving');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50)))));
}

/** The boards to play in the view (the squares' rectangle, clipped to the view) and every overlay
 * shown over the view, with the pairs that meet. */
function overlaps() {
  return page.evaluate(() => {
    const view = document.querySelector('#view').getBoundingClientRect();
    const clip = (r) => {
      const x0 = Math.max(r.left, view.left), y0 = Math.max(r.top, view.top);
      const x1 = Math.min(r.right, view.right), y1 = Math.min(r.bottom, view.bottom);
      return x1 - x0 > 1 && y1 - y0 > 1 ? { x0, y0, x1, y1 } : null;
    };
    const boards = [];
    for (const g of document.querySelectorAll('#world .board[data-playable="true"]')) {
      const sq = [...g.querySelectorAll('rect[data-square]')].map((e) => e.getBoundingClientRect());
      if (!sq.length) continue;
      const r = {
        left: Math.min(...sq.map((q) => q.left)), top: Math.min(...sq.map((q) => q.top)),
        right: Math.max(...sq.map((q) => q.right)), bottom: Math.max(...sq.map((q) => q.bottom)),
      };
      const c = clip(r);
      if (c) boards.push({ id: `(${g.dataset.l}T${g.dataset.t})${g.dataset.mandatory === 'true' ? ' to play' : ''}`, ...c });
    }
    const shown = (e) => {
      if (e.closest('.hidden')) return false;
      const st = getComputedStyle(e);
      return st.display !== 'none' && st.visibility !== 'hidden' && Number(st.opacity) > 0;
    };
    const overlays = [];
    const sel = '#view-tools > *, #insets .inset, #check-edges .check-edge, #minimap, #tl-rail .rail-label, #view-wrap > .view-overlay';
    for (const e of document.querySelectorAll(sel)) {
      if (!shown(e)) continue;
      const c = clip(e.getBoundingClientRect());
      if (c) overlays.push({ id: e.id ? `#${e.id}` : `${e.className} "${e.textContent.trim().slice(0, 24)}"`, ...c });
    }
    const meet = [];
    for (const b of boards) {
      for (const o of overlays) {
        const w = Math.min(b.x1, o.x1) - Math.max(b.x0, o.x0), h = Math.min(b.y1, o.y1) - Math.max(b.y0, o.y0);
        if (w > 1 && h > 1) meet.push(`${o.id} covers ${b.id} (${Math.round(w)}x${Math.round(h)} px)`);
      }
    }
    return { boards: boards.length, overlays: overlays.map((o) => o.id), meet };
  });
}

/** The positions looked at: [name, 5DPGN]. */
function positions() {
  const [game2] = gameFile('game-2.5dpgn');
  const [issue32] = gameFile('camera-issue-32.5dpgn');
  const self = gameFile('camera-selfplay.5dpgn');
  return [
    ['game-2 at the end', prefix(game2, actionCount(game2))],
    ['game-2 after 30 actions', prefix(game2, 30)],
    ['camera-issue-32 at the end', prefix(issue32, actionCount(issue32))],
    ['selfplay 1 after 17 actions', prefix(self[0], 17)],
    ['selfplay 2 after 40 actions', prefix(self[1], 40)],
    ['selfplay 4 after 60 actions', prefix(self[3], 60)],
  ];
}

test('nothing drawn over the multiverse covers a board to play (1280x800 and 390x844)', async () => {
  const found = [];
  let looked = 0, withOverview = 0;
  for (const [name, pgn] of positions()) {
    const g = await createGame(BASE, { import: pgn });
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(seatLink(BASE, g));
      await page.locator('#world .board').first().waitFor();
      await still();
      for (const how of ['present', 'fit']) {
        if (how === 'fit') {
          await page.getByRole('button', { name: 'Fit all', exact: true }).click();
          await still();
        }
        const r = await overlaps();
        looked++;
        if (r.overlays.includes('#minimap')) withOverview++;
        const where = `${name}, ${viewport.width}x${viewport.height}, ${how}`;
        for (const m of r.meet) found.push(`${where}: ${m}`);
        if (r.meet.length && found.length <= 3) await page.screenshot({ path: join(SHOTS, `overlays-covered-${found.length}${SUFFIX}.png`) });
      }
      if (name === 'game-2 at the end') await page.screenshot({ path: join(SHOTS, `overlays-game2-${viewport.width}${SUFFIX}.png`) });
    }
  }
  await page.setViewportSize(VIEWPORTS[0]);
  assert.ok(withOverview >= 4, `the overview was shown in ${withOverview} of ${looked} views`);
  assert.deepEqual(found, [], `${found.length} overlaps in ${looked} views`);
  assert.deepEqual(errors, []);
});
