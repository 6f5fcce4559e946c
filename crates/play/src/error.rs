//! Why a request on the game service was refused: one variant per reason, with its data. The
//! doors decide what a refusal becomes (an HTTP status through [`ErrorKind`], a `{kind, code,
//! message}` object in the browser); the text is written here, by `Display`, once.

use crate::terms::color_name;
use chess5d_rules::Color;
use std::fmt;

/// The families of refusals, which a door maps to its own terms (the server to HTTP statuses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The request is malformed or asks for something illegal.
    Invalid,
    /// The request needs a seat (or a right) the requester does not hold.
    Forbidden,
    /// No such game, board, puzzle or request.
    NotFound,
    /// The request does not fit the game's state (game over, engine's turn...).
    Conflict,
    /// The request is too large.
    TooLarge,
    /// The requester (or everyone) holds or asked for too much at once: try again later.
    Limited,
    /// A failure inside the service (an engine, the storage).
    Internal,
}

impl ErrorKind {
    /// The kind's name as the doors write it (`invalid`, `not_found`...).
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Invalid => "invalid",
            ErrorKind::Forbidden => "forbidden",
            ErrorKind::NotFound => "not_found",
            ErrorKind::Conflict => "conflict",
            ErrorKind::TooLarge => "too_large",
            ErrorKind::Limited => "limited",
            ErrorKind::Internal => "internal",
        }
    }
}

impl ErrorKind {
    /// The HTTP status a refusal of this kind is answered with: the one table, read by the
    /// server's answers and by the static site's door (which answers scripts' `fetch('/api/...')`
    /// with the same statuses).
    pub fn http_status(self) -> u16 {
        match self {
            ErrorKind::Invalid => 400,
            ErrorKind::Forbidden => 403,
            ErrorKind::NotFound => 404,
            ErrorKind::Conflict => 409,
            ErrorKind::TooLarge => 413,
            ErrorKind::Limited => 429,
            ErrorKind::Internal => 500,
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a request on a game (or on the service) was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The request's body is not the JSON the request takes.
    BadBody {
        /// The JSON reader's reason (unknown field, wrong type...).
        reason: String,
    },
    /// A request field has a value out of its bounds or of the wrong shape.
    BadField {
        /// The field (`multipv`, `movetime_ms`, `clock`...).
        field: &'static str,
        /// What it accepts.
        expected: String,
        /// What it got, as written.
        got: String,
    },
    /// Two request fields that exclude each other, or neither of two needed ones.
    EitherOr {
        /// The first field.
        a: &'static str,
        /// The second field.
        b: &'static str,
        /// Both were given (else neither).
        both: bool,
        /// What each one is, for the message when neither was given.
        hint: &'static str,
    },
    /// A field given without the one it goes with.
    GoesWith {
        /// The field given.
        field: &'static str,
        /// The field it needs.
        with: &'static str,
    },
    /// No variant of this name.
    UnknownVariant {
        /// The name asked for.
        name: String,
        /// The known variants.
        known: Vec<String>,
    },
    /// No configured engine of this name.
    UnknownEngine {
        /// The name asked for.
        name: String,
        /// The configured engines.
        known: Vec<String>,
    },
    /// No engine is configured.
    NoEngine,
    /// No bot of this name.
    UnknownBot {
        /// The name asked for.
        name: String,
    },
    /// A player name longer than [`crate::terms::MAX_NAME`] characters.
    NameTooLong,
    /// The seat asked for is an engine's side.
    SeatIsEngine {
        /// The side.
        color: Color,
    },
    /// An import of an empty text.
    EmptyImport,
    /// A text that does not read as a game or position.
    CannotImport {
        /// The reader's reason.
        reason: String,
    },
    /// `at` beyond the game's actions.
    AtBeyond {
        /// The action count asked for.
        at: usize,
        /// The game.
        game: i64,
        /// Its actions.
        actions: usize,
    },
    /// `variation` beyond the game's variation moves.
    NoVariation {
        /// The variation move asked for.
        variation: usize,
        /// The game.
        game: i64,
        /// Its variation moves.
        moves: usize,
    },
    /// A move that does not read.
    BadMove {
        /// The move as given.
        text: String,
        /// The reader's reason.
        reason: String,
    },
    /// A move that cannot be played here.
    IllegalMove {
        /// The move as given.
        text: String,
        /// The rules' reason.
        reason: String,
    },
    /// A square that is not on this game's boards.
    BadSquare {
        /// The square as given.
        square: String,
    },
    /// No board at these coordinates.
    NoBoard {
        /// The timeline.
        l: i32,
        /// The half-turn.
        t: i32,
    },
    /// The action cannot be submitted yet.
    CannotSubmit {
        /// The rules' reason.
        reason: String,
    },
    /// A puzzle position with moves of an unfinished action.
    UnfinishedAction,
    /// A puzzle without a goal.
    NoGoal,
    /// A goal "mate in `n`" beyond 1 to [`crate::terms::MAX_MATE_IN`].
    GoalOutOfRange {
        /// The goal asked for.
        n: usize,
    },
    /// A puzzle position where the side not to move is in check.
    IllegalPosition,
    /// The side to move has no forced mate in `n`.
    NoForcedMate {
        /// The side to move.
        side: Color,
        /// The goal.
        n: usize,
    },
    /// The proof of a mate in `n` did not finish within its budget (or was cancelled).
    ProofUnfinished {
        /// The goal.
        n: usize,
        /// The positions whose legal actions were listed.
        positions: u64,
        /// Stopped from outside (the request timed out or went away).
        cancelled: bool,
    },
    /// No game with this id.
    NoGame {
        /// The id as given.
        id: String,
    },
    /// No analysis board with this id.
    NoAnalysisBoard {
        /// The id as given.
        id: String,
    },
    /// No puzzle with this id.
    NoPuzzle {
        /// The id as given.
        id: String,
    },
    /// No mistake or blunder of a game's review at this action (a puzzle made from it).
    NoMistake {
        /// What is missing, e.g. `game 3 has no review`.
        what: String,
    },
    /// No lesson, or no exercise of a lesson, of this name.
    NoLesson {
        /// What is missing, e.g. `no lesson 'x'`.
        what: String,
    },
    /// A query parameter is missing or not of its shape (`?l=0&t=1&square=e2`, `?at=3`).
    BadQuery {
        /// The parameter.
        param: &'static str,
        /// What it accepts.
        expected: String,
        /// What it got (`None`: the parameter is missing).
        got: Option<String>,
    },
    /// A request this door does not answer.
    NoRequest {
        /// The method.
        method: String,
        /// The path.
        path: String,
    },
    /// The request needs the seat of a player of the game.
    NotSeated {
        /// The game.
        game: i64,
    },
    /// The requester's seat does not play the side to move.
    NotYourTurn {
        /// The sides the seat plays.
        held: Vec<Color>,
        /// The side to move.
        to_move: Color,
    },
    /// The requester's seat does not play this side.
    NotYourSide {
        /// The side.
        color: Color,
    },
    /// Only the game's creator may do this.
    NotOwner {
        /// The game.
        game: i64,
    },
    /// The game is over.
    GameOver {
        /// Why it ended, if known.
        termination: Option<String>,
    },
    /// The game has ended already (a resignation after the end).
    AlreadyOver,
    /// It is an engine's turn.
    EngineTurn,
    /// There is no move of the current action to take back.
    NothingToUndo,
    /// There is no action tried on the analysis board to take back.
    NothingToTakeBack,
    /// Engines do not take draw offers.
    EngineRefusesDraws,
    /// This side has offered a draw already.
    DrawAlreadyOffered {
        /// The side.
        color: Color,
    },
    /// The other side has made no offer for this side to accept.
    NoDrawToAccept {
        /// The side.
        color: Color,
    },
    /// There is no draw offer to decline.
    NoDrawOffer,
    /// Too late to abort: the side has played an action.
    TooLateToAbort {
        /// The side.
        color: Color,
    },
    /// No engine is to move (nothing to retry).
    NotEngineTurn,
    /// The engine is thinking already.
    EngineBusy,
    /// The engine has had no problem to retry.
    NoEngineProblem,
    /// A review of a game without a submitted action.
    NothingToReview,
    /// A review of a game someone else is still playing (or a puzzle being solved).
    ReviewWhilePlaying,
    /// An analysis board (engine lines) from a game someone else is still playing (fair play).
    AnalysisWhilePlaying,
    /// No review of the game is under way (nothing to cancel).
    NoReviewRunning {
        /// The game.
        game: i64,
    },
    /// An engine's answer that cannot be played, or another failure inside the service.
    Internal {
        /// What failed.
        reason: String,
    },
}

impl PlayError {
    /// The refusal's family, which a door maps to its own terms.
    pub fn kind(&self) -> ErrorKind {
        use PlayError::*;
        match self {
            NoGame { .. }
            | NoAnalysisBoard { .. }
            | NoPuzzle { .. }
            | NoLesson { .. }
            | NoMistake { .. }
            | NoRequest { .. } => ErrorKind::NotFound,
            NotSeated { .. } | NotYourTurn { .. } | NotYourSide { .. } | NotOwner { .. } => ErrorKind::Forbidden,
            GameOver { .. }
            | AlreadyOver
            | EngineTurn
            | NothingToUndo
            | NothingToTakeBack
            | EngineRefusesDraws
            | DrawAlreadyOffered { .. }
            | NoDrawToAccept { .. }
            | NoDrawOffer
            | TooLateToAbort { .. }
            | NotEngineTurn
            | EngineBusy
            | NoEngineProblem
            | NothingToReview
            | ReviewWhilePlaying
            | AnalysisWhilePlaying
            | NoReviewRunning { .. } => ErrorKind::Conflict,
            Internal { .. } => ErrorKind::Internal,
            _ => ErrorKind::Invalid,
        }
    }

    /// The refusal's own name (`game_over`, `illegal_move`...), finer than its kind.
    pub fn code(&self) -> &'static str {
        use PlayError::*;
        match self {
            BadBody { .. } => "bad_body",
            BadField { .. } => "bad_field",
            BadQuery { .. } => "bad_query",
            EitherOr { .. } => "either_or",
            GoesWith { .. } => "goes_with",
            UnknownVariant { .. } => "unknown_variant",
            UnknownEngine { .. } => "unknown_engine",
            NoEngine => "no_engine",
            UnknownBot { .. } => "unknown_bot",
            NameTooLong => "name_too_long",
            SeatIsEngine { .. } => "seat_is_engine",
            EmptyImport => "empty_import",
            CannotImport { .. } => "cannot_import",
            AtBeyond { .. } => "at_beyond",
            NoVariation { .. } => "no_variation",
            BadMove { .. } => "bad_move",
            IllegalMove { .. } => "illegal_move",
            BadSquare { .. } => "bad_square",
            NoBoard { .. } => "no_board",
            CannotSubmit { .. } => "cannot_submit",
            UnfinishedAction => "unfinished_action",
            NoGoal => "no_goal",
            GoalOutOfRange { .. } => "goal_out_of_range",
            IllegalPosition => "illegal_position",
            NoForcedMate { .. } => "no_forced_mate",
            ProofUnfinished { .. } => "proof_unfinished",
            NoGame { .. } => "no_game",
            NoAnalysisBoard { .. } => "no_analysis_board",
            NoPuzzle { .. } => "no_puzzle",
            NoLesson { .. } => "no_lesson",
            NoMistake { .. } => "no_mistake",
            NoRequest { .. } => "no_request",
            NotSeated { .. } => "not_seated",
            NotYourTurn { .. } => "not_your_turn",
            NotYourSide { .. } => "not_your_side",
            NotOwner { .. } => "not_owner",
            GameOver { .. } => "game_over",
            AlreadyOver => "already_over",
            EngineTurn => "engine_turn",
            NothingToUndo => "nothing_to_undo",
            NothingToTakeBack => "nothing_to_take_back",
            EngineRefusesDraws => "engine_refuses_draws",
            DrawAlreadyOffered { .. } => "draw_already_offered",
            NoDrawToAccept { .. } => "no_draw_to_accept",
            NoDrawOffer => "no_draw_offer",
            TooLateToAbort { .. } => "too_late_to_abort",
            NotEngineTurn => "not_engine_turn",
            EngineBusy => "engine_busy",
            NoEngineProblem => "no_engine_problem",
            NothingToReview => "nothing_to_review",
            ReviewWhilePlaying => "review_while_playing",
            AnalysisWhilePlaying => "analysis_while_playing",
            NoReviewRunning { .. } => "no_review_running",
            Internal { .. } => "internal",
        }
    }
}

fn who(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PlayError::*;
        match self {
            BadBody { reason } => write!(f, "invalid JSON body: {reason}"),
            BadField { field, expected, got } => write!(f, "'{field}' must be {expected}, got {got}"),
            EitherOr { a, b, both: true, .. } => write!(f, "give either '{a}' or '{b}', not both"),
            EitherOr { hint, .. } => f.write_str(hint),
            GoesWith { field, with } => write!(f, "'{field}' goes with '{with}'"),
            UnknownVariant { name, known } => {
                write!(f, "unknown variant '{name}'; known variants: {}", known.join(", "))
            }
            UnknownEngine { name, known } => {
                write!(f, "unknown engine '{name}'; configured engines: {}", known.join(", "))
            }
            NoEngine => f.write_str("no engine is configured here"),
            UnknownBot { name } => write!(f, "unknown bot '{name}'; use random, greedy or alphabeta"),
            NameTooLong => write!(f, "player names are at most {} characters", crate::terms::MAX_NAME),
            SeatIsEngine { color } => write!(f, "seat: {} is an engine, not a seat", color_name(*color)),
            EmptyImport => f.write_str("nothing to import: the text is empty"),
            CannotImport { reason } => write!(f, "cannot import: {reason}"),
            AtBeyond { at, game, actions } => write!(f, "'at' is {at} but game {game} has {actions} actions"),
            NoVariation { variation, game, moves } => match moves {
                0 => write!(f, "'variation' is {variation} but game {game} has no variations"),
                _ => write!(
                    f,
                    "'variation' is {variation} but game {game} has {moves} variation moves (numbered from 0)"
                ),
            },
            BadMove { text, reason } => write!(f, "bad move '{text}': {reason}"),
            IllegalMove { text, reason } => write!(f, "illegal move {text}: {reason}"),
            BadSquare { square } => write!(f, "'{square}' is not a square of this game's boards"),
            NoBoard { l, t } => write!(f, "there is no board at timeline index {l}, half-turn {t}"),
            CannotSubmit { reason } => write!(f, "cannot submit: {reason}"),
            UnfinishedAction => {
                f.write_str("the position has moves of an unfinished action; a puzzle starts between actions")
            }
            NoGoal => f.write_str("give the goal: 'mate_in' (or a [Puzzle \"mate-in-N\"] header)"),
            GoalOutOfRange { n } => write!(
                f,
                "the goal must be mate in 1 to {}, not {n}",
                crate::terms::MAX_MATE_IN
            ),
            IllegalPosition => f.write_str(
                "not saved: the side not to move is in check (a royal piece can be taken), so the position is not legal",
            ),
            NoForcedMate { side, n } => write!(
                f,
                "not saved: {w} (to move) has no forced mate in {n}; every {w} action has a defence",
                w = who(*side)
            ),
            ProofUnfinished { n, cancelled: true, .. } => write!(
                f,
                "not saved: the proof of mate in {n} was stopped (the request timed out or went away)"
            ),
            ProofUnfinished { n, positions, .. } => write!(
                f,
                "not saved: the proof of mate in {n} did not finish within its work budget ({positions} positions tried, \
                 too many legal actions); whether it holds is unknown: try a smaller position or a shorter mate"
            ),
            NoGame { id } => write!(f, "no game with id {id}"),
            NoAnalysisBoard { id } => write!(f, "no analysis board {id}"),
            NoPuzzle { id } => write!(f, "no puzzle '{id}'"),
            NoLesson { what } | NoMistake { what } => f.write_str(what),
            BadQuery { param, got: None, .. } => write!(f, "missing query parameter '{param}'"),
            BadQuery { param, expected, got: Some(got) } => {
                write!(f, "query parameter '{param}' must be {expected}, got '{got}'")
            }
            NoRequest { method, path } => write!(f, "{method} {path} is not available here"),
            NotSeated { game } => write!(
                f,
                "this needs the seat token of a player of game {game} (header {})",
                crate::terms::TOKEN_HEADER
            ),
            NotYourTurn { held, to_move } => write!(
                f,
                "your seat plays {}; {} is to move",
                held.iter().map(|c| color_name(*c)).collect::<Vec<_>>().join(" and "),
                color_name(*to_move)
            ),
            NotYourSide { color } => write!(f, "your seat does not play {}", color_name(*color)),
            NotOwner { game } => write!(f, "only the creator of game {game} may do this"),
            GameOver { termination } => {
                write!(f, "the game is over ({})", termination.as_deref().unwrap_or("finished"))
            }
            AlreadyOver => f.write_str("the game is already over"),
            EngineTurn => f.write_str("it is the engine's turn"),
            NothingToUndo => f.write_str("no move of the current action to undo"),
            NothingToTakeBack => f.write_str("no action tried here to take back"),
            EngineRefusesDraws => f.write_str("engines do not take draw offers"),
            DrawAlreadyOffered { color } => write!(f, "{} has already offered a draw", color_name(*color)),
            NoDrawToAccept { color } => write!(f, "{} has no draw offer to accept", color_name(*color)),
            NoDrawOffer => f.write_str("there is no draw offer"),
            TooLateToAbort { color } => write!(f, "too late to abort: {} has played an action", color_name(*color)),
            NotEngineTurn => f.write_str("it is not an engine's turn"),
            EngineBusy => f.write_str("the engine is already thinking"),
            NoEngineProblem => f.write_str("the engine has had no problem to retry"),
            NothingToReview => f.write_str("the game has no action to review"),
            NoReviewRunning { game } => write!(f, "game {game} has no review under way"),
            AnalysisWhilePlaying => f.write_str(
                "the game is still being played by someone else: its analysis board and engine lines open when the game ends",
            ),
            ReviewWhilePlaying => f.write_str(
                "the game is still being played by someone else (or is a puzzle being solved): it can be reviewed once it is over",
            ),
            Internal { reason } => f.write_str(reason),
        }
    }
}

impl std::error::Error for PlayError {}

impl PlayError {
    /// An internal failure.
    pub fn internal(reason: impl Into<String>) -> PlayError {
        PlayError::Internal { reason: reason.into() }
    }

    /// A JSON body that does not read as the request.
    pub fn body(e: impl fmt::Display) -> PlayError {
        PlayError::BadBody { reason: e.to_string() }
    }
}
