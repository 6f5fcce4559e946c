// Issue 48, point 3 (and issue 47): at 390x844 no text overlaps other text and none runs off the
// screen, on every page and in every state of a game, with the longest names a player may have
// (60 characters, one of them a single word) and long status lines: the boxes of every piece of
// text shown (its lines, as the browser lays them out) are compared pairwise, and each must lie
// within the screen's width. At 1280x800 too.
// Pages: home, game (waiting for a friend, your turn, their turn, check, mate, resignation, the
// engine thinking), review, computer review, analysis, editor, course and lesson, puzzle, quick
// pairing, a player's page. What it found on the page before: a name of one 60-character word
// ran off a 390 px screen (478 px wide, the page scrolling sideways) and past the side panel at
// 1280; names are now cut with an ellipsis.
// Screenshots: tests/browser/screenshots/phone-text-*.png (-static on the static site).
// Runs against the served GUI and (SITE=static) the static site.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, closeSession, createGame, seatLink, move, submit, SHOTS } from './helpers.mjs';

const STATIC = process.env.SITE === 'static';
const SUFFIX = STATIC ? '-static' : '';
const VIEWPORTS = [{ width: 390, height: 844 }, { width: 1280, height: 800 }];
// The longest names (MAX_NAME, 60 characters): words, and one word a line cannot break.
const LONG = 'Maximiliana Konstantinopoulou-Wolkenstein of Timeline Seven';
const WORD = 'Hyperchronologicalmultiversetravellerwithnospacesatall123456';
// Scholar's mate: 3... Nf6?? lets 4. Qxf7#.
const SCHOLAR = '[Board "Standard"]\n\n1. e4 / e5\n2. Bc4 / Nc6\n3. Qh5 / Nf6\n4. Qxf7#\n';
let session, page, errors, BASE;

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});

after(async () => {
  await closeSession(session);
});

/** The pairs of text lines that overlap on the page (each line's box as laid out), and the
 * lines that run off the screen's sides, outside the multiverse's drawing. */
function textOverlaps(page) {
  return page.evaluate(() => {
    const lines = [];
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent.trim()) continue;
      const e = n.parentElement;
      if (!e || e.closest('svg, .hidden, [hidden], dialog:not([open]), script, style, option, select, #move-list')) continue;
      if (e.closest('details:not([open])') && !e.closest('summary')) continue; // (a closed menu's)
      const st = getComputedStyle(e);
      if (st.visibility === 'hidden' || st.display === 'none' || Number(st.opacity) === 0) continue;
      const r = document.createRange();
      r.selectNodeContents(n);
      const name = `${e.closest('[id]')?.id ?? e.tagName}: "${n.textContent.trim().slice(0, 30)}"`;
      for (const line of r.getClientRects()) {
        // The part seen: the line's box cut by every ancestor that clips (scrolls or hides).
        let b = { left: line.left, top: line.top, right: line.right, bottom: line.bottom };
        for (let a = e; a && a !== document.body; a = a.parentElement) {
          const sa = getComputedStyle(a);
          if (sa.overflowX !== 'visible' || sa.overflowY !== 'visible') {
            const ar = a.getBoundingClientRect();
            b = { left: Math.max(b.left, ar.left), top: Math.max(b.top, ar.top), right: Math.min(b.right, ar.right), bottom: Math.min(b.bottom, ar.bottom) };
          }
        }
        if (b.right - b.left < 2 || b.bottom - b.top < 2) continue;
        if (b.right > innerWidth + 1 || b.left < -1) out.push(`${name} runs off the screen (${Math.round(b.left)}..${Math.round(b.right)} of ${innerWidth})`);
        lines.push({ e, name, x0: b.left, y0: b.top, x1: b.right, y1: b.bottom });
      }
    }
    for (let i = 0; i < lines.length; i++) {
      for (let j = i + 1; j < lines.length; j++) {
        const a = lines[i], b = lines[j];
        if (a.e === b.e) continue;
        const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0), h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
        if (w > 2 && h > 3) out.push(`${a.name} overlaps ${b.name} (${Math.round(w)}x${Math.round(h)})`);
      }
    }
    return out;
  });
}

async function check(name, open, after = async () => {}) {
  const found = [];
  for (const vp of VIEWPORTS) {
    await page.setViewportSize(vp);
    await open(vp);
    await page.waitForTimeout(400);
    // The page's own scroller (the home page, a player's page, the course scroll inside the
    // screen): measured a screenful at a time, so that what lies below the fold is seen too.
    const stops = await page.evaluate(() => {
      const s = [...document.querySelectorAll('body *')].find((e) => e.clientHeight > innerHeight / 2 && e.clientWidth > innerWidth / 2 && e.scrollHeight > e.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(e).overflowY));
      if (!s) return 1;
      s.dataset.pageScroller = '';
      return Math.min(6, Math.ceil(s.scrollHeight / s.clientHeight));
    });
    for (let k = 0; k < stops; k++) {
      await page.evaluate((k) => { const s = document.querySelector('[data-page-scroller]'); if (s) s.scrollTop = k * s.clientHeight; }, k);
      for (const o of await textOverlaps(page)) if (!found.includes(`${name} ${vp.width}: ${o}`)) found.push(`${name} ${vp.width}: ${o}`);
    }
    await page.evaluate(() => { const s = document.querySelector('[data-page-scroller]'); if (s) { s.scrollTop = 0; delete s.dataset.pageScroller; } });
    await page.screenshot({ path: join(SHOTS, `phone-text-${name}-${vp.width}${SUFFIX}.png`), fullPage: true });
    await after();
  }
  await page.setViewportSize(VIEWPORTS[1]);
  assert.deepEqual(found, []);
}

/** Opens a game made by the API (with the creator's seat) and waits for its boards. */
async function open(body) {
  const g = await createGame(BASE, body);
  await page.goto(seatLink(BASE, g));
  await page.locator('#world .board').first().waitFor();
  return g;
}

const people = (white, black) => ({ white: { type: 'human', name: white }, black: { type: 'human', name: black } });
const statusIs = (re) => page.waitForFunction((s) => new RegExp(s).test(document.querySelector('#status').textContent), re.source);

test('home page: no text over another', () => check('home', async () => {
  await page.goto(`${BASE}/`);
  await page.locator('#pc-level option').first().waitFor({ state: 'attached' });
}));

test('game page: no text over another', () => check('game', async () => {
  await page.goto(`${BASE}/`);
  await page.locator('#pc-level option').first().waitFor({ state: 'attached' });
  await page.locator('#pc-color').selectOption('white');
  await page.getByRole('button', { name: 'Play the computer', exact: true }).click();
  await page.locator('#world .board').first().waitFor();
  await statusIs(/White to move/);
}));

test('your turn and their turn, with the longest names: no text over another', async () => {
  await check('your-turn', async () => {
    await open({ ...people(LONG, WORD), variant: 'Standard' });
    await statusIs(/White to move/);
  });
  await check('their-turn', async () => {
    await open({ ...people(WORD, LONG), variant: 'Standard', seat: 'white' });
    await move(page, ['0', '1', 'white'], 'e2', ['0', '1', 'white'], 'e4');
    await submit(page);
    await statusIs(/Black to move/);
  });
});

test('waiting for a friend: no text over another', { skip: STATIC && 'no invites in the static site' }, () => check('waiting', async () => {
  await page.goto(`${BASE}/#/`);
  await page.locator('#friend-card').waitFor();
  await page.getByLabel('Your name in the friend game', { exact: true }).fill(WORD);
  await page.getByRole('button', { name: 'Create invite', exact: true }).click();
  await page.waitForURL(/#\/game\/\d+/);
  await page.locator('#invite-link').waitFor();
}));

test('check, mate and resignation: no text over another', async () => {
  await check('check', async () => {
    await open({ ...people(LONG, WORD), import: '[Board "Standard"]\n\n1. e4 / f5\n2. Qh5+\n' });
    await statusIs(/Black to move/);
    await page.locator('#world .sq.check-royal').first().waitFor({ state: 'attached' });
  });
  await check('mate', async () => {
    await open({ ...people(WORD, LONG), import: SCHOLAR });
    await page.locator('#gameover:not(.hidden)').waitFor();
  });
  await check('resigned', async () => {
    await open({ ...people(LONG, WORD), variant: 'Standard' });
    page.once('dialog', (d) => d.accept());
    await page.getByRole('button', { name: 'Resign', exact: true }).click();
    await page.locator('#gameover', { hasText: /Resignation/ }).waitFor();
  });
});

test('the engine thinking: no text over another', () => check('thinking', async () => {
  await open({ variant: 'Standard', white: { type: 'human', name: WORD }, black: { type: 'engine', movetime_ms: 4000 } });
  await move(page, ['0', '1', 'white'], 'e2', ['0', '1', 'white'], 'e4');
  await submit(page);
  await statusIs(/thinking/i);
  await page.waitForTimeout(1200); // (its seconds counted)
}));

test('review: no text over another', () => check('review', async () => {
  const g = await createGame(BASE, { variant: 'Standard' });
  await page.goto(seatLink(BASE, g));
  await page.locator('#world .board').first().waitFor();
  await move(page, ['0', '1', 'white'], 'e2', ['0', '1', 'white'], 'e4');
  await submit(page);
  await page.getByRole('button', { name: 'Previous action', exact: true }).click();
  await page.locator('#review-bar:not(.hidden)').waitFor();
}));

test('computer review and analysis, with the longest names: no text over another', async () => {
  // (one game, reviewed once: the second viewport shows the review kept with it)
  let g = null;
  await check('computer-review', async () => {
    const first = !g;
    g ??= await createGame(BASE, { ...people(LONG, WORD), import: SCHOLAR });
    await page.goto(seatLink(BASE, g));
    await page.locator('#world .board').first().waitFor();
    if (first) await page.getByRole('button', { name: 'Review with the computer' }).click();
    await page.waitForFunction(() => document.querySelector('#computer-review')?.dataset.status === 'done', null, { timeout: 90000 });
    await page.locator('#cr-graph .cr-pt[data-index="5"]').click();
    await page.waitForFunction(() => document.querySelector('#play').dataset.review === '6');
  });
  await check('analysis', async () => {
    await open({ ...people(WORD, LONG), variant: 'Standard' });
    await page.getByRole('button', { name: 'Analyse', exact: true }).click();
    await page.locator('#analysis:not(.hidden)').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('#pv .pv-line').length === 3, null, { timeout: 30000 });
  });
});

test('editor: no text over another', () => check('editor', async () => {
  await page.goto(`${BASE}/#/editor`);
  await page.locator('#editor-panel:not(.hidden)').waitFor();
  await page.locator('#world .board').first().waitFor();
}));

test('puzzle: no text over another', () => check('puzzle', async () => {
  await page.goto(`${BASE}/`);
  const b = page.locator('#puzzle-next button[data-puzzle-start]');
  await b.waitFor();
  await b.click();
  await page.waitForFunction(() => /^#\/game\/\d+/.test(location.hash));
  await page.locator('#world .board').first().waitFor();
}));

test('course and lesson: no text over another', async () => {
  await check('course', async () => {
    await page.goto(`${BASE}/#/learn`);
    await page.locator('#learn:not(.hidden) #learn-list > *').first().waitFor();
  });
  await check('lesson', async () => {
    await page.goto(`${BASE}/#/learn/rook/1`);
    await page.locator('#lesson-prompt').waitFor();
    await page.locator('#world .board').first().waitFor();
  });
});

test('quick pairing, waiting for an opponent: no text over another', { skip: STATIC && 'no pairing in the static site' }, () => check('pairing', async () => {
  await page.goto(`${BASE}/`);
  await page.locator('#qp-variant option').first().waitFor({ state: 'attached' });
  const longest = await page.$$eval('#qp-variant option', (os) => os.map((o) => o.value).sort((a, b) => b.length - a.length)[0]);
  await page.locator('#qp-variant').selectOption(longest);
  await page.getByRole('button', { name: 'Find an opponent', exact: true }).click();
  await page.locator('#qp-status', { hasText: /Looking for an opponent/ }).waitFor();
}, async () => {
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await page.locator('#qp-status', { hasText: /Cancelled/ }).waitFor();
}));

test("a player's page: no text over another", { skip: STATIC && 'no accounts in the static site' }, () => check('player', async () => {
  await page.goto(`${BASE}/#/player/${WORD}`);
  await page.locator('#player:not(.hidden)').waitFor();
  await page.waitForTimeout(500);
}));
