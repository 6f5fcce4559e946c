// Every field and function of the seed README (5d-chess-js's API), its examples as written,
// the formats, error messages and round trips, through the built package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const Chess = require('..');

const SEED_MATE = ['1w. 1:e2:e3', '1b. 1:f7:f6', '2w. 2:Qd1:e2', '2b. 2:Nb8:c6', '3w. 3:Qe2:h5'];
const TWO_TIMELINES =
  '1w. 1:e2:e3\n1b. 1:f7:f6\n2w. 2:Nb1<>1:b3\n2b. 1+1:a7:a6\n3w. 2+1:c2:c3\n3b. 2:Nb8:c6\n3b. 2+1:Nb8:c6\n4w. 3:Qd1:h5\n4w. 3+1:Qd1:c2#';

function quiet(chess) {
  chess.enableConsole = false;
  return chess;
}

test('the seed README\'s three-action mate, as written, is checkmate', () => {
  const chess = quiet(new Chess());
  for (const m of SEED_MATE) {
    chess.move(m);
    chess.submit();
  }
  assert.match(chess.print(), /^Current Player: Black\nAction Number: 4\n/, 'drawn as 5d-chess-js draws it');
  assert.equal(chess.inCheckmate, true);
  assert.equal(chess.inCheck, true);
  assert.equal(chess.inStalemate, false);
  assert.equal(chess.player, 'black');
});

test('the seed README\'s two-timeline example imports and prints both timelines', () => {
  const chess = quiet(new Chess(TWO_TIMELINES));
  const text = chess.print();
  assert.match(text, /╔0,0═/, 'timeline 0 (raw index 0)');
  assert.match(text, /╔2,1═/, 'timeline 1 (raw index 2), from its first board');
  assert.equal(chess.board.timelines.length, 2);
  // Its final `#` claims mate; Black can block both checks (5d-chess-js 1.2.1 agrees: false).
  assert.equal(chess.inCheckmate, false);
  assert.equal(chess.actionHistory.length, 7);
});

test('fields: board, actionNumber, boardHistory, actionHistory, moveBuffer, player, hash, variants', () => {
  const chess = new Chess();
  assert.equal(chess.actionNumber, 1);
  assert.equal(chess.player, 'white');
  const b = chess.board;
  assert.deepEqual([b.action, b.player, b.width, b.height, b.timelines.length], [1, 'white', 8, 8, 1]);
  const tl = b.timelines[0];
  assert.deepEqual([tl.timeline, tl.player, tl.active, tl.present], [0, 'white', true, true]);
  const turn = tl.turns[0];
  assert.deepEqual([turn.turn, turn.player, turn.width, turn.height, turn.pieces.length], [1, 'white', 8, 8, 32]);
  const pawn = turn.pieces.find((p) => p.position.coordinate === 'e2');
  assert.deepEqual(pawn, {
    position: { timeline: 0, turn: 1, player: 'white', coordinate: 'e2', rank: 2, file: 5 },
    piece: '',
    player: 'white',
    hasMoved: false,
  });
  chess.move('e4');
  assert.equal(chess.moveBuffer.length, 1);
  const m = chess.moveBuffer[0];
  assert.deepEqual([m.start.coordinate, m.end.coordinate, m.player, m.promotion, m.enPassant, m.castling], ['e2', 'e4', 'white', null, null, null]);
  assert.equal(chess.boardHistory.length, 1, 'the start only: the move under way is not in the history (as 5d-chess-js)');
  chess.submit();
  assert.equal(chess.moveBuffer.length, 0);
  assert.equal(chess.actionHistory.length, 1);
  assert.deepEqual(Object.keys(chess.actionHistory[0]), ['action', 'player', 'moves']);
  assert.equal(chess.player, 'black');
  assert.equal(chess.actionNumber, 1);
  chess.move('e5');
  chess.submit();
  assert.equal(chess.actionNumber, 2);
  assert.equal(chess.boardHistory.length, 3);
  const moved = chess.board.timelines[0].turns.at(-1).pieces.find((p) => p.position.coordinate === 'e4');
  assert.equal(moved.hasMoved, true);
  assert.match(chess.hash, /^[0-9a-f]{32}$/);
  assert.notEqual(chess.hash, new Chess().hash);
  // The same hash as 5d-chess-js gives this position.
  const mate = new Chess();
  for (const x of SEED_MATE) mate.action(x);
  assert.equal(mate.hash, 'f2842c74db711815acfaf6d6b1bb956c');
  const names = chess.variants.map((v) => v.shortName);
  for (const n of ['standard', 'defended_pawn', 'half_reflected', 'princess', 'turn_zero', 'two_timelines', 'reversed_royalty', 'custom']) {
    assert.ok(names.includes(n), n);
  }
  assert.equal(chess.variants.length, 8, '5d-chess-js 1.2\'s seven and Custom');
  assert.ok(Chess.allVariants.length >= 40, 'every chess5d variant');
  assert.equal(typeof chess.checkmateTimeout, 'number');
  chess.checkmateTimeout = 10;
  assert.equal(chess.checkmateTimeout, 10, 'writable, as in 5d-chess-js');
});

test('moves and actions in every format', () => {
  const chess = new Chess();
  const objects = chess.moves();
  assert.equal(objects.length, 20);
  assert.equal(chess.moves('json'), JSON.stringify(objects));
  const notation = chess.moves('notation');
  assert.equal(typeof notation, 'string');
  assert.deepEqual(notation.split('\n').sort(), chess.moves('notation_short').split('\n').sort());
  assert.ok(notation.split('\n').includes('e4') && notation.split('\n').includes('Nf3'));
  assert.ok(notation.endsWith('\n'), 'each line ends with a newline, as in 5d-chess-js');
  const actions = chess.actions();
  assert.equal(actions.length, 20);
  assert.deepEqual(Object.keys(actions[0]), ['action', 'player', 'moves']);
  assert.equal(chess.actions('json'), JSON.stringify(actions));
  assert.equal(chess.actions('notation').trimEnd().split('\n').length, 20);
  // Two timelines: an action is a move on each.
  const two = new Chess(null, 'two_timelines');
  assert.equal(two.actions()[0].moves.length, 2);
  // 20 moves on each board, and jumps between the two boards of the same turn.
  assert.ok(two.actions().length > 400, `${two.actions().length}`);
  assert.equal(two.actions('notation').trimEnd().split('\n').length, two.actions().length);
  // Active, present and new-timeline filters narrow the list, never widen it.
  const branching = new Chess('1. e4 / e5\n2. Nf3 / Nc6');
  const all = branching.actions('object', false, false, false).length;
  assert.ok(branching.actions().length <= all);
  assert.ok(branching.moves('object', false, false).length >= branching.moves().length);
  // In checkmate, no moves (with detection) and no actions.
  const mate = new Chess();
  for (const m of SEED_MATE) mate.action(m);
  assert.deepEqual(mate.moves(), []);
  mate.skipDetection = true;
  assert.ok(mate.moves().length > 0, 'skipDetection lists the pseudo-legal moves');
  mate.skipDetection = false;
  assert.deepEqual(mate.actions(), []);
  // As 5d-chess-js 1.2: an unknown format gives objects, a flag is read for its truth.
  assert.deepEqual(chess.moves('pgn'), objects);
  assert.equal(chess.actions('object', 'yes').length, 20);
});

test('checks lists every capture of the king after a pass', () => {
  const mate = new Chess();
  for (const m of SEED_MATE) mate.action(m);
  const checks = mate.checks();
  // The queen takes the king on the board in the present, and through time.
  assert.ok(checks.length >= 2, JSON.stringify(checks));
  assert.ok(checks.every((c) => c.player === 'white' && c.start.coordinate === 'h5' && c.end.coordinate === 'e8'));
  assert.ok(checks.some((c) => c.end.turn === 4) && checks.some((c) => c.end.turn === 1));
  // Written as moves() writes them (5d-chess-js 1.2.1 writes 'Qxe8false': its bug, see the README).
  assert.equal(mate.checks('notation'), 'Qxe8\n(0T4)Qh5>>x(0T1)e8~\n');
  assert.deepEqual(new Chess().checks(), []);
});

test('move, undo, submit, action, pass and their ...able twins', () => {
  const chess = new Chess();
  assert.equal(chess.moveable('e4'), true);
  assert.equal(chess.moveable('e5'), false);
  assert.equal(chess.moveable({ not: 'a move' }), false);
  assert.equal(chess.submittable(), false);
  assert.equal(chess.undoable(), false);
  chess.move('e4');
  assert.equal(chess.undoable(), true);
  assert.equal(chess.submittable(), true);
  chess.undo();
  assert.equal(chess.moveBuffer.length, 0);
  assert.throws(() => chess.undo(), /undo: nothing to undo/);
  // A Move object, as JSON or as an object.
  const m = chess.moves()[0];
  assert.equal(chess.moveable(m), true);
  chess.move(JSON.stringify(m));
  chess.submit();
  assert.equal(chess.player, 'black');
  assert.equal(chess.actionable('e5'), true);
  assert.equal(chess.actionable('e4 e5'), false);
  chess.action('e5');
  assert.equal(chess.player, 'white');
  // A failed action leaves nothing behind.
  assert.throws(() => chess.action('Qh9'), /action: /);
  assert.equal(chess.moveBuffer.length, 0);
  assert.equal(chess.player, 'white');
  // An Action object.
  const before = chess.actionHistory.length;
  chess.action(chess.actions()[0]);
  assert.equal(chess.actionHistory.length, before + 1);
  // Pass: the boards left are copied to the next half-turn (as 5d-chess-js 1.2 does).
  assert.equal(chess.passable(), true);
  const player = chess.player;
  chess.pass();
  assert.notEqual(chess.player, player);
});

test('errors say what and where', () => {
  const chess = new Chess();
  assert.throws(() => chess.move('Qh9'), (e) => e instanceof Error && /^move: cannot read the move 'Qh9'/.test(e.message) && e.code === 'unreadable');
  assert.throws(() => chess.move('e5'), (e) => /^move: illegal move 'e5'/.test(e.message) && e.code === 'illegal_move' && !/move: move:/.test(e.message));
  assert.throws(() => chess.submit(), (e) => /^submit: cannot submit/.test(e.message) && e.code === 'cannot_submit');
  chess.move('e4');
  assert.throws(() => chess.move('e5'), /submit it first/);
  assert.throws(() => new Chess(null, 'no_such_variant'), (e) => /new Chess: unknown variant 'no_such_variant'/.test(e.message) && e.code === 'unknown_variant');
  assert.throws(() => new Chess('1. e4 / e5\n2. Qh9'), /import: cannot read the record: line 2, column 4: .*'Qh9'/);
  assert.equal(chess.export('pdf'), '[Board "Standard"]\n[Mode "5D"]\n', 'as 5d-chess-js 1.2.1: an unknown format gives the headers');
  assert.deepEqual(chess.moves('pdf'), chess.moves('object'), 'as 5d-chess-js 1.2.1: an unknown format gives objects');
  assert.throws(() => chess.move(42), /move: expected a string or an object/);
  assert.equal(chess.importable('1. e4 / e5\n2. Qh9'), false);
  assert.equal(chess.importable('1. e4 / e5'), true);
});

test('export and import round trips in every format', () => {
  const chess = new Chess(TWO_TIMELINES);
  const pgn = chess.export();
  assert.match(pgn, /^\[Board "Standard"\]/);
  assert.match(pgn, /\[Mode "5D"\]/);
  assert.equal(chess.export('5dpgn'), pgn);
  for (const format of ['5dpgn', 'notation', 'notation_short', 'json', 'object', 'long', 'canonical', '5dpgn_inline_timeline_superphysical']) {
    const again = new Chess();
    again.import(chess.export(format));
    assert.equal(again.hash, chess.hash, format);
    assert.equal(again.actionHistory.length, chess.actionHistory.length, format);
  }
  // The seed README's action list (Action objects) and its JSON.
  const fromObjects = new Chess(chess.actionHistory);
  assert.equal(fromObjects.hash, chess.hash);
  // 5DPGN move text alone, and the long form.
  const scholar = new Chess('1. e4 / e5\n2. Qh5 / Nc6\n3. Bc4 / Nf6\n4. Qxf7#');
  assert.equal(scholar.inCheckmate, true);
  assert.match(scholar.export(), /4\. Qxf7$/, 'as 5d-chess-js writes it: no check marks');
  assert.match(scholar.export('canonical'), /4\. Qxf7#/);
  const jump = new Chess('[Board "Standard"]\n\n1. e4 / e5\n2. Nf3 / (0T2)Nb8>>(0T1)b6~\n');
  assert.equal(jump.board.timelines.length, 2);
  // Other variants by name, and a custom board.
  const princess = new Chess(null, 'princess');
  assert.ok(princess.board.timelines[0].turns[0].pieces.some((p) => p.piece === 'S'), 'the princess is S, as in 5d-chess-js');
  const custom = new Chess(null, '[Board "custom"]\n[Size "5x5"]\n[4k/5/5/5/K1R2:0:1:w]');
  assert.equal(custom.board.width, 5);
  custom.move('Rc5');
  custom.submit();
  assert.equal(custom.inCheckmate, false);
  const fromBoard = new Chess(null, custom.board);
  assert.equal(fromBoard.board.timelines[0].turns[0].pieces.length, 3);
  // reset goes back to the start of the game's variant, or another one.
  chess.reset();
  assert.equal(chess.actionHistory.length, 0);
  chess.reset('turn_zero');
  assert.equal(chess.boardHistory[0].timelines[0].turns.length, 2, 'Turn Zero starts with two boards');
});

test('copy is independent; fen and fenable', () => {
  const chess = new Chess('1. e4 / e5');
  const copy = chess.copy();
  copy.action('Nf3');
  assert.equal(chess.actionHistory.length, 2);
  assert.equal(copy.actionHistory.length, 3);
  assert.ok(copy instanceof Chess);
  assert.equal(chess.fen(), '[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:0:1:w]\n');
  const full = chess.fen(null, true).trim().split('\n');
  assert.equal(full.length, 3);
  assert.equal(chess.fenable('[4k/5/5/5/K1R2:0:1:w]'), false, 'a 5x5 board does not fit this 8x8 game (as 5d-chess-js)');
  assert.equal(chess.fenable('[4k3/8/8/8/8/8/8/K1R5:0:1:w]'), true);
  assert.equal(chess.fenable('[4k/5/5:0:1:w'), false);
  assert.equal(chess.fenable(undefined), false);
});

test('impossible positions are refused: import, a custom variant, fenable', () => {
  const capturable = '[Board "custom"]\n[Size "8x8"]\n[k7/8/8/8/8/8/8/R3K3:0:1:w]';
  assert.throws(() => new Chess(capturable), /the black king on \(0T1\)a8 can be captured by the side to move: \(0T1\)a1/);
  assert.throws(() => new Chess(null, capturable), /can be captured by the side to move/);
  assert.throws(() => new Chess(null, '[Board "custom"]\n[Size "8x8"]\n[P3k3/8/8/8/8/8/8/4K3:0:1:w]'), /white pawn on \(0T1\)a8/);
  assert.equal(new Chess().fenable(capturable), false);
  assert.equal(new Chess().importable(capturable), false);
});
