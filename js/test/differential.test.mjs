// Differential test: random games played at once on 5d-chess-js 1.2.1 (the API we promise)
// and on this package, comparing every documented field and function at every step (see
// test/diff/). Fails on any difference that test/diff/known.mjs does not accept.
// Scale with DIFF_GAMES (default 200), DIFF_SEED (default 1), DIFF_VARIANT, DIFF_TIMEOUT
// (their checkmateTimeout in ms, default 300), DIFF_ACTIONS (actions per game, default 5),
// DIFF_FULL (share of steps with the full battery, default 0.25).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runGames, formatReport } from './diff/report.mjs';

const env = process.env;
const opts = {
  games: Number(env.DIFF_GAMES || 200),
  seed: Number(env.DIFF_SEED || 1),
  variant: env.DIFF_VARIANT || undefined,
  timeout: Number(env.DIFF_TIMEOUT || 300),
  maxActions: Number(env.DIFF_ACTIONS || 5),
  maxSteps: Number(env.DIFF_STEPS || 20),
  fullRate: Number(env.DIFF_FULL || 0.25),
};

test(`differential: ${opts.games} random games against 5d-chess-js 1.2.1 (seed ${opts.seed})`, () => {
  const result = runGames(opts);
  const unknown = [...result.classes.values()].filter((c) => !c.known);
  if (unknown.length) {
    assert.fail(`${unknown.length} kinds of difference not in test/diff/known.mjs:\n${formatReport(result, { maxClasses: 80 })}`);
  }
  assert.ok(result.stats.games === opts.games);
});
