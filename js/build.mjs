#!/usr/bin/env node
// Builds the npm package `chess5d`: compiles crates/wasm to WebAssembly, runs wasm-bindgen
// and writes dist/:
//   chess5d.js    UMD: `require('chess5d')` gives the Chess class; a <script> tag defines the
//                 global `Chess` (the WebAssembly is inlined, so this one file is all a page needs)
//   chess5d.mjs   ES module: `import Chess from 'chess5d'` (Node and browsers); also exports
//                 `Chess` and `version`, the names the CommonJS export has as properties
//   chess5d.d.ts  TypeScript declarations of chess5d.js (`export = Chess`)
//   chess5d.d.mts TypeScript declarations of chess5d.mjs (default export, named `Chess` and `version`)
// In both builds the class also carries itself as `Chess.Chess`, so that
// `import { Chess } from 'chess5d'` compiled to CommonJS finds it (the declarations say so).
// The wasm32 target comes from rustup when `rustup target list --installed` shows it, else from
// Debian's toolchain (rustc-web, rust-web-src, lld-22: see the package README).
import { mkdirSync, readFileSync, writeFileSync, copyFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWasm, repo, run, wasmBindgen } from './wasm-toolchain.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const target = join(repo, 'target', 'wasm');
const say = (m) => process.stderr.write(`build: ${m}\n`);




// 1. The WebAssembly module, and 2. wasm-bindgen at the version the crate pins.
const wasmIn = buildWasm('wasm', 'chess5d-wasm', say);
const bindgen = wasmBindgen('wasm');
const out = join(target, 'bindgen');
rmSync(out, { recursive: true, force: true });
run(bindgen, ['--target', 'no-modules', '--no-typescript', '--out-dir', out, wasmIn]);
// (No wasm-opt: Debian's binaryen breaks wasm-bindgen's externref table; the module is built
// with lto and opt-level 3 already.)
const wasmFile = join(out, 'chess5d_wasm_bg.wasm');

// 3. The package files.
mkdirSync(dist, { recursive: true });
const glue = readFileSync(join(out, 'chess5d_wasm.js'), 'utf8');
const wasm = readFileSync(wasmFile).toString('base64');
const chess = readFileSync(join(here, 'src', 'chess.js'), 'utf8');
const factory = `function () {
'use strict';
${glue}
const __bytes = (function (b64) {
  if (typeof atob === 'function') {
    const s = atob(b64);
    const a = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) a[i] = s.charCodeAt(i);
    return a;
  }
  return new Uint8Array(Buffer.from(b64, 'base64'));
})(${JSON.stringify(wasm)});
wasm_bindgen.initSync({ module: __bytes });
const core = wasm_bindgen;
${chess}
Object.defineProperty(Chess, 'Chess', { value: Chess });
return Chess;
}`;
writeFileSync(
  join(dist, 'chess5d.js'),
  `/*! chess5d ${process.env.npm_package_version || ''}: 5D chess rules in WebAssembly, the 5d-chess-js API. MIT. */
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.Chess = factory();
})(typeof globalThis !== 'undefined' ? globalThis : this, ${factory});
`,
);
writeFileSync(
  join(dist, 'chess5d.mjs'),
  `/*! chess5d: 5D chess rules in WebAssembly, the 5d-chess-js API. MIT. */
const Chess = (${factory})();
export default Chess;
export { Chess };
export const version = Chess.version;
`,
);
copyFileSync(join(here, 'src', 'chess5d.d.ts'), join(dist, 'chess5d.d.ts'));
copyFileSync(join(here, 'src', 'chess5d.d.mts'), join(dist, 'chess5d.d.mts'));
say(`wrote dist/chess5d.js, dist/chess5d.mjs, dist/chess5d.d.ts, dist/chess5d.d.mts (wasm ${(readFileSync(wasmFile).length / 1024).toFixed(0)} KiB)`);
