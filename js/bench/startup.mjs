// Weight and start-up of chess5d beside 5d-chess-js 1.2.1, for `npm run bench`: the size (and
// gzipped) of what `require` loads, the time of `require`, of the first `new Chess()` and of
// the first answer (require, new Chess(), then .board and .moves(): where the work a game
// needs is done, wherever each library does it) in a fresh Node process, each the median of
// --runs runs (the two libraries alternated, so that the machine's load falls on both alike),
// and the ratios (their figure / ours: above 1, ours is lighter or quicker). chess5d's Node
// entry reads its WebAssembly (chess5d.wasm) on the first use of the rules, not at require;
// the page script (chess5d.js, the module inlined) and the engine module (review(), loaded by
// neither) are reported apart. CHESS5D_OURS=<dist dir> times another build (an older one,
// to compare; files it lacks are shown as '-').
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);

/**
 * Times, in a new process, `require(file)`, the first `new Chess()` and the first answer
 * (from before require to after the first .board and .moves()), and that answer's CPU time (all
 * of the process's threads: V8 compiles WebAssembly and optimises in helper threads):
 * [requireMs, newMs, answerMs, answerCpuMs].
 */
function once(file) {
  const script = `const { performance } = require('node:perf_hooks');
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const c0 = cpu();
const t0 = performance.now();
const Chess = require(${JSON.stringify(file)});
const t1 = performance.now();
const c = new Chess();
const t2 = performance.now();
const board = c.board;
const moves = c.moves();
const t3 = performance.now();
const c3 = cpu();
if (!board || moves.length !== 20) throw new Error('not the standard start');
process.stdout.write(JSON.stringify([t1 - t0, t2 - t1, t3 - t0, c3 - c0]));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The start-up table as lines of text. */
export function startup(runs = 15) {
  const dist = process.env.CHESS5D_OURS ? resolve(process.env.CHESS5D_OURS) : fileURLToPath(new URL('../dist/', import.meta.url));
  const ours = process.env.CHESS5D_OURS ? [join(dist, 'chess5d.cjs'), join(dist, 'chess5d.js')].find(existsSync) : require.resolve('..');
  const theirs = require.resolve('5d-chess-js');
  const engine = join(dist, 'chess5d-engine.js');
  const wasm = join(dist, 'chess5d.wasm');
  const page = join(dist, 'chess5d.js');
  const sizes = (f) => {
    if (!existsSync(f)) return [NaN, NaN];
    const b = readFileSync(f);
    return [b.length, gzipSync(b, { level: 9 }).length];
  };
  const times = { ours: [], theirs: [] };
  once(ours);
  once(theirs); // warm the file cache
  for (let i = 0; i < runs; i++) {
    times.ours.push(once(ours));
    times.theirs.push(once(theirs));
  }
  const kb = (n) => (Number.isNaN(n) ? '-' : `${(n / 1000).toFixed(0)} kB`);
  const ms = (n) => `${n.toFixed(1)} ms`;
  const ratio = (t, o) => `${(t / o).toFixed(2)}x${t / o < 1 ? '  SLOWER/HEAVIER' : ''}`;
  const [os, og] = sizes(ours);
  const [ts, tg] = sizes(theirs);
  const [ws, wg] = sizes(wasm);
  const [ps, pg] = sizes(page);
  const [es, eg] = sizes(engine);
  const med = (who, k) => median(times[who].map((x) => x[k]));
  const timed = (label, k) => [`${label} (median of ${runs})`, ms(med('ours', k)), ms(med('theirs', k)), ratio(med('theirs', k), med('ours', k))];
  const rows = [
    ['script size (what require loads)', kb(os), kb(ts), ratio(ts, os)],
    ['script size, gzip -9', kb(og), kb(tg), ratio(tg, og)],
    ['+ chess5d.wasm, read on first use', `${kb(ws)} (gzip ${kb(wg)})`, '-', '-'],
    ['page script (chess5d.js, wasm inlined)', `${kb(ps)} (gzip ${kb(pg)})`, `${kb(ts)} (gzip ${kb(tg)})`, ratio(ts, ps)],
    timed('require()', 0),
    timed('first new Chess()', 1),
    timed('first answer: require to .board, .moves()', 2),
    timed('first answer, CPU time (all threads)', 3),
    ['engine module (review(), loaded on first use)', `${kb(es)} (gzip ${kb(eg)})`, '-', '-'],
  ];
  const head = ['start-up', 'chess5d', '5d-chess-js 1.2.1', 'ratio'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  const title = `Weight and start-up of ${ours}, each in a fresh node process (ratio = theirs / ours)`;
  return [title, '', line(head), ...rows.map(line)];
}
