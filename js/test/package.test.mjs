// The package as a user gets it: `npm pack`, installed in a fresh folder, then the seed
// README's three-action mate in Node (CommonJS and ES module), TypeScript against the installed
// declarations, and headless Chromium with a <script> tag (CHROMIUM_PATH, default
// /usr/bin/chromium). And `npm publish --dry-run` has nothing to warn about in package.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const MATE = `
chess.move('1w. 1:e2:e3');
chess.submit();
chess.move('1b. 1:f7:f6');
chess.submit();
chess.move('2w. 2:Qd1:e2');
chess.submit();
chess.move('2b. 2:Nb8:c6');
chess.submit();
chess.move('3w. 3:Qe2:h5');
chess.submit();
chess.print();
console.log(chess.inCheckmate);
`;

const work = mkdtempSync(join(tmpdir(), 'chess5d-pack-'));
const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: pkg, encoding: 'utf8' })
  .trim()
  .split('\n')
  .pop();
const app = join(work, 'app');
execFileSync('mkdir', ['-p', app]);
writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
execFileSync('npm', ['install', '--no-audit', '--no-fund', '--silent', join(work, tarball)], { cwd: app });

test.after(() => rmSync(work, { recursive: true, force: true }));

test('the tarball holds the built files and nothing else of the source tree', () => {
  const list = execFileSync('tar', ['tzf', join(work, tarball)], { encoding: 'utf8' }).split('\n').filter(Boolean);
  const expected = ['package/package.json', 'package/README.md', 'package/LICENSE', 'package/dist/chess5d.cjs', 'package/dist/chess5d.node.mjs', 'package/dist/chess5d.wasm', 'package/dist/chess5d.js', 'package/dist/chess5d-engine.js', 'package/dist/chess5d.mjs', 'package/dist/chess5d.d.ts', 'package/dist/chess5d.d.mts'];
  assert.deepEqual([...list].sort(), [...expected].sort());
  // The rules' WebAssembly ships inlined once (chess5d.js) besides Node's raw chess5d.wasm: the
  // ES module imports chess5d.js rather than holding a copy.
  const mjs = readFileSync(join(app, 'node_modules', 'chess5d', 'dist', 'chess5d.mjs'), 'utf8');
  assert.ok(mjs.length < 2000 && /from '\.\/chess5d\.js'/.test(mjs), mjs.slice(0, 300));
});

test("the package's LICENSE is the repository's", () => {
  assert.equal(readFileSync(join(pkg, 'LICENSE'), 'utf8'), readFileSync(join(pkg, '..', 'LICENSE'), 'utf8'));
});

test('npm publish --dry-run: the package would publish, with no warning about its fields', () => {
  const r = spawnSync('npm', ['publish', '--dry-run'], { cwd: pkg, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const out = r.stdout + r.stderr;
  assert.match(out, /chess5d@0\.1\.0/);
  // Only the dry run's own note that nobody is logged in is allowed.
  const warnings = out.split('\n').filter((l) => /npm warn/i.test(l) && !/requires you to be logged in/.test(l));
  assert.deepEqual(warnings, []);
});

test('TypeScript: the installed declarations type-check, and the compiled code runs', () => {
  const tsc = join(pkg, 'node_modules', 'typescript', 'bin', 'tsc');
  const body = `const chess: Chess = new Chess();\nchess.move('1w. 1:e2:e3');\nchess.submit();\nconst b: Board = chess.board;\nconsole.log(chess.player, b.timelines.length);\n`;
  writeFileSync(join(app, 'cjs.ts'), `import Chess = require('chess5d');\nimport type { Board } from 'chess5d';\n${body}`);
  writeFileSync(join(app, 'esm.mts'), `import Chess from 'chess5d';\nimport type { Board } from 'chess5d';\n${body}`);
  writeFileSync(join(app, 'globals.d.ts'), 'declare const console: { log(...data: unknown[]): void };\n');
  const common = ['--strict', '--target', 'es2022', '--lib', 'es2022', '--pretty', 'false', 'globals.d.ts'];
  for (const [file, module, out] of [['cjs.ts', 'commonjs', 'cjs.js'], ['esm.mts', 'nodenext', 'esm.mjs']]) {
    const c = spawnSync('node', [tsc, ...common, '--module', module, file], { cwd: app, encoding: 'utf8' });
    assert.equal(c.status, 0, `${file}: ${c.stdout}${c.stderr}`);
    assert.equal(execFileSync('node', [out], { cwd: app, encoding: 'utf8' }), 'black 1\n', file);
  }
});

test('CommonJS: require gives the Chess class; the seed mate prints true', () => {
  writeFileSync(join(app, 'mate.cjs'), `const Chess = require('chess5d');\nvar chess = new Chess();\n${MATE}`);
  const out = execFileSync('node', ['mate.cjs'], { cwd: app, encoding: 'utf8' });
  // print() writes nothing: enableConsole is false by default, as in 5d-chess-js 1.2.1.
  assert.equal(out, 'true\n');
});

test('ES module: import Chess from "chess5d"; the seed mate prints true', () => {
  writeFileSync(join(app, 'mate.mjs'), `import Chess from 'chess5d';\nvar chess = new Chess();\n${MATE}`);
  const out = execFileSync('node', ['mate.mjs'], { cwd: app, encoding: 'utf8' });
  assert.equal(out.trim().split('\n').pop(), 'true');
});

test("start-up: Node's entries read chess5d.wasm and compile it on the first use of the rules, not at require or a plain new Chess()", () => {
  // Counts the WebAssembly compiles and file reads of chess5d.wasm at each step.
  const probe = (load) => `const fs = require('fs');
let compiled = 0, read = 0;
const Module = WebAssembly.Module;
WebAssembly.Module = function (b) { compiled++; return new Module(b); };
const readFileSync = fs.readFileSync;
fs.readFileSync = function (f, ...rest) { if (String(f).endsWith('chess5d.wasm')) read++; return readFileSync.call(this, f, ...rest); };
const steps = [];
const seen = () => steps.push(compiled + '/' + read);
(async () => {
  const Chess = ${load};
  seen();
  const chess = new Chess();
  seen();
  const n = chess.moves().length;
  seen();
  new Chess().board;
  new Chess(undefined, 'turn_zero');
  seen();
  console.log(steps.join(' '), n);
})();`;
  writeFileSync(join(app, 'startup-cjs.cjs'), probe("require('chess5d')"));
  writeFileSync(join(app, 'startup-esm.cjs'), probe("(await import('chess5d')).default"));
  for (const f of ['startup-cjs.cjs', 'startup-esm.cjs']) {
    assert.equal(execFileSync('node', [f], { cwd: app, encoding: 'utf8' }), '0/0 0/0 1/1 1/1 20\n', f);
  }
  // A bundle for Node that left chess5d.wasm behind: a clear error at the first use, and the
  // self-contained script, which inlines the module, is exported for that case.
  const alone = join(app, 'alone');
  execFileSync('mkdir', ['-p', alone]);
  writeFileSync(join(alone, 'chess5d.cjs'), readFileSync(join(app, 'node_modules', 'chess5d', 'dist', 'chess5d.cjs')));
  writeFileSync(join(app, 'alone.cjs'), `const Chess = require('./alone/chess5d.cjs');\nconst chess = new Chess();\ntry { chess.board; } catch (e) { console.log(e.code, /chess5d\\.wasm/.test(e.message)); }\nconsole.log(new (require('chess5d/dist/chess5d.js'))().moves().length);\n`);
  assert.equal(execFileSync('node', ['alone.cjs'], { cwd: app, encoding: 'utf8' }), 'wasm_not_found true\n20\n');
  // An unknown variant still throws at construction.
  writeFileSync(join(app, 'variant.cjs'), `const Chess = require('chess5d');\ntry { new Chess(undefined, 'no such variant'); console.log('made'); } catch (e) { console.log(e.code); }\n`);
  assert.equal(execFileSync('node', ['variant.cjs'], { cwd: app, encoding: 'utf8' }), 'unknown_variant\n');
});

test('the engine is a second module: require loads the rules alone, review() loads the engine (CommonJS and ES module)', () => {
  const cjs = `const Chess = require('chess5d');
const loaded = () => Object.keys(require.cache).some((f) => f.endsWith('chess5d-engine.js'));
const before = loaded();
const r = new Chess('1. e4 / e5').review({ depth: 1 });
console.log(before, loaded(), r.actions.length);`;
  writeFileSync(join(app, 'engine.cjs'), cjs);
  assert.equal(execFileSync('node', ['engine.cjs'], { cwd: app, encoding: 'utf8' }), 'false true 2\n');
  writeFileSync(join(app, 'engine.mjs'), `import Chess from 'chess5d';\nawait Chess.loadEngine();\nconsole.log(new Chess('1. e4 / e5').review({ depth: 1 }).actions.length);\n`);
  assert.equal(execFileSync('node', ['engine.mjs'], { cwd: app, encoding: 'utf8' }), '2\n');
});

test('the browser: a <script> tag defines the global Chess; the seed mate is true', async () => {
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  assert.ok(existsSync(chromium), `Chromium is needed at ${chromium} (apt-get install chromium)`);
  const { chromium: pw } = await import('playwright-core');
  const script = join(app, 'node_modules', 'chess5d', 'dist', 'chess5d.js');
  const html = join(app, 'index.html');
  writeFileSync(
    html,
    `<!doctype html><meta charset="utf-8"><script src="${pathToFileURL(script)}"></script>
<script>var chess = new Chess();${MATE.replaceAll('console.log(chess.inCheckmate);', 'document.title = String(chess.inCheckmate);')}</script>`,
  );
  const ctx = await pw.launchPersistentContext(mkdtempSync(join(tmpdir(), 'pw-')), {
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(html).href);
    await page.waitForFunction(() => document.title !== '', null, { timeout: 20000 });
    assert.deepEqual(errors, []);
    assert.equal(await page.title(), 'true');
    assert.equal(await page.evaluate(() => typeof window.Chess), 'function');
    // The engine: not loaded with the rules; review() says how, Chess.loadEngine() loads it.
    assert.equal(await page.evaluate(() => typeof window.Chess5dEngine), 'undefined');
    assert.equal(await page.evaluate(() => { try { new Chess('1. e4').review({ depth: 1 }); return 'reviewed'; } catch (e) { return e.code; } }), 'engine_not_loaded');
    assert.equal(await page.evaluate(async () => { await Chess.loadEngine(); return new Chess('1. e4 / e5').review({ depth: 1 }).actions.length; }), 2);
  } finally {
    await ctx.close();
  }
});

test('the browser: a module script imports chess5d.mjs (which holds no copy of the rules: it imports chess5d.js), the seed mate is true, loadEngine() finds the engine', async () => {
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  assert.ok(existsSync(chromium), `Chromium is needed at ${chromium} (apt-get install chromium)`);
  const { chromium: pw } = await import('playwright-core');
  const { createServer } = await import('node:http');
  // Module scripts need http (Chromium refuses them from file:). The installed package, served.
  const root = join(app, 'node_modules', 'chess5d');
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/') {
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><meta charset="utf-8"><script type="module">
import Chess, { Chess as Named, version } from '/dist/chess5d.mjs';
var chess = new Chess();${MATE.replaceAll('console.log(chess.inCheckmate);', '')}
await Chess.loadEngine();
document.title = [chess.inCheckmate, Named === Chess, typeof version, new Chess('1. e4 / e5').review({ depth: 1 }).actions.length].join(' ');
</script>`);
      return;
    }
    const file = join(root, path);
    if (!file.startsWith(root + '/') || !existsSync(file)) {
      res.statusCode = 404;
      res.end();
      return;
    }
    res.setHeader('content-type', file.endsWith('.wasm') ? 'application/wasm' : 'text/javascript');
    res.end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const ctx = await pw.launchPersistentContext(mkdtempSync(join(tmpdir(), 'pw-')), {
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const requested = [];
    page.on('request', (r) => requested.push(new URL(r.url()).pathname));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => document.title !== '', null, { timeout: 30000 });
    assert.deepEqual(errors, []);
    assert.equal(await page.title(), 'true true string 2');
    // The rules came from chess5d.js, the engine from chess5d-engine.js; chess5d.wasm is Node's.
    assert.deepEqual(requested.filter((p) => p.startsWith('/dist/')).sort(), ['/dist/chess5d-engine.js', '/dist/chess5d.js', '/dist/chess5d.mjs']);
  } finally {
    await ctx.close();
    server.close();
  }
});
