#!/usr/bin/env node
// Writes bench/data/28-timelines.json, the bench's "many timelines" game: a seeded random game of
// Standard, each action played by both libraries (one that 5d-chess-js refuses is replaced), in
// which the side to move branches when it can, until 28 timelines.
// Stored as Action objects, which both libraries replay. Run: node bench/make-fixture.mjs
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
const Chess = require('..');
const Theirs = require('5d-chess-js');
let seed = Number(process.argv[2] || 28);
const rand = (n) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
const ours = new Chess();
const theirs = new Theirs();
theirs.enableConsole = false;
while (ours.board.timelines.length < 28) {
  // An action of ours, then the same in 5d-chess-js (one call: it is slow with many
  // timelines); where it refuses (see the README, its bugs), another action.
  for (let tries = 0; ; tries++) {
    if (tries > 50) throw new Error('stuck: try another seed (node bench/make-fixture.mjs SEED)');
    while (ours.undoable()) ours.undo();
    for (let guard = 0; !ours.submittable() && guard < 60; guard++) {
      const moves = ours.moves('object');
      const branching = moves.filter((m) => m.realEnd.timeline !== m.start.timeline && m.end.turn < m.start.turn);
      const pick = branching.length && rand(3) ? branching : moves;
      if (pick.length === 0) break;
      const m = pick[rand(pick.length)];
      if (ours.moveable(m)) ours.move(m);
    }
    if (!ours.submittable()) continue;
    const action = ours.moveBuffer;
    try {
      theirs.action(action);
    } catch (e) {
      continue;
    }
    ours.submit();
    break;
  }
  if (ours.hash !== theirs.hash) throw new Error('the libraries disagree on the position');
}
writeFileSync(new URL('data/28-timelines.json', import.meta.url), `${JSON.stringify(theirs.actionHistory)}\n`);
console.log(`${ours.actionHistory.length} actions, ${ours.board.timelines.length} timelines, hash ${ours.hash}`);
