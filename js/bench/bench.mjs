#!/usr/bin/env node
// chess5d against 5d-chess-js (1.2.1, a dev dependency) in one run, on the same positions:
// `inCheckmate` and `actions()`, each on a fresh object (5d-chess-js caches its verdicts), the
// median of several runs, and the ratio. Usage: npm run bench [-- --runs N]
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const Chess = require('..');
const Theirs = require('5d-chess-js');
const root = new URL('../../', import.meta.url);
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;

const oracle = readFileSync(new URL('crates/rules/tests/data/oracle/public.jsonl', root), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const middlegame = oracle.find((r) => r.id === 's1001-standard-g0-a13');
const mateRecord = readFileSync(new URL('crates/notation/tests/data/corpus/tools-v2/standard-checkmate.alexbay', root), 'utf8');

const positions = [
  { name: 'opening (Standard start)', text: '' },
  { name: '4-timeline middlegame (oracle s1001-standard-g0-a13)', text: middlegame.notation },
  // Written as 5DPGN by us, which 5d-chess-js reads.
  { name: 'checkmate, 8 timelines (5dchess-tools standard-checkmate)', text: new Chess(mateRecord).export() },
];

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Median time (ms) of `f(fresh())` over RUNS runs; the object is made outside the timing. */
function time(fresh, f) {
  const ts = [];
  let result;
  for (let i = 0; i < RUNS; i++) {
    const obj = fresh();
    const t = performance.now();
    result = f(obj);
    ts.push(performance.now() - t);
  }
  return { ms: median(ts), result };
}

function theirsFor(text) {
  const c = new Theirs();
  c.enableConsole = false;
  if (text) c.import(text);
  return c;
}

function attempt(f) {
  try {
    return f();
  } catch (e) {
    return { error: e.message.split('\n')[0] };
  }
}

const fmt = (x) => (x.error ? `error (${x.error.slice(0, 50)})` : `${x.ms.toFixed(2)} ms`);
const rows = [];
for (const p of positions) {
  // 5d-chess-js 1.2.1's actions() throws in its object and JSON formats (an undeclared variable)
  // and lists moves, not actions, in its notation formats. What its object format would do is
  // timed instead: actions('raw') (its candidates, not all legal), then each one checked with
  // actionable(), as that format does before converting.
  for (const [what, f, g] of [
    ['inCheckmate', (c) => c.inCheckmate, (c) => c.inCheckmate],
    ['actions()', (c) => c.actions().length, (c) => c.actions('raw').filter((a) => c.actionable(a)).length],
  ]) {
    const ours = time(() => new Chess(p.text), f);
    const theirs = attempt(() => time(() => theirsFor(p.text), g));
    const ratio = theirs.error ? '-' : `${(theirs.ms / Math.max(ours.ms, 1e-3)).toFixed(1)}x`;
    rows.push([p.name, what, fmt(ours), String(ours.result), fmt(theirs), theirs.error ? '-' : String(theirs.result), ratio]);
  }
}
const head = ['position', 'call', 'chess5d', 'answer', '5d-chess-js', 'answer', 'ratio'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
console.log(`chess5d ${Chess.version} vs 5d-chess-js 1.2.1, median of ${RUNS} runs each (ratio = their time / ours)\n`);
console.log(line(head));
for (const r of rows) console.log(line(r));
