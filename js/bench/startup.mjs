// Weight and start-up of chess5d beside 5d-chess-js 1.2.1, for `npm run bench`: the script's
// size (and gzipped), the time of `require` and of the first `new Chess()` in a fresh Node
// process, each the median of --runs runs (the two libraries alternated, so that the machine's
// load falls on both alike), and the ratios (their figure / ours: above 1, ours is lighter or
// quicker). The engine module (review()) is not loaded by either; its size is reported apart.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);

/** Times `require(file)` and the first `new Chess()` in a new process: [requireMs, newMs]. */
function once(file) {
  const script = `const { performance } = require('node:perf_hooks');
const t0 = performance.now();
const Chess = require(${JSON.stringify(file)});
const t1 = performance.now();
const c = new Chess();
const t2 = performance.now();
if (!c.board) throw new Error('no board');
process.stdout.write(JSON.stringify([t1 - t0, t2 - t1]));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The start-up table as lines of text. */
export function startup(runs = 15) {
  const ours = require.resolve('..');
  const theirs = require.resolve('5d-chess-js');
  const engine = require.resolve('../dist/chess5d-engine.js');
  const sizes = (f) => {
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
  const kb = (n) => `${(n / 1000).toFixed(0)} kB`;
  const ms = (n) => `${n.toFixed(1)} ms`;
  const ratio = (t, o) => `${(t / o).toFixed(2)}x${t / o < 1 ? '  SLOWER/HEAVIER' : ''}`;
  const [os, og] = sizes(ours);
  const [ts, tg] = sizes(theirs);
  const [es, eg] = sizes(engine);
  const med = (who, k) => median(times[who].map((x) => x[k]));
  const rows = [
    ['script size', kb(os), kb(ts), ratio(ts, os)],
    ['script size, gzip -9', kb(og), kb(tg), ratio(tg, og)],
    [`require() (median of ${runs})`, ms(med('ours', 0)), ms(med('theirs', 0)), ratio(med('theirs', 0), med('ours', 0))],
    [`first new Chess() (median of ${runs})`, ms(med('ours', 1)), ms(med('theirs', 1)), ratio(med('theirs', 1), med('ours', 1))],
    ['engine module (review(), loaded on first use)', `${kb(es)} (gzip ${kb(eg)})`, '-', '-'],
  ];
  const head = ['start-up', 'chess5d', '5d-chess-js 1.2.1', 'ratio'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [`Weight and start-up, each in a fresh node process (ratio = theirs / ours)`, '', line(head), ...rows.map(line)];
}
