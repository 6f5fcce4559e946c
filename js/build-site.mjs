#!/usr/bin/env node
// `npm run build:site`: writes site/, the GUI as static files that any static host serves as they
// are (GitHub Pages, `python3 -m http.server`, a CDN): the page (web/), the local
// back-end (rules, games and engine in WebAssembly: crates/local; games in IndexedDB), the
// built-in puzzles as JSON, and config.js selecting the local back-end. Nothing calls /api/.
// The wasm32 target comes from rustup when installed, else from Debian's toolchain (as build.mjs).
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWasm, repo, run, wasmBindgen } from './wasm-toolchain.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const site = join(here, 'site');
const say = (m) => process.stderr.write(`build:site: ${m}\n`);

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write('usage: npm run build:site  (node build-site.mjs)\nWrites js/site/: the chess5d GUI as a static site (rules and engine in WebAssembly, games in the browser).\nServe it with any static host, e.g. `python3 -m http.server -d js/site 8000`.\n');
  process.exit(0);
}
const unknown = process.argv.slice(2).filter((a) => a !== '--help' && a !== '-h');
if (unknown.length) {
  process.stderr.write(`build:site: unknown argument ${unknown[0]} (see --help)\n`);
  process.exit(2);
}

// 1. The WebAssembly module (crates/local), and 2. wasm-bindgen (an ES module for the page and
// the worker) at the version the crate pins.
const wasmIn = buildWasm('local', 'chess5d-local', say);
const bindgen = wasmBindgen('local');
rmSync(site, { recursive: true, force: true });
mkdirSync(site, { recursive: true });
run(bindgen, ['--target', 'web', '--no-typescript', '--out-dir', join(site, 'pkg'), wasmIn]);

// 3. The page (index.html, app.js and its ES modules under ui/ and backend/: the whole folder),
// with paths made relative (the site may live under a sub-path, as on GitHub Pages).
const staticDir = join(repo, 'web');
// (not web/types/: the type check's declarations, which no page loads)
cpSync(staticDir, site, { recursive: true, filter: (f) => f !== join(staticDir, 'types') });
let html = readFileSync(join(site, 'index.html'), 'utf8');
html = html.replace(/(src|href)="\/(?!\/)/g, '$1="./');
const firstScript = html.indexOf('<script');
html = html.slice(0, firstScript) + '<script src="./config.js"></script>\n' + html.slice(firstScript);
// An installable app: its manifest (the browser offers "Install" with it and the worker below).
html = html.replace('</head>', '<link rel="manifest" href="./manifest.webmanifest">\n<meta name="theme-color" content="#26324a">\n</head>');
writeFileSync(join(site, 'index.html'), html);
cpSync(join(here, 'site-src', 'config.js'), join(site, 'config.js'));

// 4. The built-in puzzles: the list's one home, crates/server/data/puzzles/list.tsv (id, a tab,
// the name; easiest first), which the server's build.rs reads too.
const puzzleDir = join(repo, 'crates', 'server', 'data', 'puzzles');
const puzzles = readFileSync(join(puzzleDir, 'list.tsv'), 'utf8').split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .map((l) => {
    const [id, name] = l.split('\t');
    if (!name) throw new Error(`list.tsv: want id<TAB>name, got ${JSON.stringify(l)}`);
    return { id, name, pgn: readFileSync(join(puzzleDir, `${id}.5dpgn`), 'utf8') };
  });
if (!puzzles.length) throw new Error('no puzzles in crates/server/data/puzzles/list.tsv');
writeFileSync(join(site, 'puzzles.json'), JSON.stringify({ puzzles }));

// 5. The web app manifest, and the service worker that keeps every file of this build for
// offline use (sw.js from site-src, with this build's file list and a hash of their contents).
writeFileSync(join(site, 'manifest.webmanifest'), JSON.stringify({
  name: 'chess5d: 5D Chess With Multiverse Time Travel',
  short_name: 'chess5d',
  description: 'Play, analyse and review 5D chess in the browser, offline: rules and engine in WebAssembly.',
  start_url: './',
  scope: './',
  display: 'standalone',
  background_color: '#1b2233',
  theme_color: '#26324a',
  icons: [{ src: './favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
}, null, 2));
const files = (d, base = '') => readdirSync(d).sort().flatMap((f) => {
  const p = join(d, f);
  return statSync(p).isDirectory() ? files(p, `${base}${f}/`) : [`${base}${f}`];
});
const list = files(site);
const hash = createHash('sha256');
for (const f of list) hash.update(f).update(readFileSync(join(site, f)));
const sw = readFileSync(join(here, 'site-src', 'sw.js'), 'utf8')
  .replace('__VERSION__', hash.digest('hex').slice(0, 16))
  .replace('__FILES__', JSON.stringify(['./', ...list.map((f) => `./${f}`)]));
writeFileSync(join(site, 'sw.js'), sw);

const size = (d) => readdirSync(d).reduce((n, f) => { const p = join(d, f); const s = statSync(p); return n + (s.isDirectory() ? size(p) : s.size); }, 0);
say(`wrote ${site} (${(size(site) / 1024).toFixed(0)} KiB, wasm ${(statSync(join(site, 'pkg', 'chess5d_local_bg.wasm')).size / 1024).toFixed(0)} KiB, ${puzzles.length} puzzles)`);
say('serve it with: python3 -m http.server -d js/site 8000');
