#!/usr/bin/env node
// Builds the npm package `chess5d`: compiles crates/wasm to WebAssembly twice (the rules alone,
// and with the engine), runs wasm-bindgen and wasm-opt on each and writes dist/:
//   chess5d.cjs   what Node's `require('chess5d')` loads: the Chess class, the rules'
//                 WebAssembly read from chess5d.wasm beside it on first use (not at require)
//   chess5d.node.mjs  what Node's `import Chess from 'chess5d'` loads (chess5d.cjs as a module)
//   chess5d.wasm  the rules module (raw: Node reads it with fs, nothing to decode or inflate)
//   chess5d.js    UMD, self-contained: a <script> tag defines the global `Chess` (the rules'
//                 WebAssembly is inlined, deflated, so this one file is all a page needs for
//                 the 5d-chess-js API); bundlers take it too (package.json `browser`)
//   chess5d-engine.js  the engine (review()), loaded on its first use: by require in Node, by
//                 a second <script> tag or `await Chess.loadEngine()` in a page (its
//                 WebAssembly inlined deflated too)
//   chess5d.mjs   ES module (browsers, bundlers): `import Chess from 'chess5d'`; also exports
//                 `Chess` and `version`, the names the CommonJS export has as properties. It
//                 imports chess5d.js, so the rules' inlined WebAssembly ships once for both
//   chess5d.d.ts  TypeScript declarations of chess5d.js (`export = Chess`)
//   chess5d.d.mts TypeScript declarations of chess5d.mjs (default export, named `Chess` and `version`)
// In every build the class also carries itself as `Chess.Chess`, so that
// `import { Chess } from 'chess5d'` compiled to CommonJS finds it (the declarations say so).
// The rules module is compiled and instantiated on the first use of the rules (a plain
// `new Chess()` waits for its first call too), so that `require` does no WebAssembly work.
// The wasm32 target comes from rustup when `rustup target list --installed` shows it, else from
// Debian's toolchain (rustc-web, rust-web-src, lld-22: see the package README).
import { mkdirSync, readFileSync, writeFileSync, copyFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { buildWasm, repo, run, wasmBindgen, wasmOpt, withoutTargetFeature } from './wasm-toolchain.mjs';

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
  mkdirSync(out, { recursive: true });
  // Single-value exports (see withoutTargetFeature): V8 compiles no wrapper per signature.
  const input = join(out, 'chess5d_wasm.wasm');
  withoutTargetFeature(built, input, 'multivalue');
  run(bindgen, ['--target', 'no-modules', '--no-typescript', '--out-dir', out, input]);
  rmSync(input);
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
// The self-contained builds (chess5d.js, chess5d.mjs) inline the rules module deflated (raw
// DEFLATE, level 9): Node's zlib inflates it, a page src/inflate.js.
const inflateJs = readFileSync(join(here, 'src', 'inflate.js'), 'utf8');
const deflated = (wasm) => `(function (packed, size) {
  const zlib = __require ? __require('zlib') : null;
  return zlib ? new Uint8Array(zlib.inflateRawSync(packed)) : inflate(packed, size);
})((${base64})(${JSON.stringify(deflateRawSync(wasm, { level: 9 }).toString('base64'))}), ${wasm.length})`;

// 2. The package files. The rules factory takes `__require` (Node's require, to load the engine
// file on first use; null in a page), `__scriptSrc` (the script's URL, for loadEngine()) and,
// in Node's build, `__wasmBytes` (a function giving the rules module's bytes, called on the
// first use of the rules; the self-contained builds inflate their inlined copy instead). The version is the core's own, asked of the module here (no WebAssembly at require).
mkdirSync(dist, { recursive: true });
const chess = readFileSync(join(here, 'src', 'chess.js'), 'utf8');
const coreVersion = new Function('bytes', `${rules.glue}\nwasm_bindgen.initSync({ module: bytes });\nreturn wasm_bindgen.version();`)(rules.wasm);
const factory = (inlined) => `function (__require, __scriptSrc${inlined ? '' : ', __wasmBytes'}) {
'use strict';
${inlined ? `${inflateJs}\nfunction __wasmBytes() {\n  return ${deflated(rules.wasm)};\n}` : ''}
${rules.glue}
let core = null;
/** The rules module (wasm-bindgen's exports), compiled and instantiated on first use. */
function rules() {
  if (core === null) {
    wasm_bindgen.initSync({ module: __wasmBytes() });
    core = wasm_bindgen;
  }
  return core;
}
const __version = ${JSON.stringify(coreVersion)};
${chess}
Object.defineProperty(Chess, 'Chess', { value: Chess });
// The URL loadEngine() looks beside, for a loader that has no currentScript (chess5d.mjs).
Object.defineProperty(Chess, '__scriptSrc', { set(url) { if (!__scriptSrc) __scriptSrc = url; } });
return Chess;
}`;
const banner = (what) => `/*! chess5d ${process.env.npm_package_version || ''}: ${what} MIT. */`;
writeFileSync(
  join(dist, 'chess5d.js'),
  `${banner('5D chess rules in WebAssembly, the 5d-chess-js API.')}
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory(typeof require === 'function' ? require : null, null);
  else root.Chess = factory(null, typeof document !== 'undefined' && document.currentScript ? document.currentScript.src : null);
})(typeof globalThis !== 'undefined' ? globalThis : this, ${factory(true)});
`,
);
// The ES module for pages and bundlers holds no copy of the rules: it imports chess5d.js (as a
// module script in a page, which defines the global Chess; as CommonJS in a bundler, whose
// export is the namespace's default), so the package ships the inlined module once.
writeFileSync(
  join(dist, 'chess5d.mjs'),
  `${banner('5D chess rules in WebAssembly, the 5d-chess-js API (the rules of chess5d.js).')}
import * as umd from './chess5d.js';
const Chess = typeof umd.default === 'function' ? umd.default : globalThis.Chess;
// loadEngine() finds chess5d-engine.js beside this file (a module script has no currentScript).
Chess.__scriptSrc = import.meta.url;
export default Chess;
export { Chess };
export const version = Chess.version;
`,
);
// Node's entries: the module's bytes from chess5d.wasm (no text to parse, decode or inflate).
writeFileSync(join(dist, 'chess5d.wasm'), rules.wasm);
writeFileSync(
  join(dist, 'chess5d.cjs'),
  `${banner('5D chess rules in WebAssembly (chess5d.wasm), the 5d-chess-js API, for Node.')}
'use strict';
module.exports = (${factory(false)})(require, null, function () {
  const file = require('path').join(__dirname, 'chess5d.wasm');
  try {
    return require('fs').readFileSync(file);
  } catch (e) {
    // A bundle of this file for Node without chess5d.wasm beside it.
    const err = new Error(
      \`chess5d: cannot read the rules' WebAssembly at \${file} (\${e.code || e.message}): ship chess5d.wasm beside \` +
        "this script, or load 'chess5d/dist/chess5d.js', which inlines it",
    );
    err.code = 'wasm_not_found';
    throw err;
  }
});
`,
);
writeFileSync(
  join(dist, 'chess5d.node.mjs'),
  `${banner('5D chess rules in WebAssembly (chess5d.wasm), the 5d-chess-js API, for Node.')}
import Chess from './chess5d.cjs';
export default Chess;
export { Chess };
export const version = Chess.version;
`,
);
// The engine module: what review() runs, in a file of its own (CommonJS, or a <script> tag
// that defines the global Chess5dEngine; the rules module finds it either way). Its WebAssembly
// is inlined deflated, like the rules' (Node's zlib inflates it, a page src/inflate.js): 1.06 MB
// of base64 before, under half that now.
writeFileSync(
  join(dist, 'chess5d-engine.js'),
  `/*! chess5d engine ${process.env.npm_package_version || ''}: the chess5d engine in WebAssembly, loaded by chess5d's review(). MIT. */
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory(typeof require === 'function' ? require : null);
  else root.Chess5dEngine = factory(null);
})(typeof globalThis !== 'undefined' ? globalThis : this, function (__require) {
'use strict';
${inflateJs}
${engine.glue}
wasm_bindgen.initSync({ module: ${deflated(engine.wasm)} });
return wasm_bindgen;
});
`,
);
copyFileSync(join(here, 'src', 'chess5d.d.ts'), join(dist, 'chess5d.d.ts'));
copyFileSync(join(here, 'src', 'chess5d.d.mts'), join(dist, 'chess5d.d.mts'));
const size = (f) => kib(statSync(join(dist, f)).size);
say(
  `wrote dist/chess5d.cjs (${size('chess5d.cjs')}) and chess5d.wasm (${size('chess5d.wasm')}), chess5d.node.mjs, ` +
    `chess5d.js (${size('chess5d.js')}), chess5d.mjs, chess5d-engine.js (${size('chess5d-engine.js')}), chess5d.d.ts, chess5d.d.mts`,
);
