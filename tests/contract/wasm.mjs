// The game service's contract (crates/server/tests/data/contract.json) through the static site's
// door as the page has it: crates/local's WebAssembly build (js/site/pkg, written by
// `npm run build:site` in js/), loaded in Node and driven through its exports, with the same
// requests and the same expectations as the server over HTTP and crates/local natively
// (crates/server/tests/contract/mod.rs). What backend/local.js does with the effects in the
// browser (IndexedDB, watchers) changes no answer; its workers' work is done here by the same
// exports the worker calls (engine_think, make_puzzle), as the native run does.
//
//   node --test tests/contract/wasm.mjs        (PKG=<dir> names another wasm-bindgen output)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = resolve(process.env.PKG ?? join(repo, 'js', 'site', 'pkg'));
const NOW = '2026-01-02 03:04:05';

/** Whether `got` has every field of `want` (objects field by field, recursively; else equal). */
function fits(got, want) {
  if (want !== null && typeof want === 'object' && !Array.isArray(want)) {
    return got !== null && typeof got === 'object' && !Array.isArray(got)
      && Object.entries(want).every(([k, v]) => k in got && fits(got[k], v));
  }
  return JSON.stringify(got) === JSON.stringify(want);
}

/** A refusal with its HTTP status beside it, as the server's answer reads. */
const refused = (r) => ({ status: r.error.status, error: r.error });

/** One typed call through the door (or a step `{engine: id}`: the game once the engine has
 * answered), with the worker's work done as local.js has it done. */
function answer(m, b, step) {
  if (step.engine !== undefined) {
    const v = JSON.parse(b.call(JSON.stringify({ call: 'game', id: step.engine }), NOW));
    return { status: v.status, ok: v.ok };
  }
  const r = JSON.parse(b.call(JSON.stringify(step.call), NOW));
  if (r.error) return refused(r);
  for (const t of r.effects.think) {
    const a = JSON.parse(m.engine_think(t.start, t.actions, t.bot, JSON.stringify(t.budget)));
    b.engine_done(t.game, t.version, a.moves, a.info, undefined, NOW);
  }
  const p = r.effects.prove;
  if (p) {
    const made = m.make_puzzle(p.text, p.from_game, p.mate_in ?? undefined, p.name ?? undefined);
    const v = JSON.parse(made);
    if (v.error) return refused(v);
    return JSON.parse(b.puzzle_made(made));
  }
  return r;
}

test('the static site door (crates/local in wasm, in Node) keeps the contract', async (t) => {
  const js = join(pkg, 'chess5d_local.js');
  if (!existsSync(js)) assert.fail(`no wasm build at ${pkg}: run \`npm run build:site\` in js/ first`);
  const m = await import(pathToFileURL(js).href);
  m.initSync({ module: readFileSync(join(pkg, 'chess5d_local_bg.wasm')) });
  const { steps } = JSON.parse(readFileSync(join(repo, 'crates/server/tests/data/contract.json'), 'utf8'));
  assert.ok(steps.length > 30, `the contract has ${steps.length} steps`);
  // The built-in puzzles as the site ships them (js/site/puzzles.json), as the server has them.
  const b = new m.Backend(readFileSync(join(pkg, '..', 'puzzles.json'), 'utf8'));
  const broken = [];
  steps.forEach((step, i) => {
    const got = answer(m, b, step);
    if (!fits(got, step.expect)) {
      const text = JSON.stringify(got);
      broken.push(`step ${i} ${JSON.stringify(step.call ?? step)}: want ${JSON.stringify(step.expect)}, got ${got.error ? text : text.slice(0, 300)}`);
    }
  });
  t.diagnostic(`${steps.length} steps, ${broken.length} broken`);
  assert.deepEqual(broken, []);
});
