// Fixture generator for the `chessjs_order` test: how 5d-chess-js 1.2.1 orders `moves()`.
//
// Run by hand from the repository root, after `cd js && npm ci` (5d-chess-js 1.2.1 is a
// devDependency of the npm package):
//
//     node crates/notation/tests/data/chessjs-order/gen.mjs
//
// It plays seeded random games with the library (moves always taken from its own list, biased
// toward time travel, captures, promotions and castling) in the 7 built-in variants and on
// custom boards with fairy pieces, and writes `positions.json`: for a sample of positions (at
// the start of an action), the game as the library's `export('5dpgn')`, its full state hash,
// and its `moves('object', activeOnly, presentOnly)` lists in the library's order as tuples
// `[startTimeline, startTurn, startPlayer, startSquare, endTimeline, endTurn, endPlayer,
// endSquare, promotion]` (the library's numbers: in even-timeline games `-0` is -1 and `+0` is 1).
// `present` is (true, true); `active` (true, false) and `all` (false, false) are written only
// when they differ from the list before them ((false, true) is (true, true): presentOnly wins).
//
// The export gets a `Promotions` header (the pieces 1.2.1 offers: every type among C, S, Q, R,
// N, B in the start position), which the export itself leaves out. Positions with more than
// MAX_MOVES moves in their lists are left out (size), and so are those of games our rules
// refuse (DROP, with the reason). The output is the same on every run.

import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '../../../../../js/package.json'));
const Chess = require('5d-chess-js');

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BUILT_IN = ['standard', 'defended_pawn', 'half_reflected', 'princess', 'turn_zero', 'two_timelines', 'reversed_royalty'];

// Custom starts (5DFEN), most from the official variants, with the fairy pieces.
const CUSTOM = {
  excessive: ['7x7', ['[k*r*uqdr*k*/r*nbk*nbr*/p*p*p*p*p*p*p*/7/P*P*P*P*P*P*P*/R*NBK*NBR*/K*R*UQDR*K*:0:1:w]']],
  marauders: ['5x5', ['[w*r*k*r*w*/1w*w*w*1/5/5/5:-1:1:w]', '[w*1w*1w*/5/5/5/W*1W*1W*:0:1:w]', '[5/5/5/1W*W*W*1/W*R*K*R*W*:+1:1:w]']],
  king_of_kings: ['5x5', ['[cck*cc/5/5/5/CCK*CC:0:1:w]']],
  royal_queens: ['6x6', ['[4y1/6/6/6/6/1Y4:0:1:w]']],
  strategos: ['5x5', ['[nbk*ur*/p*p*p*p*p*/5/5/5:-0:1:w]', '[5/5/5/P*P*P*P*P*/R*UK*BN:+0:1:w]']],
  just_dragons: ['5x5', ['[2ddk*/5/5/5/K*DD2:0:1:w]']],
  just_unicorns: ['5x5', ['[1u1uk*/5/5/5/K*U1U1:0:1:w]']],
  just_brawns: ['5x5', ['[w*w*w*w*k*/5/5/5/K*W*W*W*W*:0:1:w]']],
  battlegrounds: ['5x5', ['[r*r*k*r*r*/bbqbb/p*p*p*p*p*/5/P*P*P*P*P*:-1:1:w]', '[nnnnn/p*p*p*p*p*/5/P*P*P*P*P*/NNNNN:0:1:w]', '[p*p*p*p*p*/5/P*P*P*P*P*/BBQBB/R*R*K*R*R*:+1:1:w]']],
  small: ['5x5', ['[k*qbnr*/p*p*p*p*p*/5/P*P*P*P*P*/K*QBNR*:0:1:w]']],
  fairy_mix: ['8x8', ['[r*udsk*cyr*/w*p*w*p*p*w*p*w*/8/8/8/8/W*P*W*P*P*W*P*W*/R*UDSK*CYR*:0:1:w]']],
  // Castling from the start, on several timelines once they branch.
  castling: ['8x8', ['[r*3k*2r*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*3K*2R*:0:1:w]']],
  // Small - Centered: the rook two squares from the king (castling 1.2.1 does not know).
  centered: ['5x5', ['[r*nk*qr*/p*p*p*p*p*/5/P*P*P*P*P*/R*QK*NR*:0:1:w]']],
  // Pawns one step from promotion, both sides, with every piece type they can promote to.
  promotion: ['8x8', ['[r*3k*2r*/PPP5/8/1csqnb2/1CSQNB2/8/ppp5/R*3K*2R*:0:1:w]']],
  fairy_mix_even: ['6x6', ['[r*usk*dr*/p*w*p*p*w*p*/6/6/6/6:-0:1:w]', '[6/6/6/6/P*W*P*P*W*P*/R*DSK*UR*:+0:1:w]']],
};

function start(name) {
  const c = new Chess();
  c.skipDetection = true;
  if (BUILT_IN.includes(name)) {
    c.reset(name);
  } else {
    const [size, fens] = CUSTOM[name];
    c.import(`[Board "custom"]\n[Size "${size}"]\n${fens.join('\n')}\n`);
  }
  return c;
}

const pl = (p) => p.player[0];
const tuple = (m) => [
  m.start.timeline, m.start.turn, pl(m.start), m.start.coordinate,
  m.end.timeline, m.end.turn, pl(m.end), m.end.coordinate,
  m.promotion ?? null,
];

const rare = (m) => m.promotion || m.castling || m.enPassant;
const travel = (m) => m.start.timeline !== m.end.timeline || m.start.turn !== m.end.turn;
// Double steps, to give en passant a chance.
const double = (m) => Math.abs(m.end.rank - m.start.rank) === 2 && m.start.file === m.end.file && travel(m) === false;

// One action: random moves from the library's list until it can submit. False if stuck.
function playAction(c, r) {
  for (let attempt = 0; attempt < 6; attempt++) {
    let tries = 0;
    while (!c.submittable() && tries++ < 12) {
      const ms = c.moves('object', true, true, false);
      if (ms.length === 0) break;
      let pool = ms;
      const x = r();
      for (const [p, test] of [[0.5, rare], [0.6, double], [0.85, travel]]) {
        if (x < p) {
          const some = ms.filter(test);
          if (some.length) {
            pool = some;
            break;
          }
        }
      }
      const m = pool[Math.floor(r() * pool.length)];
      try {
        c.move(m);
      } catch (e) {
        // Not playable after all: try another.
      }
    }
    if (c.submittable()) {
      c.submit();
      return true;
    }
    while (c.undoable()) c.undo();
  }
  return false;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// The pieces the library lets a pawn promote to: every type among these found in the start
// position, in this order (its order in `moves()`).
const PROMOTION_ORDER = ['C', 'S', 'Q', 'R', 'N', 'B'];
function promotions(c) {
  const found = new Set();
  for (const tl of c.board.timelines) for (const turn of tl.turns) for (const p of turn.pieces) found.add(p.piece);
  return PROMOTION_ORDER.filter((p) => found.has(p));
}

// The export says nothing of promotions; our reader needs a `Promotions` header for anything
// but a queen. It goes after the `Board` header.
function withPromotions(pgn, promos) {
  const lines = pgn.split('\n');
  const at = lines.findIndex((l) => l.startsWith('[Board '));
  lines.splice(at + 1, 0, `[Promotions "${promos.join(',')}"]`);
  return lines.join('\n');
}

function record(c, name, seed, game, promos) {
  const present = c.moves('object', true, true, false).map(tuple);
  const active = c.moves('object', true, false, false).map(tuple);
  const all = c.moves('object', false, false, false).map(tuple);
  const rec = {
    id: `${name}-s${seed}-g${game}-a${c.actionHistory.length}`,
    pgn: withPromotions(c.export('5dpgn'), promos),
    hash: c.hash,
    present,
  };
  if (!same(active, present)) rec.active = active;
  if (!same(all, active)) rec.all = all;
  return rec;
}

// Positions with longer lists are left out, to keep the file small.
const MAX_MOVES = 450;
const size = (rec) => rec.present.length + (rec.active?.length ?? 0) + (rec.all?.length ?? 0);

// Games our rules refuse from some action on: their positions from that action on are dropped.
const DROP = {
  // Action 5 leaves White's king on a1 to a black brawn on b2: 1.2.1 gives a pawn or brawn no
  // move onto its last rank when no piece can be promoted to (none here), so no check either.
  'just_brawns-s20261178': 5,
};
const dropped = (rec) => {
  const [, game, action] = rec.id.match(/^(.*)-g\d+-a(\d+)$/);
  return game in DROP && Number(action) >= DROP[game];
};

const SEED = 20261126;
const out = [];
const games = [...BUILT_IN.map((v) => [v, 4]), ...Object.keys(CUSTOM).map((v) => [v, 3])];
let seed = SEED;
for (const [name, count] of games) {
  for (let g = 0; g < count; g++) {
    seed++;
    const r = rng(seed);
    const c = start(name);
    const promos = promotions(c);
    const length = 8 + Math.floor(r() * 18);
    for (let a = 0; a < length; a++) {
      if (c.board.timelines.length > 7) break;
      if (a === 0 || r() < 0.15) {
        const rec = record(c, name, seed, g, promos);
        if (size(rec) <= MAX_MOVES && !dropped(rec)) out.push(rec);
      }
      if (!playAction(c, r)) break;
    }
    const rec = record(c, name, seed, g, promos);
    const again = out.length && out[out.length - 1].id === rec.id;
    if (size(rec) <= MAX_MOVES && !dropped(rec) && !again) out.push(rec);
  }
}

// En passant, scripted: White's, Black's, a brawn's.
for (const [name, moves] of [
  ['standard', '1. e4 / a6\n2. e5 / d5\n'],
  ['standard', '1. a3 / d5\n2. Nc3 / d4\n3. e4\n'],
  ['standard', '1. e4 / Nf6\n2. e5 / d5\n'],
  ['two_timelines', '1. (-0T1)e4 (+0T1)e4 / (-0T1)a6 (+0T1)a6\n2. (-0T2)e5 (+0T2)e5 / (-0T2)d5 (+0T2)f5\n'],
]) {
  const c = start(name);
  const promos = promotions(c);
  c.import(c.export('5dpgn').split('\n').filter((l) => l.startsWith('[')).join('\n') + '\n\n' + moves);
  out.push(record(c, `${name}-ep`, 0, out.length, promos));
}

const text = '[\n' + out.map((r) => JSON.stringify(r)).join(',\n') + '\n]\n';
writeFileSync(join(here, 'positions.json'), text);
const moves = out.reduce((n, r) => n + size(r), 0);
console.log(`${out.length} positions, ${moves} moves, ${text.length} bytes`);
