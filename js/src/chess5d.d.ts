// TypeScript declarations of the npm package `chess5d`: the 5d-chess-js API and its schemas.

/** `'white'` or `'black'`. */
export type Player = 'white' | 'black';

/** A list's format: objects, their JSON, or notation text (one item per line). */
export type Format = 'object' | 'json' | 'notation' | 'notation_short';

/** A square of a board of the multiverse. */
export interface Position {
  /** Timeline: 0 neutral, positive White's, negative Black's (label strings `"-0"`, `"+0"`... in even variants). */
  timeline: number | string;
  /** Turn number, from 1. */
  turn: number;
  /** Whose board it is. */
  player: Player;
  /** Square name, e.g. `e4`. */
  coordinate: string;
  /** Rank, from 1. */
  rank: number;
  /** File, from 1 (a = 1). */
  file: number;
}

/** One move. */
export interface Move {
  start: Position;
  end: Position;
  player: Player;
  /** Promotion piece letter, or null. */
  promotion: string | null;
  /** The captured pawn's square for en passant, or null. */
  enPassant: Position | null;
  /** The rook's move when castling, or null. */
  castling: { start: Position; end: Position } | null;
}

/** One player's whole submission. */
export interface Action {
  action: number;
  player: Player;
  moves: Move[];
}

/** A piece on a board. */
export interface Piece {
  /** SAN letter (`''` pawn, `'P'` princess, `'N'`, `'B'`, `'R'`, `'Q'`, `'K'`, fairy pieces `U D W C Y`). */
  piece: string;
  player: Player;
  position: Position;
  hasMoved: boolean;
}

/** One board (a timeline at one turn). */
export interface Turn {
  turn: number;
  player: Player;
  width: number;
  height: number;
  pieces: Piece[];
}

/** A timeline. */
export interface Timeline {
  timeline: number | string;
  /** Who made it. */
  player: Player;
  active: boolean;
  /** Whether the side to move must play on it. */
  present: boolean;
  turns: Turn[];
}

/** The whole multiverse. */
export interface Board {
  action: number;
  player: Player;
  width: number;
  height: number;
  timelines: Timeline[];
}

/** A variant: `{name: 'Standard - Princess', shortName: 'princess'}`. */
export interface Variant {
  name: string;
  shortName: string;
}

/** A record to import: notation text, Action objects, or their JSON. */
export type ImportData = string | Action[];
/** A variant: name, short name, 5DFEN header text, or a Board object for a custom start. */
export type VariantArg = string | Board;

declare class Chess {
  constructor(importData?: ImportData | null, variant?: VariantArg | null);
  /** Kept for compatibility with 5d-chess-js: verdicts here are proven, not timed. */
  checkmateTimeout: number;
  /** Kept for compatibility: detection is always on. */
  skipDetection: boolean;
  /** Whether print() writes to the console. */
  enableConsole: boolean;
  /** The core's version. */
  static version: string;

  readonly board: Board;
  readonly actionNumber: number;
  readonly boardHistory: Board[];
  readonly actionHistory: Action[];
  readonly moveBuffer: Move[];
  readonly player: Player;
  readonly inCheck: boolean;
  readonly inCheckmate: boolean;
  readonly inStalemate: boolean;
  readonly hash: string;
  readonly variants: Variant[];

  import(importData: ImportData, variant?: VariantArg | null, skipDetection?: boolean): void;
  importable(importData: ImportData, variant?: VariantArg | null): boolean;
  reset(variant?: VariantArg | null): void;
  action(action: string | Action | Move[], skipDetection?: boolean): void;
  actionable(action: string | Action | Move[], skipDetection?: boolean): boolean;
  copy(): Chess;
  actions(format?: 'object', activeOnly?: boolean, presentOnly?: boolean, newActiveTimelinesOnly?: boolean): Action[];
  actions(format: 'json' | 'notation' | 'notation_short', activeOnly?: boolean, presentOnly?: boolean, newActiveTimelinesOnly?: boolean): string;
  checks(format?: 'object'): Move[];
  checks(format: 'json' | 'notation' | 'notation_short'): string;
  move(move: string | Move, skipDetection?: boolean): void;
  moveable(move: string | Move, skipDetection?: boolean): boolean;
  moves(format?: 'object', activeOnly?: boolean, presentOnly?: boolean, skipDetection?: boolean): Move[];
  moves(format: 'json' | 'notation' | 'notation_short', activeOnly?: boolean, presentOnly?: boolean, skipDetection?: boolean): string;
  submit(skipDetection?: boolean): void;
  submittable(skipDetection?: boolean): boolean;
  undo(): void;
  undoable(): boolean;
  pass(skipDetection?: boolean): void;
  passable(skipDetection?: boolean): boolean;
  export(format?: '5dpgn' | 'notation' | 'notation_short' | 'json' | 'long'): string;
  export(format: 'object'): Action[];
  fen(board?: null, full?: boolean): string;
  fenable(fen: string): boolean;
  print(): string;
}

export default Chess;
export { Chess };
