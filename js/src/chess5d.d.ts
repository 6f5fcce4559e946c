// TypeScript declarations of the npm package `chess5d` for its CommonJS build, dist/chess5d.js
// (`module.exports = Chess`): the 5d-chess-js 1.2.x API and its schemas.
//
//   const Chess = require('chess5d');          import Chess = require('chess5d');
//   import Chess from 'chess5d';               (esModuleInterop, or module node16/nodenext)
//   import { Chess } from 'chess5d';           (the class also carries itself as `Chess.Chess`)
//   import type { Board, Move } from 'chess5d';
//
// The ES module build, dist/chess5d.mjs, is described by chess5d.d.mts, which re-exports these.

/** The class: `new Chess([importData, variant])`. */
declare class Chess {
  /**
   * A new game: `importData` (optional) is a record to replay (5DPGN text, Action objects or
   * their JSON), `variant` (optional) a variant's name or short name, or a Board object for a
   * custom start. Throws a {@link Chess.Chess5dError} on a bad record or variant.
   */
  constructor(importData?: Chess.ImportData | null, variant?: Chess.VariantArg | null);

  /** The class itself, so that `import { Chess } from 'chess5d'` works in CommonJS too. */
  static readonly Chess: typeof Chess;
  /** The version of the chess5d core. */
  static readonly version: string;
  /** Every variant of chess5d (a chess5d extra; `variants` lists 5d-chess-js 1.2's). */
  static readonly allVariants: Chess.Variant[];
  /**
   * (A chess5d extension.) Loads the engine module that review() runs on (dist/chess5d-engine.js):
   * review() loads it by itself in Node; in a page, await this (or add its script tag) first.
   */
  static loadEngine(): Promise<void>;

  // Writable fields (plain properties).

  /** Milliseconds allowed to checkmate detection (5d-chess-js's timer; default 60000). */
  checkmateTimeout: number;
  /** Skip validation and checkmate detection, for engines (default `false`). */
  skipDetection: boolean;
  /** Whether debug output (and `print()`) goes to the console. */
  enableConsole: boolean;

  // Fields (getters).

  /** The whole position now. */
  readonly board: Chess.Board;
  /** The action number: 1 for White's first action, then one more after each submitted action. */
  readonly actionNumber: number;
  /** The Board of every position from the start to now. */
  readonly boardHistory: Chess.Board[];
  /** Every action submitted since the start, by both players. */
  readonly actionHistory: Chess.Action[];
  /** The moves of the action under way (played, not yet submitted). */
  readonly moveBuffer: Chess.Move[];
  /** The side to move. */
  readonly player: Chess.Player;
  /** Whether the side to move is in check. */
  readonly inCheck: boolean;
  /** Whether the side to move is checkmated (it has lost). */
  readonly inCheckmate: boolean;
  /** Whether the side to move is stalemated. */
  readonly inStalemate: boolean;
  /** MD5 hash of the position (hex). */
  readonly hash: string;
  /** The variants one can start from: `[{ name: 'Standard - Princess', shortName: 'princess' }, ...]`. */
  readonly variants: Chess.Variant[];

  // Functions.

  /** Replays a record from the start (of `variant`, if given). Throws. */
  import(importData: Chess.ImportData, variant?: Chess.VariantArg | null): void;
  /** Whether `import` would succeed. Never throws. */
  importable(importData: Chess.ImportData, variant?: Chess.VariantArg | null): boolean;

  /** The 5DFEN of the starting boards. */
  fen(): string;
  /** Applies 5DFEN text to the current position. Throws. */
  fen(fen: string): void;
  /** With `currentBoard` true, the 5DFEN of every board of the current position. */
  fen(fen: null | undefined, currentBoard: boolean): string;
  /** Whether `fen` would accept this 5DFEN text. Never throws. */
  fenable(fen: string): boolean;

  /** Back to the start (of `variant`, if given). Throws on an unknown variant. */
  reset(variant?: Chess.VariantArg | null): void;
  /** A new, independent Chess object in the same state. */
  copy(): Chess;
  /** The whole internal state as a JSON-compatible object (what `copy()` carries over). */
  state(): Chess.State;
  /** Replaces the internal state with one `state()` gave (possibly through JSON). */
  state(state: Chess.State): void;

  /**
   * 0 when both inputs are the same board (`type` `'board'`, the default) or the same move
   * (`'move'`); otherwise a nonzero number, consistent for sorting.
   */
  compare(input1: Chess.BoardLike, input2: Chess.BoardLike, type?: 'board'): number;
  compare(input1: Chess.MoveLike, input2: Chess.MoveLike, type: 'move'): number;
  compare(input1: Chess.BoardLike | Chess.MoveLike, input2: Chess.BoardLike | Chess.MoveLike, type?: Chess.CompareType): number;

  /** Plays the moves of an action and submits it. Throws. */
  action(action: Chess.ActionArg): void;
  /** Whether `action` would succeed. Never throws. */
  actionable(action: Chess.ActionArg): boolean;

  /**
   * Every submittable action of the side to move.
   * @param format default `'object'`
   * @param activeOnly default `true`: moves on active timelines only
   * @param presentOnly default `true`: moves on present timelines only (overrides activeOnly)
   * @param newActiveTimelinesOnly default `true`: actions that create only active timelines
   * @param limit (a chess5d extra) at most this many; without it more than 200,000 throw
   */
  actions(format?: 'object', activeOnly?: boolean, presentOnly?: boolean, newActiveTimelinesOnly?: boolean, limit?: number): Chess.Action[];
  actions(format: Chess.TextFormat, activeOnly?: boolean, presentOnly?: boolean, newActiveTimelinesOnly?: boolean, limit?: number): string;
  actions(format?: Chess.Format, activeOnly?: boolean, presentOnly?: boolean, newActiveTimelinesOnly?: boolean, limit?: number): Chess.Action[] | string;

  /** The legal actions one at a time, as actions() writes them (a chess5d extra: any number of timelines). */
  actionsIter(format?: 'object', activeOnly?: boolean, presentOnly?: boolean, newActiveTimelinesOnly?: boolean): Generator<Chess.Action, void, undefined>;
  actionsIter(format: Chess.TextFormat, activeOnly?: boolean, presentOnly?: boolean, newActiveTimelinesOnly?: boolean): Generator<string, void, undefined>;

  /**
   * The opponent's moves that would capture a royal piece if the side to move passed.
   * @param format default `'object'`
   */
  checks(format?: 'object'): Chess.Move[];
  checks(format: Chess.TextFormat): string;
  checks(format?: Chess.Format): Chess.Move[] | string;

  /**
   * (A chess5d extension.) The computer review of the game's submitted actions: evaluations
   * before and after each action, the engine's best action and line where it differs, classes
   * (inaccuracy, mistake, blunder) and each side's accuracy. Synchronous (use a Web Worker in a
   * page); by default each position is searched to depth 4 within 1.2 s.
   */
  review(options?: Chess.ReviewOptions): Chess.Review;

  /** Plays one move of the action under way. Throws. */
  move(move: Chess.MoveArg): void;
  /** Whether `move` can be played now. Never throws. */
  moveable(move: Chess.MoveArg): boolean;

  /**
   * The moves the side to move can play now (promotions from the most valuable piece down).
   * @param format default `'object'`
   * @param activeOnly default `true`: moves on active timelines only
   * @param presentOnly default `true`: moves on present timelines only (overrides activeOnly)
   * @param spatialOnly default `false`: moves within one board only (no time travel)
   */
  moves(format?: 'object', activeOnly?: boolean, presentOnly?: boolean, spatialOnly?: boolean): Chess.Move[];
  moves(format: Chess.TextFormat, activeOnly?: boolean, presentOnly?: boolean, spatialOnly?: boolean): string;
  moves(format?: Chess.Format, activeOnly?: boolean, presentOnly?: boolean, spatialOnly?: boolean): Chess.Move[] | string;

  /** Submits the action under way; the other player is to move. Throws. */
  submit(): void;
  /** Whether `submit` would succeed. Never throws. */
  submittable(): boolean;
  /** Takes back the last move of the action under way. Throws. */
  undo(): void;
  /** Whether `undo` would succeed. Never throws. */
  undoable(): boolean;
  /** Submits an action without moves (for engines: the game itself has no pass). Throws. */
  pass(): void;
  /** Whether `pass` would succeed. Never throws. */
  passable(): boolean;

  /**
   * The game's record: 5DPGN text (`'5dpgn'` with optional tokens, `'notation'`,
   * `'notation_short'`), Action objects (`'object'`), their JSON (`'json'`), or the long form
   * (`'long'`, a chess5d extra).
   * @param format default `'5dpgn'`, as 5d-chess-js 1.2.1 does (its README says `'object'`)
   */
  export(format?: Chess.ExportTextFormat): string;
  export(format: 'object'): Chess.Action[];
  export(format?: Chess.ExportFormat): Chess.Action[] | string;

  /**
   * The position drawn as 5d-chess-js draws it, written to the console when enableConsole is
   * true, and returned; `print('chess5d')` (a chess5d extra) draws our diagram.
   */
  print(style?: 'chess5d'): string;
}

/** The instance type, under a second name for the namespace below. */
type ChessInstance = Chess;

declare namespace Chess {
  /**
   * The instance type, so that `Chess` imported by name (`import { Chess } from 'chess5d'`,
   * the static property) is a type as well as the class.
   */
  type Chess = ChessInstance;

  /** `'white'` or `'black'`. */
  type Player = 'white' | 'black';

  /** A token of the `5dpgn` formats of moves(), actions() and checks(). */
  type PgnToken = 'active' | 'timeline' | 'superphysical';
  /** A token of the `5dpgn` formats of export(): `inline` puts the actions on one line. */
  type ExportPgnToken = PgnToken | 'inline';
  /** `_token` suffixes: each token at most once, in any order. */
  type PgnSuffix<T extends string, U extends string = T> = '' | (U extends string ? `_${U}${PgnSuffix<Exclude<T, U>>}` : never);
  /** `'5dpgn'`, or with tokens: `'5dpgn_active_superphysical'`, `'5dpgn_timeline'`... */
  type PgnFormat = `5dpgn${PgnSuffix<PgnToken>}`;
  /** `'5dpgn'` or with tokens, `inline` included: `'5dpgn_inline_timeline'`... */
  type ExportPgnFormat = `5dpgn${PgnSuffix<ExportPgnToken>}`;
  /** The formats that give text: JSON, or notation (one item per line). */
  type TextFormat = 'json' | 'notation' | 'notation_short' | PgnFormat;
  /** The format of a list: `'object'` gives objects, the others text. */
  type Format = 'object' | TextFormat;
  /** export()'s formats that give text (`'long'`: the long form, a chess5d extra). */
  type ExportTextFormat = 'json' | 'notation' | 'notation_short' | 'long' | ExportPgnFormat;
  /** export()'s formats. */
  type ExportFormat = 'object' | ExportTextFormat;
  /** What compare() compares. */
  type CompareType = 'board' | 'move';

  /**
   * A piece's letter: `''` a pawn (`'P'` where pawns are written out), `'B'` bishop, `'N'`
   * knight, `'R'` rook, `'Q'` queen, `'S'` princess, `'K'` king, `'W'` brawn, `'U'` unicorn,
   * `'D'` dragon, `'C'` common king, `'Y'` royal queen.
   */
  type PieceLetter = '' | 'P' | 'B' | 'N' | 'R' | 'Q' | 'S' | 'K' | 'W' | 'U' | 'D' | 'C' | 'Y';
  /** A piece a pawn can promote to (`'Q'`, `'S'`, `'R'`, `'B'`, `'N'` in the official variants). */
  type PromotionLetter = Exclude<PieceLetter, '' | 'P' | 'W'>;

  /** A square of the multiverse. */
  interface Position {
    /** Timeline: 0 the first, positive White's, negative Black's. */
    timeline: number;
    /** Turn number, from 1. */
    turn: number;
    /** Whose board it is (each turn has a White and a Black board). */
    player: Player;
    /** The square's name, e.g. `'e4'`. */
    coordinate: string;
    /** Rank, from 1. */
    rank: number;
    /** File, from 1 (a = 1). */
    file: number;
  }
  /** A Position as an input: `coordinate` may be left out. */
  interface PositionInput extends Omit<Position, 'coordinate'> {
    coordinate?: string;
  }

  /** One move. */
  interface Move {
    /** Where the piece was. */
    start: Position;
    /** Where it goes. */
    end: Position;
    /** Where the piece really is after the move: the next board, on a new timeline if one branched off. */
    realEnd: Position;
    /** Who moves. */
    player: Player;
    /** The piece promoted to, or null. */
    promotion: PromotionLetter | null;
    /** The square of the pawn taken en passant, or null. */
    enPassant: Position | null;
    /** The rook's move when castling, or null. */
    castling: { start: Position; end: Position; realEnd: Position } | null;
  }
  /** A Move as an input: `realEnd` (and positions' `coordinate`) may be left out. */
  interface MoveInput {
    start: PositionInput;
    end: PositionInput;
    realEnd?: PositionInput;
    player: Player;
    promotion: PromotionLetter | null;
    enPassant: PositionInput | null;
    castling: { start: PositionInput; end: PositionInput; realEnd?: PositionInput } | null;
  }

  /** One player's submitted moves. */
  interface Action {
    /** Its action number. */
    action: number;
    /** Who played it. */
    player: Player;
    /** Its moves, first to last. */
    moves: Move[];
  }
  /** An Action as an input: `action` and `player` may be left out. */
  interface ActionInput {
    action?: number;
    player?: Player;
    moves: MoveInput[];
  }

  /** A piece on a board. */
  interface Piece {
    piece: PieceLetter;
    player: Player;
    position: Position;
    hasMoved: boolean;
  }

  /** One board: a timeline at one turn, for one player. */
  interface Turn {
    turn: number;
    player: Player;
    width: number;
    height: number;
    pieces: Piece[];
  }

  /** A timeline and its boards. */
  interface Timeline {
    /** Timeline number: 0 the first, positive White's, negative Black's. */
    timeline: number;
    /** Who created it. */
    player: Player;
    /** Whether it is active. */
    active: boolean;
    /** Whether it is in the present (the side to move must play on it). */
    present: boolean;
    turns: Turn[];
  }

  /** The whole multiverse. */
  interface Board {
    /** The action number of the next action. */
    action: number;
    /** Who plays the next action. */
    player: Player;
    width: number;
    height: number;
    timelines: Timeline[];
  }

  /** A variant: `{ name: 'Standard - Princess', shortName: 'princess' }`. */
  interface Variant {
    name: string;
    shortName: string;
  }
  /** The official variants' short names (their full names and 5DFEN starts are accepted too). */
  type VariantShortName =
    | 'standard'
    | 'defended_pawn'
    | 'half_reflected'
    | 'princess'
    | 'turn_zero'
    | 'two_timelines'
    | 'reversed_royalty';

  /** A record to import: 5DPGN text, Action objects, or their JSON. */
  type ImportData = string | ActionInput[];
  /** A variant: its name or short name (or 5DFEN text), or a Board object for a custom start. */
  type VariantArg = VariantShortName | (string & {}) | Board;
  /** An action to play: 5DPGN text, an Action, Move objects, or their JSON. */
  type ActionArg = string | ActionInput | MoveInput[];
  /** A move to play: notation text, a Move object, or its JSON. */
  type MoveArg = string | MoveInput;
  /** The raw board of 5d-chess-js: `board[timeline][turn][rank][file]` = piece code. */
  type RawBoard = ReadonlyArray<ReadonlyArray<ReadonlyArray<ReadonlyArray<number>> | null | undefined> | null | undefined>;
  /** A board for compare(): a Board object, a raw board, or JSON of either. */
  type BoardLike = Board | RawBoard | string;
  /** A move for compare(): a Move object, a raw move (an array), JSON of either, or 5DPGN text. */
  type MoveLike = MoveInput | ReadonlyArray<unknown> | string;

  /** A JSON value. */
  type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
  /** The internal state that state() gives and takes: a JSON-compatible object. */
  interface State {
    [key: string]: Json;
  }

  /** The options of review() (a chess5d extension). */
  interface ReviewOptions {
    /** Search each position to this depth, in actions (1 to 63). */
    depth?: number;
    /** Search each position at most this many milliseconds. */
    movetime?: number;
    /** Search each position at most this many nodes. */
    nodes?: number;
    /** Called after each position searched; returning `false` stops the review. */
    progress?: (searched: number, positions: number) => boolean | void;
  }
  /** An evaluation from White's point of view. */
  type ReviewEval = { cp: number } | { mate: number } | { checkmate: 'white' | 'black' } | { stalemate: true };
  /** The review of one action. */
  interface ActionReview {
    /** Its index in the game (from 0). */
    index: number;
    turn: number;
    player: Player;
    /** Its moves in 5DPGN. */
    played: string;
    before: ReviewEval;
    after: ReviewEval;
    /** The engine's best action in 5DPGN, when it differs from the one played. */
    best: string | null;
    /** The engine's line from the position before the action, when the best action differs. */
    line: string | null;
    /** The player's win percentage (0..100) before and after the action. */
    win_before: number;
    win_after: number;
    /** White's win percentage after the action. */
    white_after: number;
    /** The drop of the player's winning chances (2p - 1). */
    drop: number;
    class: 'inaccuracy' | 'mistake' | 'blunder' | null;
    /** 0..100. */
    accuracy: number;
    depth: number;
    nodes: number;
  }
  /** One side's summary. */
  interface ReviewSide {
    accuracy: number | null;
    inaccuracies: number;
    mistakes: number;
    blunders: number;
  }
  /** What review() returns (the JSON of `chess5d review --json`). */
  interface Review {
    actions: ActionReview[];
    reviewed: number;
    total: number;
    result: '1-0' | '0-1' | '1/2-1/2' | null;
    cancelled: boolean;
    /** The scale of the win probabilities. */
    k: number;
    white: ReviewSide;
    black: ReviewSide;
  }

  /** The errors the package throws: an Error with a machine-readable `code` beside the message. */
  interface Chess5dError extends Error {
    /** What went wrong, as a stable identifier (the message says it for people). */
    code: string;
  }
}

export = Chess;
