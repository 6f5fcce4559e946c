// Type-checked by test/types.test.mjs (tsc --strict --noEmit, module commonjs, in a project
// where node_modules/chess5d is this package): the declarations describe the 5d-chess-js 1.2.x
// API. Each line marked @ts-expect-error must be an error (the test also checks that, without
// the markers, each of those lines is one).
import Chess = require('chess5d');
import type { Action, Board, Chess5dError, Format, Move, Piece, Position, State, Timeline, Turn } from 'chess5d';

// Constructor: nothing, a record, a record and a variant, a Board for a custom start.
const chess: Chess = new Chess();
new Chess('1. e3 / f6');
new Chess(null, 'princess');
new Chess(null, 'Standard - Turn Zero');
new Chess([{ moves: [] }], 'standard');
new Chess(undefined, chess.board);
// @ts-expect-error: the record is text or Action objects
new Chess(42);

// Fields: getters (read-only) and the three writable properties.
const board: Board = chess.board;
const action: number = chess.actionNumber;
const boards: Board[] = chess.boardHistory;
const played: Action[] = chess.actionHistory;
const buffer: Move[] = chess.moveBuffer;
const player: 'white' | 'black' = chess.player;
const flags: boolean[] = [chess.inCheck, chess.inCheckmate, chess.inStalemate];
const hash: string = chess.hash;
const variantNames: string[] = chess.variants.map((v) => `${v.name}/${v.shortName}`);
chess.checkmateTimeout = 1000;
chess.skipDetection = true;
chess.enableConsole = false;
// @ts-expect-error: fields are getters
chess.board = board;
// @ts-expect-error: fields are getters
chess.player = 'black';
// @ts-expect-error: checkmateTimeout is a number of milliseconds
chess.checkmateTimeout = '1s';

// Schemas.
const timeline: Timeline = board.timelines[0];
const turn: Turn = timeline.turns[0];
const piece: Piece = turn.pieces[0];
const letter: '' | 'S' | string = piece.piece;
const princess: Piece['piece'] = 'S';
// @ts-expect-error: no such piece letter
const notAPiece: Piece['piece'] = 'Z';
const at: Position = piece.position;
const tl: number = at.timeline + timeline.timeline;
const size: number = board.width * board.height + turn.width * turn.height;
const flagsOfTimeline: boolean = timeline.active && timeline.present;

// moves(format, activeOnly, presentOnly, spatialOnly): objects by default, text otherwise.
const moves: Move[] = chess.moves();
const realEnd: Position = moves[0].realEnd;
const promotion: string | null = moves[0].promotion;
const rook: Position | undefined = moves[0].castling?.realEnd;
const passant: Position | null = moves[0].enPassant;
const movesObj: Move[] = chess.moves('object', true, true, false);
const movesJson: string = chess.moves('json');
const movesNotation: string = chess.moves('notation');
const movesShort: string = chess.moves('notation_short', false, false, true);
const movesPgn: string = chess.moves('5dpgn');
const movesPgnTokens: string = chess.moves('5dpgn_active_superphysical');
const movesPgnAll: string = chess.moves('5dpgn_superphysical_timeline_active');
const someFormat: Format = Math.random() < 0.5 ? 'object' : 'json';
const either: Move[] | string = chess.moves(someFormat);
// @ts-expect-error: moves() takes a format name, not a number
chess.moves(3);
// @ts-expect-error: a text format gives a string, not Move objects
const wrong: Move[] = chess.moves('json');
// @ts-expect-error: no such 5dpgn token
chess.moves('5dpgn_bold');
// @ts-expect-error: inline is a token of export() only
chess.moves('5dpgn_inline');
// @ts-expect-error: a token at most once
chess.moves('5dpgn_active_active');
// @ts-expect-error: activeOnly must be a boolean
chess.moves('object', 'yes');

// actions(format, activeOnly, presentOnly, newActiveTimelinesOnly) and checks(format).
const actions: Action[] = chess.actions();
const actionsText: string = chess.actions('5dpgn_timeline', true, true, false);
const checks: Move[] = chess.checks();
const checksText: string = chess.checks('notation_short');
// @ts-expect-error: checks() has one argument
chess.checks('object', true);

// move / action and their checks, submit, undo, pass.
chess.move('e3');
chess.move(moves[0]);
chess.move(JSON.stringify(moves[0]));
const movable: boolean = chess.moveable('e4');
chess.action('1. e3');
chess.action(actions[0]);
chess.action(actions[0].moves);
chess.action({ moves: [{ ...moves[0], realEnd: undefined }] });
const actionable: boolean = chess.actionable(actions[0].moves);
chess.submit();
const submittable: boolean = chess.submittable();
chess.undo();
const undoable: boolean = chess.undoable();
chess.pass();
const passable: boolean = chess.passable();
// @ts-expect-error: submit() returns nothing
const submitted: boolean = chess.submit();

// import, reset, copy, state, fen, compare.
chess.import('1. e3 / f6', 'standard');
chess.import(played);
const importable: boolean = chess.importable(JSON.stringify(played));
chess.reset();
chess.reset('two_timelines');
const copy: Chess = chess.copy();
const state: State = chess.state();
copy.state(state);
copy.state(JSON.parse(JSON.stringify(state)));
const start: string = chess.fen();
chess.fen('[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:0:1:w]');
const now: string = chess.fen(null, true);
const fenable: boolean = chess.fenable(start);
// @ts-expect-error: fen(text) applies the text and returns nothing
const applied: string = chess.fen(start);
const sameBoard: number = chess.compare(board, copy.board);
const sameBoardJson: number = chess.compare(JSON.stringify(board), board, 'board');
const sameMove: number = chess.compare(moves[0], '(0T1)e3', 'move');
// @ts-expect-error: compare() types are 'board' and 'move'
chess.compare(board, board, 'piece');

// export(format): text by default ('5dpgn'), Action objects for 'object'.
const pgn: string = chess.export();
const history: Action[] = chess.export('object');
const json: string = chess.export('json');
const inline: string = chess.export('5dpgn_inline_timeline');
const long: string = chess.export('long');
// @ts-expect-error: 'object' gives Action objects
const notText: string = chess.export('object');
const printed: string = chess.print();

// Errors: an Error with a code.
try {
  chess.move('zz');
} catch (e) {
  const err = e as Chess5dError;
  const code: string = err.code;
  const message: string = err.message;
  console.log(code, message);
}

// The chess5d extension review(): options, the review's JSON.
const reviewed: Chess.Review = chess.review({ depth: 2, progress: (searched: number, positions: number) => searched < positions });
const firstClass: 'inaccuracy' | 'mistake' | 'blunder' | null = reviewed.actions[0].class;
const whiteAccuracy: number | null = reviewed.white.accuracy;
chess.review();
// @ts-expect-error: options are an object of depth, movetime, nodes, progress
chess.review({ colour: 'white' });
console.log(firstClass, whiteAccuracy);

// The class's statics: itself, the core's version.
const same: typeof Chess = Chess.Chess;
// @ts-expect-error: no `default` property (a default import needs esModuleInterop or an ES module)
Chess.default;
const version: string = Chess.version;

console.log(action, boards, buffer, player, flags, hash, variantNames, letter, princess, notAPiece, tl, size);
console.log(flagsOfTimeline, realEnd, promotion, rook, passant, movesObj, movesJson, movesNotation, movesShort);
console.log(movesPgn, movesPgnTokens, movesPgnAll, either, wrong, actionsText, checks, checksText, movable);
console.log(actionable, submittable, undoable, passable, submitted, importable, now, fenable, applied);
console.log(sameBoard, sameBoardJson, sameMove, pgn, history, json, inline, long, notText, printed, same, version);
