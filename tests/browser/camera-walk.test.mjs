// The camera never loses the board to play (issue 32, item 1): at every position of long
// multi-timeline games (the game of the issue, whose present moves back onto a timeline away
// from L0, and random self-play games of 34 to 83 timelines: `chess5d match` with two
// `chess5d engine --bot random`), whenever the camera follows the present and after "Go to
// present", every board the side to move must play is inside the window with squares of 16 px
// or more when there are up to three of them (in the view, or drawn as an inset at its edge when
// they are too far apart for one readable view), and at least one is when there are more; when
// they cannot all be shown in the view, the "Next board to play" control steps through them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, startServer, freshDb, createGame, seatLink, SHOTS, gameFile as games, prefix, actionCount } from './helpers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const STATIC = process.env.SITE === 'static';
let server, browser, page, errors, BASE;
let checked = 0; // positions checked (with at least one board to play)
const tally = { allInView: 0, withInsets: 0, stepping: 0 }; // how the boards to play were shown

before(async () => {
  // Hundreds of games are made: the served build gets a server of its own without the
  // per-address rate limits (each limit has its own test in the server's suite).
  if (STATIC) BASE = process.env.BASE_URL;
  else {
    server = await startServer(freshDb(), ['--rate-limit', 'off']);
    BASE = server.url;
  }
  ({ ctx: browser, page, errors } = await launch());
  await page.goto(BASE);
});

after(async () => {
  await browser?.close();
  if (server) await server.stop();
});


/** What the status line says of state `s` once drawn: what is still to play (or that the
 * action can be submitted). */
function statusOf(s) {
  const must = s.boards.filter((b) => b.mandatory).map((b) => `(${b.label}T${b.turn})`);
  if (must.length) return `Still to play: ${must.slice(0, 6).join(', ')}`;
  return s.can_submit && s.pending.length ? 'Ready to submit.' : '';
}

/** Waits until the page has drawn state `s` (its game, action count and status) and the
 * camera has stopped. */
async function drawn(s) {
  await page.waitForFunction(([id, n, text]) => document.title === `chess5d game ${id}`
    && document.querySelector('#play').dataset.review === String(n)
    && document.querySelector('#status').textContent.includes(text)
    && document.querySelector('#view').dataset.camera !== 'moving', [s.id, s.action_count, statusOf(s)]);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** For each board of the list: whether it is inside the window (and the view), its square size. */
const seen = (boards) => page.evaluate((boards) => {
  const v = document.querySelector('#view').getBoundingClientRect();
  const box = { left: Math.max(v.left, 0), top: Math.max(v.top, 0), right: Math.min(v.right, innerWidth), bottom: Math.min(v.bottom, innerHeight) };
  return boards.map((b) => {
    const id = `(${b.label}T${b.turn})${b.color[0]}`;
    const look = (g, frame) => {
      if (!g) return { ok: false, why: 'not drawn' };
      const r = g.querySelector('.board-outline').getBoundingClientRect();
      const sq = g.getScreenCTM().a * 40;
      const inside = r.left >= frame.left - 1 && r.right <= frame.right + 1 && r.top >= frame.top - 1 && r.bottom <= frame.bottom + 1;
      return { ok: inside && sq >= 16, sq: Math.round(sq * 10) / 10, why: inside ? (sq >= 16 ? '' : `too small (${sq.toFixed(1)} px)`) : `outside (${Math.round(r.left)},${Math.round(r.top)})-(${Math.round(r.right)},${Math.round(r.bottom)})` };
    };
    // On the view's boards, or drawn as an inset (the boards to play out of the view).
    const main = look(document.querySelector(`#world .board[data-l="${b.label}"][data-t="${b.turn}"][data-color="${b.color}"]`), box);
    if (main.ok) return { id, ...main, how: 'view' };
    const inset = document.querySelector(`#insets [data-inset="${b.label},${b.turn},${b.color}"] .inset-board`);
    const win = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
    const i = look(inset, win);
    return i.ok ? { id, ...i, how: 'inset' } : { id, ...main, why: `${main.why}, no inset` };
  });
}, boards);

/** The rule: every board to play in view and readable when there are up to three, else one at
 * least (and then the "Next board to play" control is offered). */
async function assertToPlay(where, s, { again = false } = {}) {
  const must = s.boards.filter((b) => b.mandatory);
  if (!must.length) return false;
  const r = await seen(must);
  const ok = r.filter((x) => x.ok);
  const say = `${where}: boards to play ${r.map((x) => `${x.id}${x.ok ? '' : ` ${x.why}`}`).join(', ')}`;
  if (must.length <= 3) assert.equal(ok.length, must.length, say);
  else assert.ok(ok.length >= 1, say);
  if (ok.length < must.length) {
    assert.ok(await page.locator('#btn-next-board').isVisible(), `${where}: not all ${must.length} boards to play in view, and no "Next board to play" control`);
  }
  if (again) return true; // (a position counted already)
  checked++;
  if (ok.length < must.length) tally.stepping++;
  else if (r.some((x) => x.how === 'inset')) tally.withInsets++;
  else tally.allInView++;
  return true;
}

/** Opens game `g` in the page (by its link: the page's own navigation) and waits for it. */
async function open(g) {
  await page.goto(seatLink(BASE, g));
  await drawn(g);
}

/** Walks every position of every game of `file`: each opened as a game of its own (the camera's
 * first view), and every `goEvery`th position again after Fit all and Go to present. */
async function walk(file, goEvery) {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  try {
    for (const [gi, game] of games(file).entries()) {
      const n = actionCount(game);
      for (let k = 0; k <= n; k++) {
        const g = await createGame(BASE, { import: prefix(game, k) });
        await open(g);
        const where = `${file} game ${gi + 1} after ${k} actions`;
        const any = await assertToPlay(where, g);
        if (any && k % goEvery === 0) {
          await page.keyboard.press('f');
          await page.getByRole('button', { name: 'Go to present', exact: true }).click();
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          await assertToPlay(`${where}, Go to present`, g, { again: true });
        }
      }
    }
  } finally {
    await page.emulateMedia({ reducedMotion: 'no-preference' });
  }
}

/** POST to the game's API as its seat (through the page on the static site). */
async function post(g, path, body = {}) {
  if (STATIC) {
    return page.evaluate(([p, b]) => fetch(p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) }).then((r) => r.json()), [`/api/games/${g.id}/${path}`, body]);
  }
  const r = await fetch(`${BASE}/api/games/${g.id}/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Chess5d-Seat': g.seat.token }, body: JSON.stringify(body) });
  return r.json();
}

test('the game of the issue, played live: the camera follows the present onto (2T4)', async () => {
  let g = await createGame(BASE, { variant: 'Standard' });
  await open(g);
  await assertToPlay('start', g);
  const actions = readFileSync(join(here, 'data/camera-issue-32.long'), 'utf8').trim().split('\n');
  for (const [i, line] of actions.entries()) {
    const moves = line.trim().split(/\s+/);
    for (const [j, mv] of moves.entries()) {
      g = { ...g, ...await post(g, 'move', { move: mv }) };
      assert.ok(g.version, JSON.stringify(g).slice(0, 300));
      await drawn(g);
      if (j < moves.length - 1) await assertToPlay(`action ${i + 1}, after ${mv}`, g);
    }
    g = { ...g, ...await post(g, 'submit') };
    assert.equal(g.action_count, i + 1, JSON.stringify(g).slice(0, 300));
    await drawn(g);
    await assertToPlay(`after action ${i + 1}`, g);
  }
  // The position of the issue: present T4, the one board to play (2T4), far from L0's T8.
  const must = g.boards.filter((b) => b.mandatory).map((b) => `(${b.label}T${b.turn})`);
  assert.deepEqual(must, ['(2T4)']);
  assert.match(await page.locator('#status').textContent(), /Still to play: \(2T4\)/);
  await page.screenshot({ path: join(SHOTS, '60-camera-issue-32-1280.png') });
  // Go to present after a pan (and Fit all) brings it back.
  await page.keyboard.press('f');
  await page.waitForFunction(() => document.querySelector('#view').dataset.camera !== 'moving');
  await page.getByRole('button', { name: 'Go to present', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('#view').dataset.camera !== 'moving');
  await assertToPlay('Go to present', g, { again: true });
  // A phone: the same, and the page does not scroll the boards out of the window.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${BASE}/#/`);
  await open(g);
  await assertToPlay('phone, 390x844', g, { again: true });
  await page.screenshot({ path: join(SHOTS, '61-camera-issue-32-390.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('every position of the issue\'s game: the boards to play in view', async () => {
  await walk('camera-issue-32.5dpgn', 1);
});

test('every position of four self-play games of 34 to 83 timelines: the boards to play in view', async (t) => {
  await walk('camera-selfplay.5dpgn', 5);
  t.diagnostic(`${checked} positions checked: ${tally.allInView} with every board to play in the view, ${tally.withInsets} with some as insets, ${tally.stepping} with more than three (one in view, the control to step)`);
  assert.ok(checked >= 300, `${checked} positions checked`);
});

test('boards to play too far apart to be readable together: one shown, the control steps through all', async () => {
  // The last position of the widest game with many boards to play far apart.
  const [, , , game] = games('camera-selfplay.5dpgn');
  let best = null;
  for (let k = actionCount(game) - 1; k > 0 && !best; k--) {
    const g = await createGame(BASE, { import: prefix(game, k) });
    const must = g.boards.filter((b) => b.mandatory);
    const ls = must.map((b) => b.l);
    if (must.length >= 4 && Math.max(...ls) - Math.min(...ls) >= 10) best = g;
  }
  assert.ok(best, 'a position with boards to play ten timelines apart');
  await open(best);
  const must = best.boards.filter((b) => b.mandatory);
  await assertToPlay('far apart', best);
  const next = page.locator('#btn-next-board');
  assert.ok(await next.isVisible(), 'the "Next board to play" control');
  const shown = new Set();
  for (let i = 0; i < must.length; i++) {
    const r = (await seen(must)).filter((x) => x.ok).map((x) => x.id);
    assert.ok(r.length >= 1, `step ${i}: a board to play in view`);
    r.forEach((id) => shown.add(id));
    await next.click();
    await page.waitForFunction(() => document.querySelector('#view').dataset.camera !== 'moving');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
  assert.equal(shown.size, must.length, `every board to play shown by stepping: ${[...shown].join(' ')}`);
  await page.screenshot({ path: join(SHOTS, '62-camera-next-board-1280.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.getByRole('button', { name: 'Go to present', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('#view').dataset.camera !== 'moving');
    await assertToPlay('far apart, phone', best, { again: true });
    await page.screenshot({ path: join(SHOTS, '62-camera-next-board-390.png') });
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});

test('three boards to play too far apart for one view: the others as insets; a click on one goes there', async () => {
  // Game 1 after 17 actions: (-2T5), (2T5) and (3T5) to play, six rows apart.
  const g = await createGame(BASE, { import: prefix(games('camera-selfplay.5dpgn')[0], 17) });
  const must = g.boards.filter((b) => b.mandatory);
  assert.deepEqual(must.map((b) => `(${b.label}T${b.turn})`), ['(-2T5)', '(2T5)', '(3T5)']);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    try {
      await open(g);
      const r = await seen(must);
      assert.ok(r.every((x) => x.ok), JSON.stringify(r));
      assert.ok(r.some((x) => x.how === 'view') && r.some((x) => x.how === 'inset'), JSON.stringify(r));
      await page.screenshot({ path: join(SHOTS, `64-camera-insets-${width}.png`) });
      // A click on an inset: its board comes into the view.
      const inset = r.find((x) => x.how === 'inset');
      const b = must.find((m) => `(${m.label}T${m.turn})${m.color[0]}` === inset.id);
      await page.locator(`#insets [data-inset="${b.label},${b.turn},${b.color}"]`).click();
      await page.waitForFunction(() => document.querySelector('#view').dataset.camera !== 'moving');
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const after = await seen(must);
      assert.equal(after.find((x) => x.id === inset.id).how, 'view', JSON.stringify(after));
      assert.ok(after.every((x) => x.ok), JSON.stringify(after));
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  }
});

test('no console errors', () => {
  assert.deepEqual(errors.filter((e) => !/Failed to load resource.*(400|409)/.test(e)), []);
});
