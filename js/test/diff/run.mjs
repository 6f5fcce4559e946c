#!/usr/bin/env node
// The differential harness's standalone runner:
//   node test/diff/run.mjs --games N --seed S [--variant V] [--timeout MS] [--actions A] [--steps N] [--full RATE] [--json FILE] [--self]
// plays N random games (seeds S, S+1, ...) on 5d-chess-js 1.2.1 and on chess5d, and prints
// every class of difference with its first example (seed, variant, step, both outputs).
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { runGames, formatReport } from './report.mjs';

const opts = { games: 20, seed: 1, timeout: 500, maxActions: 14, maxSteps: 60, fullRate: 0.35 };
const argv = process.argv.slice(2);
let json = null;
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const v = argv[i + 1];
  if (a === '--games') opts.games = Number(v), i++;
  else if (a === '--seed') opts.seed = Number(v), i++;
  else if (a === '--variant') opts.variant = v, i++;
  else if (a === '--timeout') opts.timeout = Number(v), i++;
  else if (a === '--actions') opts.maxActions = Number(v), i++;
  else if (a === '--steps') opts.maxSteps = Number(v), i++;
  else if (a === '--full') opts.fullRate = Number(v), i++;
  else if (a === '--json') json = v, i++;
  else if (a === '--self') {
    // The harness checked against itself: 5d-chess-js as "ours" (timed-out steps ignored).
    opts.oursPath = createRequire(import.meta.url).resolve('5d-chess-js');
    opts.ignoreTimedOut = true;
  }
  else if (a === '--help' || a === '-h') {
    console.log('node test/diff/run.mjs --games N --seed S [--variant V] [--timeout MS] [--actions A] [--steps N] [--full RATE] [--json FILE] [--self]');
    process.exit(0);
  } else throw new Error(`unknown argument ${a}`);
}
const t0 = Date.now();
const result = runGames({
  ...opts,
  onGame: (i, stats, classes) => {
    if ((i + 1) % 10 === 0) process.stderr.write(`${i + 1}/${opts.games} games, ${classes.size} classes, ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  },
});
console.log(formatReport(result));
if (json) {
  const rows = [...result.classes.values()].map(({ first, games, ...r }) => ({ ...r, games: games.size, first: { seed: first.seed, variant: first.variant, step: first.step, at: first.at, theirs: first.theirs, ours: first.ours, input: first.ctx && first.ctx.input, repro: first.reproText } }));
  writeFileSync(json, JSON.stringify({ stats: result.stats, classes: rows }, null, 1));
}
const unknown = [...result.classes.values()].filter((c) => !c.known).length;
process.exitCode = unknown ? 1 : 0;
