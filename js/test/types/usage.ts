// Type-checked by test/types.test.mjs (tsc --noEmit): the declarations describe the API.
import Chess, { Action, Board, Move } from '../../dist/chess5d';

const chess = new Chess();
chess.move('1w. 1:e2:e3');
chess.submit();
const board: Board = chess.board;
const width: number = board.width;
const moves: Move[] = chess.moves();
const text: string = chess.moves('notation_short');
const actions: Action[] = chess.actions();
const mate: boolean = chess.inCheckmate;
const player: 'white' | 'black' = chess.player;
const pgn: string = chess.export();
const history: Action[] = chess.export('object');
chess.checkmateTimeout = 1000;
const copy: Chess = chess.copy();
console.log(width, moves.length, text, actions.length, mate, player, pgn, history.length, copy.hash);
// @ts-expect-error: moves() takes a format name, not a number
chess.moves(3);
