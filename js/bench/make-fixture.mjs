#!/usr/bin/env node
// Writes bench/data/28-timelines.json, the bench's "many timelines" game: a seeded random game of
// Standard, each action one of our legal actions (those that make timelines first) that
// 5d-chess-js also plays, until 28 timelines.
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
  // Up to 40 legal actions of ours (our actions() with a limit), those that make timelines
  // first; the first that 5d-chess-js also plays (one call: it is slow with many timelines).
  const legal = ours.actions('object', true, true, false, 40);
  if (legal.length === 0) throw new Error('the game ended: try another seed (node bench/make-fixture.mjs SEED)');
  const grows = (a) => a.moves.some((m) => m.realEnd.timeline !== m.start.timeline && m.end.turn <= m.start.turn);
  const order = [...legal].sort(() => rand(3) - 1).sort((x, y) => Number(grows(y)) - Number(grows(x)));
  let played = false;
  for (const a of order) {
    try {
      theirs.action(a.moves);
    } catch (e) {
      while (theirs.undoable()) theirs.undo();
      continue;
    }
    ours.action(a.moves);
    played = true;
    break;
  }
  if (!played) throw new Error(`5d-chess-js refuses every action at ${ours.board.timelines.length} timelines: try another seed`);
  if (ours.hash !== theirs.hash) throw new Error('the libraries disagree on the position');
}
writeFileSync(new URL('data/28-timelines.json', import.meta.url), `${JSON.stringify(theirs.actionHistory)}\n`);
console.log(`${ours.actionHistory.length} actions, ${ours.board.timelines.length} timelines, hash ${ours.hash}`);
