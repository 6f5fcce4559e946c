// TypeScript declarations of the npm package `chess5d` for its ES module build, dist/chess5d.mjs
// (`export default Chess; export { Chess }; export const version`): the same class and schemas
// as chess5d.d.ts.
//
//   import Chess from 'chess5d';
//   import { Chess, version } from 'chess5d';
//   import type { Board, Move } from 'chess5d';
import Chess = require('./chess5d.js');

export default Chess;
export { Chess };
/** The version of the chess5d core (`Chess.version`). */
export declare const version: string;

export type Player = Chess.Player;
export type PgnToken = Chess.PgnToken;
export type ExportPgnToken = Chess.ExportPgnToken;
export type PgnSuffix<T extends string, U extends string = T> = Chess.PgnSuffix<T, U>;
export type PgnFormat = Chess.PgnFormat;
export type ExportPgnFormat = Chess.ExportPgnFormat;
export type TextFormat = Chess.TextFormat;
export type Format = Chess.Format;
export type ExportTextFormat = Chess.ExportTextFormat;
export type ExportFormat = Chess.ExportFormat;
export type CompareType = Chess.CompareType;
export type PieceLetter = Chess.PieceLetter;
export type PromotionLetter = Chess.PromotionLetter;
export type Position = Chess.Position;
export type PositionInput = Chess.PositionInput;
export type Move = Chess.Move;
export type MoveInput = Chess.MoveInput;
export type Action = Chess.Action;
export type ActionInput = Chess.ActionInput;
export type Piece = Chess.Piece;
export type Turn = Chess.Turn;
export type Timeline = Chess.Timeline;
export type Board = Chess.Board;
export type Variant = Chess.Variant;
export type VariantShortName = Chess.VariantShortName;
export type ImportData = Chess.ImportData;
export type VariantArg = Chess.VariantArg;
export type ActionArg = Chess.ActionArg;
export type MoveArg = Chess.MoveArg;
export type RawBoard = Chess.RawBoard;
export type BoardLike = Chess.BoardLike;
export type MoveLike = Chess.MoveLike;
export type Json = Chess.Json;
export type State = Chess.State;
export type Chess5dError = Chess.Chess5dError;
export type ReviewOptions = Chess.ReviewOptions;
export type ReviewEval = Chess.ReviewEval;
export type ActionReview = Chess.ActionReview;
export type ReviewSide = Chess.ReviewSide;
export type Review = Chess.Review;
