#!/usr/bin/env node
// chess5d against 5d-chess-js 1.2.1 (a dev dependency) in one run: every call of the API on the
// same positions, the time per call of each and the ratio (their time / ours: above 1, ours is
// faster), after the weight and start-up table (bench/startup.mjs: script size, gzip size, require
// and first new Chess() times). Usage: npm run bench [-- --ms 200] [-- --only board] [-- --only startup] [-- --runs 15]
//
// Positions: the opening, a 4-timeline middlegame (oracle s1001-standard-g0-a13), a game of 28
// timelines (bench/data/28-timelines.json, made by bench/make-fixture.mjs) and a checkmate with 8
// timelines (5dchess-tools' standard-checkmate). Each call is repeated on one object, in batches,
// for about --ms milliseconds (at least 3 times) and the mean taken; calls whose answer a library caches
// (inCheckmate, inStalemate) get a fresh object per run, made outside the timing. "after a
// change" rows play and take back a move first, so that no cached answer is reused.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startup } from './startup.mjs';

const require = createRequire(import.meta.url);
const Chess = require('..');
const Theirs = require('5d-chess-js');
const root = new URL('../../', import.meta.url);
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const BUDGET_MS = Number(arg('--ms', 150));
const ONLY = arg('--only', null);

const oracle = readFileSync(new URL('crates/rules/tests/data/oracle/public.jsonl', root), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const middlegame = oracle.find((r) => r.id === 's1001-standard-g0-a13').notation;
const mateRecord = readFileSync(new URL('crates/notation/tests/data/corpus/tools-v2/standard-checkmate.alexbay', root), 'utf8');
const manyTimelines = JSON.parse(readFileSync(new URL('data/28-timelines.json', import.meta.url), 'utf8'));

/** Each position as Action objects, which both libraries replay. */
const positions = [
  { name: 'opening', actions: [] },
  { name: '4 timelines', actions: new Chess(middlegame).actionHistory },
  { name: '28 timelines', actions: manyTimelines },
  { name: 'mate, 8 timelines', actions: new Chess(mateRecord).actionHistory },
];

function make(Lib, actions) {
  const c = new Lib();
  c.enableConsole = false;
  for (const a of actions) c.action(a);
  return c;
}

/**
 * Mean ms per call of `f(obj)`, `obj` from `setup()`. Calls on one object are timed in batches
 * (a clock read per call would weigh more than a call of a microsecond); with `fresh`, each
 * call gets a new object made outside the timing, and is timed alone.
 */
function time(setup, f, fresh) {
  let obj = setup();
  f(obj); // warm up
  if (fresh) {
    let n = 0;
    let total = 0;
    const start = performance.now();
    while (n < 3 || (performance.now() - start < BUDGET_MS && n < 100000)) {
      obj = setup();
      const t = performance.now();
      f(obj);
      total += performance.now() - t;
      n++;
    }
    return total / n;
  }
  let batch = 1;
  let n = 0;
  let total = 0;
  while (n < 3 || total < BUDGET_MS) {
    const t = performance.now();
    for (let i = 0; i < batch; i++) f(obj);
    total += performance.now() - t;
    n += batch;
    if (total < BUDGET_MS / 20) batch *= 2;
  }
  return total / n;
}

function attempt(f) {
  try {
    return { ms: f() };
  } catch (e) {
    return { error: String(e.message).split('\n')[0] };
  }
}

/** A move of the side to move that both libraries accept, for the "after a change" rows. */
function someMove(c) {
  const list = c.moves('object');
  return list.length ? list[0] : null;
}

const calls = [
  ['board', (c) => c.board],
  ['boardHistory', (c) => c.boardHistory],
  ['actionHistory', (c) => c.actionHistory],
  ['moveBuffer', (c) => c.moveBuffer],
  ['player', (c) => c.player],
  ['actionNumber', (c) => c.actionNumber],
  ['inCheck', (c) => c.inCheck],
  ['inCheckmate (fresh object)', (c) => c.inCheckmate, true],
  ['inStalemate (fresh object)', (c) => c.inStalemate, true],
  ['hash', (c) => c.hash],
  ['variants', (c) => c.variants],
  ["moves('object')", (c) => c.moves('object')],
  ["moves('notation')", (c) => c.moves('notation')],
  ["moves('5dpgn_superphysical')", (c) => c.moves('5dpgn_superphysical')],
  ["moves('object', false, false)", (c) => c.moves('object', false, false)],
  ["moves('object', true, true, true)", (c) => c.moves('object', true, true, true)],
  ["checks('object')", (c) => c.checks('object')],
  ["checks('notation')", (c) => c.checks('notation')],
  ["export('5dpgn')", (c) => c.export('5dpgn')],
  ["export('object')", (c) => c.export('object')],
  ["export('json')", (c) => c.export('json')],
  ['fen()', (c) => c.fen()],
  ['copy()', (c) => c.copy()],
  ['state()', (c) => c.state()],
  ['print()', (c) => c.print()],
  ['submittable()', (c) => c.submittable()],
  ['undoable()', (c) => c.undoable()],
  ['passable()', (c) => c.passable()],
  ['importable(record)', (c) => c.importable(c._record)],
  ['import(record)', (c) => c.import(c._record)],
  ['moveable(m)', (c) => c.moveable(c._move)],
  ['move(m) + undo()', (c) => { c.move(c._move); c.undo(); }],
  ['after a change: board', (c) => { c.move(c._move); c.undo(); return c.board; }],
  ['after a change: moves()', (c) => { c.move(c._move); c.undo(); return c.moves(); }],
  ['after a change: hash', (c) => { c.move(c._move); c.undo(); return c.hash; }],
];

if (!ONLY || 'startup'.includes(ONLY)) {
  console.log(startup(Number(arg('--runs', 15))).join('\n') + '\n');
  if (ONLY) process.exit(0);
}

const rows = [];
let slower = 0;
for (const p of positions) {
  const record = make(Theirs, p.actions).export('5dpgn');
  const prepare = (Lib) => () => {
    const c = make(Lib, p.actions);
    c._record = record;
    c._move = someMove(c);
    return c;
  };
  const oursSetup = prepare(Chess);
  const theirsSetup = prepare(Theirs);
  for (const [name, f, fresh] of calls) {
    if (ONLY && !name.includes(ONLY)) continue;
    if (name.includes('(m)') || name.startsWith('after')) {
      if (!oursSetup()._move) continue; // no move to play (checkmate)
    }
    const ours = attempt(() => time(oursSetup, f, fresh));
    const theirs = attempt(() => time(theirsSetup, f, fresh));
    let ratio = '-';
    if (!ours.error && !theirs.error) {
      const r = theirs.ms / Math.max(ours.ms, 1e-6);
      ratio = r >= 100 ? `${r.toFixed(0)}x` : `${r.toFixed(2)}x`;
      if (r < 1) {
        slower++;
        ratio += '  SLOWER';
      }
    }
    const fmt = (x) => (x.error ? `error: ${x.error.slice(0, 40)}` : `${x.ms < 0.01 ? x.ms.toFixed(4) : x.ms.toFixed(3)} ms`);
    rows.push([p.name, name, fmt(ours), fmt(theirs), ratio]);
  }
}
const head = ['position', 'call', 'chess5d', '5d-chess-js 1.2.1', 'ratio'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
console.log(`chess5d ${Chess.version} vs 5d-chess-js 1.2.1: mean time per call (about ${BUDGET_MS} ms of runs each); ratio = their time / ours\n`);
console.log(line(head));
for (const r of rows) console.log(line(r));
console.log(`\n${slower} call(s) slower than 5d-chess-js`);
