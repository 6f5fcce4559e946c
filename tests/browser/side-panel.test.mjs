// Issue 48: on the review page at 1280x800 (the computer review open, the side panel taller than
// the screen), moving the keyboard focus through the page with Tab never hides
// the players' lines: the panel scrolls the focused control into view below them, and both lines
// stay seen (inside the panel, on screen, not covered) at every step.
// Screenshot: tests/browser/screenshots/side-panel-tab-1280.png (-static on the static site).
// Runs against the served GUI and (SITE=static) the static site.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, closeSession, createGame, seatLink, SHOTS } from './helpers.mjs';

const SUFFIX = process.env.SITE === 'static' ? '-static' : '';
const SCHOLAR = '[Board "Standard"]\n\n1. e4 / e5\n2. Bc4 / Nc6\n3. Qh5 / Nf6\n4. Qxf7#\n';
let session, page, errors, BASE;

before(async () => {
  session = await openSession();
  ({ page, errors, BASE } = session);
});

after(async () => {
  await closeSession(session);
});

/** What hides the players' lines or the focused control of the side panel now (none: []). */
const hidden = () => page.evaluate(() => {
  const side = document.querySelector('#side').getBoundingClientRect();
  const out = [];
  const seen = (e) => {
    const r = e.getBoundingClientRect();
    if (r.height < 2) return 'not drawn';
    if (r.top < Math.max(side.top, 0) - 1 || r.bottom > Math.min(side.bottom, innerHeight) + 1) return `out of the panel's view (${Math.round(r.top)}..${Math.round(r.bottom)} in ${Math.round(side.top)}..${Math.round(side.bottom)})`;
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 8));
    if (at && at !== e && !e.contains(at)) return `covered by ${at.id || at.tagName}`;
    return null;
  };
  for (const id of ['p-white', 'p-black']) {
    const why = seen(document.getElementById(id));
    if (why) out.push(`#${id}: ${why}`);
  }
  const f = document.activeElement;
  if (f && f !== document.body && f.closest('#side')) {
    const why = seen(f);
    if (why) out.push(`the focused ${f.id ? `#${f.id}` : f.tagName}: ${why}`);
  }
  return out;
});

test("Tab through the review page: the players' lines stay in view, the focused control too", async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const g = await createGame(BASE, { import: SCHOLAR });
  await page.goto(seatLink(BASE, g));
  await page.locator('#world .board').first().waitFor();
  await page.getByRole('button', { name: 'Review with the computer' }).click();
  await page.waitForFunction(() => document.querySelector('#computer-review')?.dataset.status === 'done', null, { timeout: 90000 });
  // The panel holds more than its room (else this test proves nothing).
  const [content, room] = await page.evaluate(() => {
    const p = document.querySelector('#game-panel');
    return [p.scrollHeight, p.clientHeight];
  });
  assert.ok(content > room, `the panel's content (${content} px) fits its room (${room} px)`);
  await page.evaluate(() => document.activeElement?.blur());
  const found = [];
  let first = null;
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    await page.waitForTimeout(30);
    const name = await page.evaluate(() => { const e = document.activeElement; return e?.id || e?.getAttribute('aria-label') || e?.tagName; });
    if (i > 0 && name === first) break;
    first ??= name;
    for (const h of await hidden()) {
      if (!found.length) await page.screenshot({ path: join(SHOTS, `side-panel-tab-1280${SUFFIX}.png`) });
      found.push(`after Tab to ${name}: ${h}`);
    }
  }
  if (!found.length) await page.screenshot({ path: join(SHOTS, `side-panel-tab-1280${SUFFIX}.png`) });
  assert.deepEqual(found.slice(0, 12), []);
  assert.deepEqual(errors.filter((e) => !/Failed to load resource.*(400|409)/.test(e)), []);
});
