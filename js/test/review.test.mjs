// The chess5d extension review() (issue 33): the computer review of a game through the built
// package, with the JSON of `chess5d review --json`, its options checked and a progress
// callback that can stop it. 5d-chess-js has no such method: nothing of its API changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const Chess = require('..');

// Scholar's mate: 3... Nf6?? allows 4. Qxf7#.
const SCHOLAR = '1. e4 / e5\n2. Bc4 / Nc6\n3. Qh5 / Nf6\n4. Qxf7#';

test('review() finds the blunder, the best action instead, and each side\'s accuracy', () => {
  const chess = new Chess(SCHOLAR);
  const calls = [];
  const r = chess.review({ depth: 3, progress: (searched, positions) => { calls.push([searched, positions]); } });
  assert.equal(r.total, 7);
  assert.equal(r.reviewed, 7);
  assert.equal(r.cancelled, false);
  assert.equal(r.actions.length, 7);
  const nf6 = r.actions[5];
  assert.equal(nf6.played, 'Nf6');
  assert.equal(nf6.player, 'black');
  assert.equal(nf6.class, 'blunder');
  assert.equal(typeof nf6.best, 'string');
  assert.notEqual(nf6.best, 'Nf6');
  assert.deepEqual(nf6.after, { mate: 1 });
  assert.deepEqual(r.actions[6].after, { checkmate: 'white' });
  assert.equal(r.black.blunders, 1);
  assert.equal(r.white.blunders, 0);
  assert.ok(r.white.accuracy > r.black.accuracy, JSON.stringify([r.white, r.black]));
  assert.deepEqual(calls.at(-1), [8, 8]);
  assert.equal(calls.length, 8);
  // The game itself is untouched.
  assert.equal(chess.actionHistory.length, 7);
  assert.equal(chess.inCheckmate, true);
});

test('returning false from progress stops the review; bad options throw bad_argument', () => {
  const chess = new Chess(SCHOLAR);
  const r = chess.review({ depth: 2, progress: (searched) => searched < 3 });
  assert.equal(r.cancelled, true);
  assert.equal(r.actions.length, 2);
  for (const bad of [{ depth: 0 }, { depth: 2.5 }, { nodes: -1 }, { movetime: '1s' }, { progress: 3 }, { colour: 'white' }, 'deep']) {
    assert.throws(() => chess.review(bad), (e) => e.code === 'bad_argument' && /^review: /.test(e.message), JSON.stringify(bad));
  }
  // A game without actions: an empty review.
  const empty = new Chess().review({ depth: 1 });
  assert.deepEqual([empty.total, empty.actions.length], [0, 0]);
});
