//! Playing written actions on a game, turning failures into [`ResolveError`]s.

use crate::error::{Error, Reason, ResolveError, Span, Warning};
use crate::fen::FenBoard;
use crate::{start, Format, LoadedGame};
use chess5d_rules::{BoardId, Budget, Color, Game, Move, Outcome, Position, SetupError};

/// A move as written in some notation, with its text and place.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Written<'a, T> {
    pub item: &'a T,
    pub text: &'a str,
    pub span: Span,
}

/// What resolving a written move gives: the move and maybe a warning.
pub(crate) type Resolved = Result<(Move, Option<String>), Reason>;

/// The warnings gathered while playing, as the loaded game keeps them.
pub(crate) fn into_warnings(warnings: Vec<(Span, String)>) -> Vec<Warning> {
    warnings
        .into_iter()
        .map(|(span, message)| Warning { span, message })
        .collect()
}

/// Moves of one action as parsed: each with its text and place.
pub(crate) type ParsedAction<T> = Vec<(T, String, Span)>;

/// Builds the start position (given, or from the headers and 5DFEN boards) and plays every
/// parsed action on it, keeping the warnings.
pub(crate) fn play_all<T>(
    format: Format,
    headers: Vec<(String, String)>,
    boards: &[FenBoard],
    start: Option<Position>,
    actions: &[ParsedAction<T>],
    resolve: impl Fn(&T, &Position) -> Resolved,
) -> Result<LoadedGame, Error> {
    let start = match start {
        Some(p) => p,
        None => start::position(&headers, boards)?,
    };
    let mut game = Game::new(start.clone());
    let mut warnings = Vec::new();
    for (i, action) in actions.iter().enumerate() {
        let written: Vec<Written<'_, T>> = action
            .iter()
            .map(|(m, text, span)| Written {
                item: m,
                text,
                span: *span,
            })
            .collect();
        play_action(&mut game, i + 1, None, &written, &mut warnings, &resolve)?;
    }
    let tree = crate::GameTree::from_game(&game);
    let warnings = warnings
        .into_iter()
        .map(|(span, message)| Warning { span, message })
        .collect();
    Ok(LoadedGame::read(format, headers, tree, Some(game), warnings))
}

/// Plays one action (`number` counts from 1): resolves each move against the position reached
/// so far, plays it, then submits. `color` is the player the text assigns the action to.
pub(crate) fn play_action<T>(
    game: &mut Game,
    number: usize,
    color: Option<Color>,
    moves: &[Written<'_, T>],
    warnings: &mut Vec<(Span, String)>,
    resolve: impl Fn(&T, &Position) -> Resolved,
) -> Result<(), ResolveError> {
    let whole = moves.iter().map(|m| m.text).collect::<Vec<_>>().join(" ");
    let first = moves.first().map(|m| m.span).unwrap_or_default();
    if let Some(c) = color {
        if c != game.to_move() {
            return Err(ResolveError {
                action: number,
                text: whole,
                span: first,
                reason: Reason::WrongSide(format!(
                    "the action is written as {c}'s, but {} is to move",
                    game.to_move()
                )),
            });
        }
    }
    for m in moves {
        let err = |reason| ResolveError {
            action: number,
            text: m.text.to_string(),
            span: m.span,
            reason,
        };
        let resolved = resolve(m.item, game.position())
            .and_then(|(mv, warning)| game.make_move(&mv).map(|_| warning).map_err(Reason::Illegal));
        let warning = match resolved {
            Ok(w) => w,
            // A move after the end: say the game is over rather than why the move fails.
            Err(reason) => return Err(err(game_over(game).unwrap_or(reason))),
        };
        if let Some(w) = warning {
            warnings.push((m.span, format!("action {number}, '{}': {w}", m.text)));
        }
    }
    game.submit().map_err(|e| {
        // Moves that could be made but not submitted, after the end (`4. Qxf7# / Ke7`).
        let mut before = game.clone();
        while before.undo_move().is_some() {}
        ResolveError {
            action: number,
            text: whole,
            span: first,
            reason: game_over(&before).unwrap_or(Reason::Submit(e)),
        }
    })
}

/// Why no action can follow, when the game is over: the side to move, before any move of its
/// action, is mated or stalemated. Decided only after a move has failed, so a game being read
/// pays for the proof once at most.
pub(crate) fn game_over(game: &Game) -> Option<Reason> {
    if game.position().action_len() > 0 {
        return None;
    }
    let side = game.to_move();
    match game.position().outcome(Budget::DEFAULT) {
        Outcome::Checkmate => Some(Reason::GameOver(format!(
            "the game is over (checkmate): {side} is mated, {} has won",
            side.other()
        ))),
        Outcome::Stalemate => Some(Reason::GameOver(format!(
            "the game is over (stalemate): {side} has no legal action, a draw"
        ))),
        Outcome::Ongoing(_) | Outcome::Unknown => None,
    }
}

/// Plays null moves (`0000`) before the first real action by copying boards forward in the start
/// position: the rules have no null move, but a record may begin with one (e.g. a Turn Zero setup
/// written as a `T0` board and `0. 0000`). `boards` are the boards written with the null moves;
/// `None` stands for every board the side to move must play.
pub(crate) fn fold_nulls(start: &Position, boards: &[Option<BoardId>]) -> Result<Position, SetupError> {
    let mut ids: Vec<BoardId> = Vec::new();
    for b in boards {
        match b {
            Some(id) => ids.push(*id),
            None => ids.extend(start.mandatory_boards()),
        }
    }
    let mut setup = start.to_setup();
    for id in ids {
        if let Some(board) = start.board(id) {
            if start.timeline_end(id.l) == Some(id.t)
                && !setup.boards.iter().any(|(b, _)| *b == BoardId::new(id.l, id.t + 1))
            {
                let mut copy = board.clone();
                copy.set_en_passant(None);
                setup.boards.push((BoardId::new(id.l, id.t + 1), copy));
            }
        }
    }
    Position::from_setup(setup)
}
