#!/usr/bin/env node
// Builds the npm package `chess5d`: compiles crates/wasm to WebAssembly twice (the rules alone,
// and with the engine), runs wasm-bindgen and wasm-opt on each and writes dist/:
//   chess5d.js    UMD: `require('chess5d')` gives the Chess class; a <script> tag defines the
//                 global `Chess` (the rules' WebAssembly is inlined, so this one file is all a
//                 page needs for the 5d-chess-js API)
//   chess5d-engine.js  the engine (review()), loaded on its first use: by require in Node, by
//                 a second <script> tag or `await Chess.loadEngine()` in a page
//   chess5d.mjs   ES module: `import Chess from 'chess5d'` (Node and browsers); also exports
//                 `Chess` and `version`, the names the CommonJS export has as properties
//   chess5d.d.ts  TypeScript declarations of chess5d.js (`export = Chess`)
//   chess5d.d.mts TypeScript declarations of chess5d.mjs (default export, named `Chess` and `version`)
// In both builds the class also carries itself as `Chess.Chess`, so that
// `import { Chess } from 'chess5d'` compiled to CommonJS finds it (the declarations say so).
// The wasm32 target comes from rustup when `rustup target list --installed` shows it, else from
// Debian's toolchain (rustc-web, rust-web-src, lld-22: see the package README).
import { mkdirSync, readFileSync, writeFileSync, copyFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { buildWasm, repo, run, wasmBindgen, wasmOpt } from './wasm-toolchain.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const target = join(repo, 'target', 'wasm');
const say = (m) => process.stderr.write(`build: ${m}\n`);

// 1. Two WebAssembly modules of crates/wasm, each through wasm-bindgen (at the version the
// crate pins) and binaryen's wasm-opt: the rules (no engine: what `new Chess()` needs, small and
// quick to compile, -Oz) and the engine (the `engine` feature: review(), loaded on first use).
const bindgen = wasmBindgen('wasm');
function wasmModule(name, features, level, optLevel) {
  const built = buildWasm('wasm', 'chess5d-wasm', say, features, optLevel);
  const out = join(target, `bindgen-${name}`);
  rmSync(out, { recursive: true, force: true });
  run(bindgen, ['--target', 'no-modules', '--no-typescript', '--out-dir', out, built]);
  const wasmFile = join(out, 'chess5d_wasm_bg.wasm');
  const before = statSync(wasmFile).size;
  const optimised = wasmOpt(wasmFile, level, say);
  const wasm = readFileSync(wasmFile);
  say(`${name} module: wasm ${kib(before)}${optimised ? ` -> ${kib(wasm.length)} (wasm-opt ${level})` : ''}`);
  return { glue: readFileSync(join(out, 'chess5d_wasm.js'), 'utf8'), wasm };
}
const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
const level = (name, fallback) => process.env[`CHESS5D_WASM_OPT_${name}`] || fallback;
// The rules are compiled for size (opt-level "z": `npm run bench` shows the calls as fast as at
// level 3, within the noise; CHESS5D_RULES_OPT_LEVEL=3 to compare), the engine for speed.
const rules = wasmModule('rules', [], level('RULES', '-Oz'), process.env.CHESS5D_RULES_OPT_LEVEL || 'z');
const engine = wasmModule('engine', ['engine'], level('ENGINE', '-O3'), null);

// The bytes of a module from its base64 text (Buffer in Node, atob in browsers).
const base64 = `function (b64) {
  if (typeof Buffer === 'function') return new Uint8Array(Buffer.from(b64, 'base64'));
  const s = atob(b64);
  const a = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) a[i] = s.charCodeAt(i);
  return a;
}`;
const bytes = (wasm) => `(${base64})(${JSON.stringify(wasm.toString('base64'))})`;
// The rules module is shipped deflated (raw DEFLATE, level 9): Node's zlib inflates it, a page
// src/inflate.js.
const inflateJs = readFileSync(join(here, 'src', 'inflate.js'), 'utf8');
const deflated = (wasm) => `(function (packed, size) {
  const zlib = __require ? __require('zlib') : null;
  return zlib ? new Uint8Array(zlib.inflateRawSync(packed)) : inflate(packed, size);
})((${base64})(${JSON.stringify(deflateRawSync(wasm, { level: 9 }).toString('base64'))}), ${wasm.length})`;

// 2. The package files. The rules factory takes `__require` (Node's require, to load the engine
// file on first use; null in a page) and `__scriptSrc` (the script's URL, for loadEngine()).
mkdirSync(dist, { recursive: true });
const chess = readFileSync(join(here, 'src', 'chess.js'), 'utf8');
const factory = `function (__require, __scriptSrc) {
'use strict';
${inflateJs}
${rules.glue}
wasm_bindgen.initSync({ module: ${deflated(rules.wasm)} });
const core = wasm_bindgen;
${chess}
Object.defineProperty(Chess, 'Chess', { value: Chess });
return Chess;
}`;
writeFileSync(
  join(dist, 'chess5d.js'),
  `/*! chess5d ${process.env.npm_package_version || ''}: 5D chess rules in WebAssembly, the 5d-chess-js API. MIT. */
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory(typeof require === 'function' ? require : null, null);
  else root.Chess = factory(null, typeof document !== 'undefined' && document.currentScript ? document.currentScript.src : null);
})(typeof globalThis !== 'undefined' ? globalThis : this, ${factory});
`,
);
writeFileSync(
  join(dist, 'chess5d.mjs'),
  `/*! chess5d: 5D chess rules in WebAssembly, the 5d-chess-js API. MIT. */
const __require = typeof process === 'object' && process && typeof process.getBuiltinModule === 'function'
  ? process.getBuiltinModule('module').createRequire(import.meta.url)
  : null;
const Chess = (${factory})(__require, import.meta.url);
export default Chess;
export { Chess };
export const version = Chess.version;
`,
);
// The engine module: what review() runs, in a file of its own (CommonJS, or a <script> tag
// that defines the global Chess5dEngine; the rules module finds it either way).
writeFileSync(
  join(dist, 'chess5d-engine.js'),
  `/*! chess5d engine ${process.env.npm_package_version || ''}: the chess5d engine in WebAssembly, loaded by chess5d's review(). MIT. */
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.Chess5dEngine = factory();
})(typeof globalThis !== 'undefined' ? globalThis : this, function () {
'use strict';
${engine.glue}
wasm_bindgen.initSync({ module: ${bytes(engine.wasm)} });
return wasm_bindgen;
});
`,
);
copyFileSync(join(here, 'src', 'chess5d.d.ts'), join(dist, 'chess5d.d.ts'));
copyFileSync(join(here, 'src', 'chess5d.d.mts'), join(dist, 'chess5d.d.mts'));
const size = (f) => kib(statSync(join(dist, f)).size);
say(`wrote dist/chess5d.js (${size('chess5d.js')}), dist/chess5d.mjs, dist/chess5d-engine.js (${size('chess5d-engine.js')}), dist/chess5d.d.ts, dist/chess5d.d.mts`);
