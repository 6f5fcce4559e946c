// The WebAssembly build shared by build.mjs (the npm package, crates/wasm) and build-site.mjs
// (the static site, crates/local): compiles a crate for wasm32 with the rustup target when
// `rustup target list --installed` shows it, else with Debian's toolchain (rustc-web,
// rust-web-src, lld-22, -Zbuild-std), and finds wasm-bindgen at the version the crate pins.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { homedir } from 'node:os';

export const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

function has(cmd) {
  return spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;
}

export function run(cmd, args, env) {
  execFileSync(cmd, args, { cwd: repo, stdio: 'inherit', env: { ...process.env, ...env } });
}

/**
 * Builds `crates/<dir>` (package `pkg`) for wasm32, with the cargo `features` given; returns the
 * .wasm file (overwritten by the next build of the same package in the same target dir).
 * `optLevel` overrides the `wasm` profile's opt-level (in a target dir of its own, `wasm-<level>`,
 * so that builds at two levels do not rebuild each other). `say` reports.
 */
export function buildWasm(dir, pkg, say, features = [], optLevel = null) {
  const target = optLevel ? join(repo, 'target', `wasm-${optLevel}`) : join(repo, 'target', 'wasm');
  const level = optLevel ? { CARGO_PROFILE_WASM_OPT_LEVEL: optLevel } : {};
  const installed = spawnSync('rustup', ['target', 'list', '--installed'], { encoding: 'utf8' });
  const rustupWasm = installed.status === 0 && installed.stdout.split('\n').includes('wasm32-unknown-unknown');
  const cargoArgs = ['build', '-p', pkg, '--profile', 'wasm', '--target', 'wasm32-unknown-unknown'];
  if (features.length) cargoArgs.push('--features', features.join(','));
  if (rustupWasm) {
    say('toolchain: rustup (wasm32-unknown-unknown installed)');
    run('cargo', cargoArgs, { CARGO_TARGET_DIR: target, ...level });
  } else if (existsSync('/usr/bin/rustc') && existsSync('/usr/bin/cargo')) {
    const linker = ['/usr/bin/rust-lld', '/usr/bin/wasm-ld', '/usr/bin/wasm-ld-22'].find((p) => existsSync(p));
    if (!linker) {
      throw new Error('no wasm linker: install lld (Debian: apt-get install lld-22), or `rustup target add wasm32-unknown-unknown`');
    }
    const version = execFileSync('/usr/bin/rustc', ['--version'], { encoding: 'utf8' }).trim();
    say(`toolchain: Debian's rustc (${version}) with -Zbuild-std, linker ${linker}`);
    run('/usr/bin/cargo', [...cargoArgs, '-Zbuild-std=std,panic_abort'], {
      CARGO_TARGET_DIR: target,
      ...level,
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
  return join(target, 'wasm32-unknown-unknown', 'wasm', `${pkg.replaceAll('-', '_')}.wasm`);
}

/** The wasm-bindgen command at the version `crates/<dir>/Cargo.toml` pins (or an Error saying how to install it). */
export function wasmBindgen(dir) {
  const manifest = readFileSync(join(repo, 'crates', dir, 'Cargo.toml'), 'utf8');
  const pinned = /wasm-bindgen = "=([0-9.]+)"/.exec(manifest)[1];
  const bindgen = ['wasm-bindgen', join(homedir(), '.cargo', 'bin', 'wasm-bindgen')].find(has);
  if (!bindgen) throw new Error(`wasm-bindgen not found: cargo install wasm-bindgen-cli --version ${pinned}`);
  const v = execFileSync(bindgen, ['--version'], { encoding: 'utf8' }).trim();
  if (!v.endsWith(pinned)) {
    throw new Error(`${v} does not match the pinned ${pinned}: cargo install wasm-bindgen-cli --version ${pinned}`);
  }
  return bindgen;
}

/**
 * Optimises a wasm-bindgen output in place with binaryen's wasm-opt (the npm package `binaryen`,
 * a dev dependency; `WASM_OPT` names another wasm-opt): `level` (`-Oz`, `-O3`...), the debug
 * and name sections stripped. The features are those Rust's wasm32 target enables (externref
 * tables included, which wasm-bindgen uses). Returns false (and says why) without wasm-opt.
 */
export function wasmOpt(file, level, say) {
  const local = join(repo, 'js', 'node_modules', 'binaryen', 'bin', 'wasm-opt');
  const cmd = process.env.WASM_OPT || (existsSync(local) ? local : 'wasm-opt');
  if (!has(cmd)) {
    say(`no wasm-opt (npm install in js/, or WASM_OPT=...): ${file} left as built`);
    return false;
  }
  const features = ['bulk-memory', 'mutable-globals', 'multivalue', 'nontrapping-float-to-int', 'reference-types', 'sign-ext'];
  run(cmd, [level, ...features.map((f) => `--enable-${f}`), '--strip-debug', '--strip-producers', file, '-o', file]);
  return true;
}

/**
 * Copies a wasm file with `feature` taken out of its `target_features` section (the features
 * its objects were compiled with). For `multivalue`: wasm-bindgen turns a module that lists it
 * into one whose exports return several values, and V8 (Node 20's 11.3) compiles each such
 * export signature's JS-to-wasm wrapper with TurboFan when the module is compiled, where
 * single-value signatures share its generic wrapper: 12 signatures, about 4 ms of each
 * start-up. Without the feature wasm-bindgen returns through memory (its older convention);
 * the code itself uses no multi-value instruction (Rust's wasm32 C ABI returns through memory).
 */
export function withoutTargetFeature(src, dst, feature) {
  const b = readFileSync(src);
  const leb = (i) => {
    let r = 0;
    let s = 0;
    let c;
    do {
      c = b[i++];
      r += (c & 127) * 2 ** s;
      s += 7;
    } while (c & 128);
    return [r, i];
  };
  const enc = (n) => {
    const o = [];
    do {
      let x = n & 127;
      n = Math.floor(n / 128);
      if (n) x |= 128;
      o.push(x);
    } while (n);
    return o;
  };
  const out = [b.subarray(0, 8)];
  let found = false;
  for (let i = 8; i < b.length; ) {
    const [size, start] = leb(i + 1);
    const end = start + size;
    const [nameLen, k] = b[i] === 0 ? leb(start) : [0, start];
    if (b[i] === 0 && b.subarray(k, k + nameLen).toString() === 'target_features') {
      let [n, p] = leb(k + nameLen);
      const kept = [];
      for (let f = 0; f < n; f++) {
        const [len, q] = leb(p + 1);
        if (b.subarray(q, q + len).toString() === feature) found = true;
        else kept.push(b.subarray(p, q + len));
        p = q + len;
      }
      const body = Buffer.concat([b.subarray(start, k + nameLen), Buffer.from(enc(kept.length)), ...kept]);
      out.push(Buffer.from([0, ...enc(body.length)]), body);
    } else {
      out.push(b.subarray(i, end));
    }
    i = end;
  }
  writeFileSync(dst, Buffer.concat(out));
  return found;
}
