// Differential test: random games played at once on 5d-chess-js 1.2.1 (the API we promise)
// and on this package, comparing every documented field and function at every step (see
// test/diff/). Fails on any difference that test/diff/known.mjs does not accept.
// Each run plays new games: DIFF_SEED (default: a fresh random seed, printed with the test's
// name, so that a failure replays with DIFF_SEED=<seed>). The known-differences list describes
// each class by its rule, so any seed passes.
// Scale with DIFF_GAMES (default 200), DIFF_VARIANT, DIFF_TIMEOUT
// (their checkmateTimeout in ms, default 300), DIFF_ACTIONS (actions per game, default 5),
// DIFF_SELFTEST (games of 5d-chess-js against itself, default 3),
// DIFF_FULL (share of steps with the full battery, default 0.25).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { randomInt } from 'node:crypto';
import { runGames, formatReport } from './diff/report.mjs';

const env = process.env;
const opts = {
  games: Number(env.DIFF_GAMES || 200),
  seed: env.DIFF_SEED ? Number(env.DIFF_SEED) : randomInt(1, 2 ** 31 - 200000),
  variant: env.DIFF_VARIANT || undefined,
  timeout: Number(env.DIFF_TIMEOUT || 300),
  maxActions: Number(env.DIFF_ACTIONS || 5),
  maxSteps: Number(env.DIFF_STEPS || 20),
  fullRate: Number(env.DIFF_FULL || 0.25),
};

// The options other than the seed that differ from the defaults (a game replays only with them).
const replayEnv = ['DIFF_VARIANT', 'DIFF_TIMEOUT', 'DIFF_ACTIONS', 'DIFF_STEPS', 'DIFF_FULL']
  .filter((k) => env[k])
  .map((k) => `${k}=${env[k]} `)
  .join('');

if (!Number.isSafeInteger(opts.seed)) throw new Error(`DIFF_SEED must be a whole number, got ${env.DIFF_SEED}`);
console.log(`differential: seed ${opts.seed} (replay with DIFF_SEED=${opts.seed})`);

test(`differential: ${opts.games} random games against 5d-chess-js 1.2.1 (seed ${opts.seed})`, () => {
  const result = runGames(opts);
  const unknown = [...result.classes.values()].filter((c) => !c.known);
  if (unknown.length) {
    // Game i plays seed + i with these options: each first example replays alone in seconds.
    const alone = [...new Set(unknown.map((c) => c.first.seed))].map((s) => `DIFF_SEED=${s} DIFF_GAMES=1 ${replayEnv}node --test test/differential.test.mjs`);
    assert.fail(`${unknown.length} kinds of difference not in test/diff/known.mjs (seed ${opts.seed}: replay with DIFF_SEED=${opts.seed}; each game alone: ${alone.join('; ')}):\n${formatReport(result, { maxClasses: 80 })}`);
  }
  assert.ok(result.stats.games === opts.games);
});

// The instrument itself: 5d-chess-js against itself must show no difference (but at steps where
// one of its two searches hit checkmateTimeout: its verdicts depend on time there).
// DIFF_SELFTEST games, default 3; 0 to skip.
const selfGames = Number(env.DIFF_SELFTEST ?? 3);
test(`differential harness self-test: 5d-chess-js 1.2.1 against itself (${selfGames} games)`, { skip: selfGames === 0 }, () => {
  const oursPath = createRequire(import.meta.url).resolve('5d-chess-js');
  const result = runGames({ ...opts, games: selfGames, seed: opts.seed + 100000, oursPath, ignoreTimedOut: true });
  assert.equal(result.classes.size, 0, formatReport(result, { maxClasses: 20 }));
});
