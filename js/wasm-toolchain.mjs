// The WebAssembly build shared by build.mjs (the npm package, crates/wasm) and build-site.mjs
// (the static site, crates/local): compiles a crate for wasm32 with the rustup target when
// `rustup target list --installed` shows it, else with Debian's toolchain (rustc-web,
// rust-web-src, lld-22, -Zbuild-std), and finds wasm-bindgen at the version the crate pins.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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
