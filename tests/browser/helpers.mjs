// Shared helpers of the browser tests: a Chromium from the system driven by playwright-core,
// servers started on free ports with fresh databases, and click helpers for the SVG view.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const SHOTS = join(here, 'screenshots');
mkdirSync(SHOTS, { recursive: true });

// The page of the last launch: on the static site (SITE=static) the API is answered inside the
// page, so API calls of the tests go through it.
let lastPage = null;

/**
 * GET of an API path (`/api/...`) as JSON (or text for `.../pgn`): from the server, or on the
 * static site from the page's local back-end.
 */
export async function apiGet(BASE, path, g) {
  if (process.env.SITE === 'static') {
    if (!lastPage.url().startsWith(BASE)) await lastPage.goto(BASE);
    return lastPage.evaluate((p) => fetch(p).then((r) => (p.endsWith('/pgn') ? r.text() : r.json())), path);
  }
  // With the seat of game `g` (as made by createGame): a seat's tries are its own, so only its
  // token shows them (a spectator sees the last submitted position).
  const headers = g?.seat ? { 'X-Chess5d-Seat': g.seat.token } : {};
  return fetch(`${BASE}${path}`, { headers }).then((r) => (path.endsWith('/pgn') ? r.text() : r.json()));
}

/** Launches Chromium (CHROMIUM_PATH, default /usr/bin/chromium) with a fresh profile; `options`
 * override the context's (e.g. a phone: viewport, hasTouch, isMobile). */
export async function launch(options = {}) {
  const ctx = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'pw-')), {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      // (a page served by the route below has no address space: its WebSocket to 127.0.0.1
      // would be refused by the local network access checks)
      ...(process.env.STATIC_DIR ? ['--disable-features=LocalNetworkAccessChecks'] : [])],
    viewport: { width: 1280, height: 800 },
    ...options,
  });
  const page = ctx.pages()[0] ?? await ctx.newPage();
  lastPage = page;
  if (process.env.STATIC_DIR) {
    // Serve the page (index.html at `/`, and any *.js / *.css: app.js and its modules) from this
    // folder instead of the server's embedded copies: to try changes to web/ without rebuilding
    // the server, or to run a test against the page of an older commit (`git archive`) to see
    // it fail there. Files not in the folder go to the server.
    await page.route(/\/(index\.html)?([?#].*)?$|\.(js|css)(\?.*)?$/, async (route) => {
      const url = new URL(route.request().url());
      const name = decodeURIComponent(url.pathname.slice(1)) || 'index.html';
      const file = join(process.env.STATIC_DIR, name);
      if (name.includes('..') || url.pathname.startsWith('/api/') || !existsSync(file)) return route.continue();
      const type = { js: 'text/javascript', css: 'text/css', html: 'text/html' }[name.split('.').pop()];
      await route.fulfill({ body: readFileSync(file), contentType: `${type}; charset=utf-8` });
    });
  }
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  return { ctx, page, errors };
}

/**
 * Starts a server with SERVER_CMD (e.g. "target/release/chess5d serve") on a free port with the
 * given database (and extra arguments, e.g. engines); resolves to { url, proc, stop() } once it
 * printed its address.
 */
export function startServer(db, extraArgs = []) {
  const cmd = process.env.SERVER_CMD;
  if (!cmd) throw new Error('SERVER_CMD is not set (run tests/browser/run.sh)');
  const parts = cmd.split(/\s+/).filter(Boolean);
  // The limits run.sh raises for the suite (many games from one address).
  const limits = (process.env.SERVER_LIMITS || '').split(/\s+/).filter(Boolean);
  const proc = spawn(parts[0], [...parts.slice(1), '--addr', '127.0.0.1:0', '--db', db, ...limits, ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 20000);
    const onData = (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1], proc, output: () => out,
          stop: () => new Promise((res) => { proc.once('exit', (code, sig) => res({ code, sig })); proc.kill('SIGTERM'); }),
        });
      }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', (d) => { out += d; });
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited (${code}): ${out}`)); });
  });
}

/** A fresh database path. */
export function freshDb() {
  return join(mkdtempSync(join(tmpdir(), 'chess5d-db-')), 'games.db');
}

/** The locator of a board: [timeline label, turn, colour]. */
export function board(page, [l, t, color]) {
  return page.locator(`#world .board[data-l="${l}"][data-t="${t}"][data-color="${color}"]`);
}

/** The square of a board. */
export function square(page, b, sq) {
  return board(page, b).locator(`rect[data-square="${sq}"]`);
}

/**
 * Waits for the page's answer to an API call whose path ends with `suffix`: the server's HTTP
 * response, or on the static site (SITE=static) the local back-end's (which sends nothing over
 * the network). Start it before the click that makes the call.
 */
export function apiAnswer(page, suffix, method) {
  if (process.env.SITE === 'static') {
    return page.evaluate(([suffix, method]) => new Promise((resolve) => {
      const f = (e) => {
        if (e.detail.path.split('?')[0].endsWith(suffix) && (!method || e.detail.method === method)) {
          removeEventListener('chess5d-api', f);
          resolve();
        }
      };
      addEventListener('chess5d-api', f);
    }), [suffix, method]);
  }
  return page.waitForResponse((r) => r.url().split('?')[0].endsWith(suffix) && (!method || r.request().method() === method));
}

/** Plays a move by two clicks: the piece, then its destination (highlighted first). */
export async function move(page, from, fromSq, to, toSq) {
  await square(page, from, fromSq).click();
  const dest = square(page, to, toSq);
  await dest.and(page.locator('[data-dest]')).waitFor({ timeout: 5000 });
  await Promise.all([
    apiAnswer(page, '/move', 'POST'),
    dest.click(),
  ]);
}

/** Answers the name the page asks of a player an invite link seated (the Join dialog). */
export async function answerName(page, name = '') {
  await page.locator('#join-dialog').waitFor();
  if (name) await page.getByLabel('Your name in the game', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Join', exact: true }).click();
}

/** Clicks Submit and waits for the server's answer. */
export async function submit(page) {
  await Promise.all([
    apiAnswer(page, '/submit'),
    page.getByRole('button', { name: 'Submit', exact: true }).click(),
  ]);
}

/** Creates a game through the API (POST /api/games) and returns its state (status 201 checked). */
export async function createGame(BASE, body) {
  if (process.env.SITE === 'static') {
    if (!lastPage.url().startsWith(BASE)) await lastPage.goto(BASE);
    const r = await lastPage.evaluate((b) => fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) }).then(async (r) => ({ status: r.status, g: await r.json() })), body);
    if (r.status !== 201) throw new Error(`POST /api/games: ${r.status} ${JSON.stringify(r.g)}`);
    return r.g;
  }
  const res = await fetch(`${BASE}/api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const g = await res.json();
  if (res.status !== 201) throw new Error(`POST /api/games: ${res.status} ${JSON.stringify(g)}`);
  return g;
}

/**
 * The link that opens a game made outside the page (by the API) with the creator's seat: the
 * page keeps the token (see online.js) and may move like the creator.
 */
export function seatLink(base, g) {
  if (!g.seat) return `${base}/#/game/${g.id}`; // the static site has no seats
  return `${base}/#/game/${g.id}/join/${g.seat.sides.join('+')}/${g.seat.token}`;
}

/** The id of the game open in the page. */
export function gameId(page) {
  const m = page.url().match(/#\/game\/(\d+)/);
  return m ? Number(m[1]) : null;
}

// A server (a fresh one on a fresh database, or the one at BASE_URL) and a browser page, for
// one test file: call in before(), and closeSession in after().
export async function openSession() {
  let server = null;
  let BASE = process.env.BASE_URL;
  if (!BASE) {
    server = await startServer(freshDb());
    BASE = server.url;
  }
  const { ctx, page, errors } = await launch();
  return { server, browser: ctx, page, errors, BASE };
}

export async function closeSession(session) {
  await session?.browser?.close();
  if (session?.server) await session.server.stop();
}

/** The games of a 5DPGN file of tests/browser/data: { headers, lines } (one turn per line, as `chess5d convert` writes). */
export function gameFile(file) {
  const out = [];
  let g = null;
  for (const line of readFileSync(join(here, 'data', file), 'utf8').split('\n')) {
    if (line.startsWith('[')) {
      if (!g || g.lines.length) { g = { headers: [], lines: [] }; out.push(g); }
      g.headers.push(line);
    } else {
      const turn = line.trim().replace(/\s*(1-0|0-1|1\/2-1\/2|\*)$/, ''); // (the result)
      if (turn) g.lines.push(turn);
    }
  }
  return out;
}

/** The game's first k actions as 5DPGN (without its result). */
export function prefix(g, k) {
  const head = g.headers.filter((h) => !/^\[(Result|Termination|PlyCount) /.test(h));
  const body = [];
  let n = 0;
  for (const line of g.lines) {
    if (n >= k) break;
    const m = line.match(/^(\d+b?\.)\s*(.*)$/);
    const acts = m[2].split(' / ');
    const take = acts.slice(0, k - n);
    body.push(`${m[1]} ${take.join(' / ')}`);
    n += take.length;
  }
  return `${head.join('\n')}\n\n${body.join('\n')}\n`;
}

export const actionCount = (g) => g.lines.reduce((n, line) => n + line.replace(/^\d+b?\.\s*/, '').split(' / ').length, 0);
