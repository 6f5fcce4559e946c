#!/usr/bin/env node
// Builds the npm package `chess5d`: compiles crates/wasm to WebAssembly, runs wasm-bindgen
// and writes dist/:
//   chess5d.js    UMD: `require('chess5d')` gives the Chess class; a <script> tag defines the
//                 global `Chess` (the WebAssembly is inlined, so this one file is all a page needs)
//   chess5d.mjs   ES module: `import Chess from 'chess5d'` (Node and browsers)
//   chess5d.d.ts  TypeScript declarations
// The wasm32 target comes from rustup when `rustup target list --installed` shows it, else from
// Debian's toolchain (rustc-web, rust-web-src, lld-22: see the package README).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, copyFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { homedir } from 'node:os';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const dist = join(here, 'dist');
const target = join(repo, 'target', 'wasm');
const say = (m) => process.stderr.write(`build: ${m}\n`);

function has(cmd, args = ['--version']) {
  const r = spawnSync(cmd, args, { stdio: 'ignore' });
  return r.status === 0;
}

function find(name, extra) {
  for (const c of [name, ...extra]) if (has(c)) return c;
  return null;
}

function run(cmd, args, env) {
  execFileSync(cmd, args, { cwd: repo, stdio: 'inherit', env: { ...process.env, ...env } });
}

// 1. The WebAssembly module.
const installed = spawnSync('rustup', ['target', 'list', '--installed'], { encoding: 'utf8' });
const rustupWasm = installed.status === 0 && installed.stdout.split('\n').includes('wasm32-unknown-unknown');
const cargoArgs = ['build', '-p', 'chess5d-wasm', '--profile', 'wasm', '--target', 'wasm32-unknown-unknown'];
if (rustupWasm) {
  say('toolchain: rustup (wasm32-unknown-unknown installed)');
  run('cargo', cargoArgs, { CARGO_TARGET_DIR: target });
} else if (existsSync('/usr/bin/rustc') && existsSync('/usr/bin/cargo')) {
  const linker = ['/usr/bin/rust-lld', '/usr/bin/wasm-ld', '/usr/bin/wasm-ld-22'].find((p) => existsSync(p));
  if (!linker) {
    throw new Error('no wasm linker: install lld (Debian: apt-get install lld-22), or `rustup target add wasm32-unknown-unknown`');
  }
  say(`toolchain: Debian's rustc (${execFileSync('/usr/bin/rustc', ['--version'], { encoding: 'utf8' }).trim()}) with -Zbuild-std, linker ${linker}`);
  run('/usr/bin/cargo', [...cargoArgs, '-Zbuild-std=std,panic_abort'], {
    CARGO_TARGET_DIR: target,
    RUSTC: '/usr/bin/rustc',
    RUSTC_BOOTSTRAP: '1',
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER: linker,
  });
} else {
  throw new Error(
    'no wasm32 toolchain: run `rustup target add wasm32-unknown-unknown`, or on Debian ' +
      '`apt-get install rustc-web cargo-web rust-web-src lld-22`',
  );
}
const wasmIn = join(target, 'wasm32-unknown-unknown', 'wasm', 'chess5d_wasm.wasm');

// 2. wasm-bindgen, at the version the crate pins.
const pinned = /wasm-bindgen = "=([0-9.]+)"/.exec(readFileSync(join(repo, 'crates', 'wasm', 'Cargo.toml'), 'utf8'))[1];
const bindgen = find('wasm-bindgen', [join(homedir(), '.cargo', 'bin', 'wasm-bindgen')]);
if (!bindgen) {
  throw new Error(`wasm-bindgen not found: cargo install wasm-bindgen-cli --version ${pinned}`);
}
const bindgenVersion = execFileSync(bindgen, ['--version'], { encoding: 'utf8' }).trim();
if (!bindgenVersion.endsWith(pinned)) {
  throw new Error(`${bindgenVersion} does not match the pinned ${pinned}: cargo install wasm-bindgen-cli --version ${pinned}`);
}
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
`,
);
copyFileSync(join(here, 'src', 'chess5d.d.ts'), join(dist, 'chess5d.d.ts'));
say(`wrote dist/chess5d.js, dist/chess5d.mjs, dist/chess5d.d.ts (wasm ${(readFileSync(wasmFile).length / 1024).toFixed(0)} KiB)`);
