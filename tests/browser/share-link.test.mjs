// A game shared by link (issue 32, point 7): "Share link" puts the game in the address's
// fragment (#/view/<deflate-raw, base64url 5DPGN>), which no server sees; opening it in a fresh
// browser shows the game read-only with review and "Import as my game"; bad, cut or oversized
// links say so on the page; a link over 32 KB is refused. Served GUI and static site.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSession, closeSession, launch, board, createGame, seatLink, gameId, apiGet, SHOTS } from './helpers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const site = process.env.SITE === 'static' ? 'static' : 'served';
let session, page, errors, BASE;
let link = null;

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});
after(() => closeSession(session));

test('Share link puts the game in the fragment; a fresh browser shows it read-only, steps through it and imports it', async () => {
  const text = readFileSync(join(here, 'data', 'game-2.5dpgn'), 'utf8');
  const g = await createGame(BASE, { import: text });
  await page.goto(seatLink(BASE, g));
  await board(page, [0, 1, 'white']).or(page.locator('#world .board').first()).first().waitFor();
  await page.getByRole('button', { name: 'Share link', exact: true }).click();
  const input = page.getByLabel('Share link address', { exact: true });
  await page.waitForFunction(() => document.querySelector('#share-link').value.length > 0);
  link = await input.inputValue();
  assert.match(link, /#\/view\/[A-Za-z0-9_-]+$/, 'the game is in the fragment, base64url');
  assert.ok(link.length < 2000, `a 30-action game makes a short link (${link.length})`);
  await page.screenshot({ path: join(SHOTS, `share-dialog-${site}.png`) });
  await page.locator('#share-close').click();

  const s = await apiGet(BASE, `/api/games/${g.id}`, g);
  assert.ok(s.action_count > 20, `the game has its actions (${s.action_count})`);
  // Another browser, a fresh profile: nothing of the game is stored there.
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const other = await launch({ viewport });
    try {
      const seen = [];
      other.page.on('request', (r) => seen.push(r.url()));
      await other.page.goto(link);
      await other.page.locator('#view-bar').waitFor();
      await other.page.locator('#world .board').first().waitFor();
      await other.page.waitForFunction((n) => document.querySelector('#play').dataset.review === String(n), s.action_count);
      assert.match(await other.page.locator('#status').textContent(), /read-only/);
      assert.equal(await other.page.locator('#p-white .name').textContent(), 'Shad Amethyst');
      assert.equal(await other.page.locator('#p-black .name').textContent(), 'ZL');
      for (const b of ['Submit', 'Undo', 'Resign', 'Analyse']) {
        assert.equal(await other.page.getByRole('button', { name: b, exact: true }).isVisible(), false, `no ${b} on a shared game`);
      }
      const data = link.split('#/view/')[1];
      assert.ok(!seen.some((u) => u.includes(data.slice(0, 40))), 'the game never goes to a server in a URL');
      await other.page.screenshot({ path: join(SHOTS, `share-view-${site}-${viewport.width}.png`) });
      if (viewport.width !== 1280) continue;
      // Review: back one action, to the start, and on again.
      await other.page.getByRole('button', { name: 'Previous action', exact: true }).click();
      await other.page.waitForFunction((n) => document.querySelector('#play').dataset.review === String(n - 1), s.action_count);
      await other.page.getByRole('button', { name: 'First position', exact: true }).click();
      await other.page.waitForFunction(() => document.querySelector('#play').dataset.review === '0');
      await board(other.page, [0, 1, 'white']).waitFor();
      assert.equal(await other.page.locator('#world .board').count(), 1, 'the start: one board');
      await other.page.keyboard.press('ArrowRight');
      await other.page.waitForFunction(() => document.querySelector('#play').dataset.review === '1');
      // A piece picked in review or live is never moved: no destinations.
      await other.page.getByRole('button', { name: 'Last action', exact: true }).click();
      await other.page.waitForFunction((n) => document.querySelector('#play').dataset.review === String(n), s.action_count);
      assert.equal(await other.page.locator('[data-dest]').count(), 0);
      // Import as my game: a game of this browser, the same actions.
      await other.page.getByRole('button', { name: 'Import as my game', exact: true }).click();
      await other.page.waitForURL(/#\/game\/\d+/);
      await other.page.locator('#world .board').first().waitFor();
      assert.equal(await other.page.locator('#view-bar').isVisible(), false);
      await other.page.waitForFunction((n) => document.querySelector('#play').dataset.review === String(n), s.action_count);
      assert.match(await other.page.locator('#status').textContent(), /^Game over/);
      assert.deepEqual(other.errors, []);
    } finally {
      await other.ctx.close();
    }
  }
});

test('a bad, cut or oversized link says so on the page', async () => {
  assert.ok(link, 'the first test made a link');
  const data = link.split('#/view/')[1];
  // A few bytes of link that would unfold into 2 MB (a decompression bomb).
  await page.goto(`${BASE}/#/`);
  const bomb = await page.evaluate(async () => {
    const s = new Blob([' '.repeat(2 * 1024 * 1024)]).stream().pipeThrough(new CompressionStream('deflate-raw'));
    const b = new Uint8Array(await new Response(s).arrayBuffer());
    return btoa(String.fromCharCode(...b)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  });
  const cases = [
    ['', /no game in it/],
    ['%%%not-base64', /damaged/],
    [data.slice(0, Math.floor(data.length / 2)), /damaged|cut short/],
    ['AAAA', /damaged|cannot be read/],
    [bomb, /too large/],
  ];
  for (const [frag, want] of cases) {
    await page.goto(`${BASE}/#/`);
    await page.locator('#home').waitFor();
    await page.goto(`${BASE}/#/view/${frag}`);
    await page.locator('#notfound').waitFor();
    assert.equal(await page.locator('#notfound-title').textContent(), 'This shared game cannot be opened', frag.slice(0, 20));
    assert.match(await page.locator('#notfound-text').textContent(), want, `fragment '${frag.slice(0, 20)}'`);
  }
  await page.screenshot({ path: join(SHOTS, `share-bad-${site}.png`) });
  // A game that is not a game: the back-end's reason.
  const junk = await page.evaluate(async () => {
    const s = new Blob(['this is not 5DPGN']).stream().pipeThrough(new CompressionStream('deflate-raw'));
    const b = new Uint8Array(await new Response(s).arrayBuffer());
    return btoa(String.fromCharCode(...b)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  });
  await page.goto(`${BASE}/#/view/${junk}`);
  await page.locator('#notfound').waitFor();
  assert.match(await page.locator('#notfound-text').textContent(), /cannot be read: .*import/i);
  // The home page again: the title of the page for unknown games is its own again.
  await page.goto(`${BASE}/#/game/999999`);
  await page.locator('#notfound').waitFor();
  assert.equal(await page.locator('#notfound-title').textContent(), 'No such game');
  assert.deepEqual(errors.filter((e) => !/status of 40\d/.test(e)), []);
});

test('a link over 32 KB is refused with a clear message', async () => {
  await page.goto(`${BASE}/#/`);
  await page.locator('#home').waitFor();
  const msg = await page.evaluate(async () => {
    const { shareUrl } = await import(new URL('ui/share.js', document.baseURI).href);
    // Text that does not compress: 40 KB of random letters.
    let t = '';
    for (let i = 0; i < 40000; i++) t += String.fromCharCode(97 + Math.floor(Math.random() * 26));
    try { await shareUrl(t); return 'made'; } catch (e) { return e.message; }
  });
  assert.match(msg, /too long for a link: \d+ characters, at most 32768/);
});
