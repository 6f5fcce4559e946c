//! The course (`GET /api/lessons`, `POST /api/lessons/:id/:n`): lessons as data files
//! (`data/lessons/*.json`, bundled here so the server and the static site serve the same ones,
//! offline in the latter), each a text, a demonstration the page plays by itself and exercises
//! with a goal. A goal is judged by the rules on the action submitted ([`Goal::met`]), whatever
//! the action: the game service calls it when an exercise's solver submits, and the course's
//! test calls it on every solution, so the page and the test share one judge.

use crate::error::PlayError;
use crate::game::{Play, Player, PuzzleRun};
use crate::terms::color_name;
use chess5d_notation::{long, LoadedGame};
use chess5d_rules::{Game, Move, Outcome, Position, Role, Square};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::OnceLock;

/// What an exercise asks of the solver's one action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Goal {
    /// A piece of the solver's (of this role, if named) ends a move on `square` (any board).
    Reach {
        /// The square, e.g. `e5`.
        square: String,
        /// The piece's letter (`R`, `N`...), if it matters.
        #[serde(default)]
        piece: Option<String>,
    },
    /// The action captures a piece (of this role, if named).
    Capture {
        /// The captured piece's letter, if it matters.
        #[serde(default)]
        piece: Option<String>,
    },
    /// After the action the opponent is in check.
    Check,
    /// After the action the opponent is checkmated.
    Mate,
    /// The action makes a new timeline.
    Branch,
    /// The action moves the present back in time.
    PresentBack,
}

impl Goal {
    /// Whether the action `moves`, submitted from `before` (the solver to move) to `after` (the
    /// opponent to move), reaches the goal.
    pub fn met(&self, before: &Position, moves: &[Move], after: &Game) -> bool {
        let role = |p: &Option<String>| p.as_deref().and_then(|s| s.chars().next()).and_then(Role::from_letter);
        match self {
            Goal::Reach { square, piece } => {
                let Some(sq) = Square::parse(square) else { return false };
                moves
                    .iter()
                    .any(|m| m.to.square == sq && role(piece).is_none_or(|r| m.placed().role() == r))
            }
            Goal::Capture { piece } => moves
                .iter()
                .any(|m| m.captured.is_some_and(|c| role(piece).is_none_or(|r| c.role() == r))),
            Goal::Check => after.in_check(),
            Goal::Mate => matches!(after.outcome(), Outcome::Checkmate),
            Goal::Branch => after.position().timeline_count() > before.timeline_count(),
            Goal::PresentBack => after.position().present() < before.present(),
        }
    }

    /// The goal's checks on its own words (a square, a piece letter), for the course's loader.
    fn check(&self) -> Result<(), String> {
        let letter = |p: &Option<String>| match p.as_deref() {
            None => Ok(()),
            Some(s) if s.chars().count() == 1 && s.chars().next().and_then(Role::from_letter).is_some() => Ok(()),
            Some(s) => Err(format!("unknown piece letter '{s}'")),
        };
        match self {
            Goal::Reach { square, piece } => {
                Square::parse(square).ok_or_else(|| format!("bad square '{square}'"))?;
                letter(piece)
            }
            Goal::Capture { piece } => letter(piece),
            _ => Ok(()),
        }
    }
}

/// A demonstration: a position and the actions the page plays on it by itself, each with a
/// caption.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Demo {
    /// The start, a 5DPGN/5DFEN text (a record's actions make the history it needs).
    pub start: String,
    /// The actions, in long form (moves separated by spaces).
    pub actions: Vec<String>,
    /// One caption per action.
    pub captions: Vec<String>,
    /// What the demonstration's last action shows, checked by the course's test.
    #[serde(default)]
    pub goal: Option<Goal>,
}

/// An exercise: a small position, a goal for one action of the side to move, a hint.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exercise {
    /// What to do, in a sentence.
    pub prompt: String,
    /// The position, a 5DPGN/5DFEN text (the position after its last action).
    pub start: String,
    /// The goal.
    pub goal: Goal,
    /// The hint shown on request.
    pub hint: String,
    /// An action that reaches the goal (long form), for the test; never sent to the page.
    #[serde(skip_serializing)]
    pub solution: String,
    /// A legal action that does not, for the test; never sent to the page.
    #[serde(skip_serializing)]
    pub wrong: String,
}

/// A lesson of the course.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Its id (the file's name without its number), e.g. `rook`.
    pub id: String,
    /// Its title.
    pub title: String,
    /// Its explanation, a paragraph per entry.
    pub text: Vec<String>,
    /// The demonstration.
    pub demo: Demo,
    /// The exercises.
    pub exercises: Vec<Exercise>,
}

/// The lesson files, in the course's order.
const FILES: &[(&str, &str)] = &[
    ("01-boards", include_str!("../data/lessons/01-boards.json")),
    ("02-submit", include_str!("../data/lessons/02-submit.json")),
    ("03-rook", include_str!("../data/lessons/03-rook.json")),
    ("04-bishop", include_str!("../data/lessons/04-bishop.json")),
    ("05-unicorn", include_str!("../data/lessons/05-unicorn.json")),
    ("06-dragon", include_str!("../data/lessons/06-dragon.json")),
    ("07-queen", include_str!("../data/lessons/07-queen.json")),
    ("08-king", include_str!("../data/lessons/08-king.json")),
    ("09-knight", include_str!("../data/lessons/09-knight.json")),
    ("10-pawn", include_str!("../data/lessons/10-pawn.json")),
    ("11-princess", include_str!("../data/lessons/11-princess.json")),
    ("12-royals", include_str!("../data/lessons/12-royals.json")),
    ("13-timelines", include_str!("../data/lessons/13-timelines.json")),
    ("14-present", include_str!("../data/lessons/14-present.json")),
    ("15-active", include_str!("../data/lessons/15-active.json")),
    ("16-check", include_str!("../data/lessons/16-check.json")),
    ("17-mate", include_str!("../data/lessons/17-mate.json")),
    ("18-special", include_str!("../data/lessons/18-special.json")),
    ("19-tactics", include_str!("../data/lessons/19-tactics.json")),
    ("20-double", include_str!("../data/lessons/20-double.json")),
];

/// The course, read once; a file that does not read is an error naming it (the course's test
/// reads every file, so a shipped build never meets one).
pub fn course() -> Result<&'static [Lesson], PlayError> {
    static COURSE: OnceLock<Result<Vec<Lesson>, String>> = OnceLock::new();
    COURSE
        .get_or_init(|| {
            FILES
                .iter()
                .map(|(name, text)| {
                    let l: Lesson = serde_json::from_str(text).map_err(|e| format!("lesson {name}: {e}"))?;
                    for (i, e) in l.exercises.iter().enumerate() {
                        e.goal
                            .check()
                            .map_err(|m| format!("lesson {name}, exercise {}: {m}", i + 1))?;
                    }
                    Ok(l)
                })
                .collect()
        })
        .as_deref()
        .map_err(|e| PlayError::internal(e.clone()))
}

/// `GET /api/lessons`: every lesson as the page shows it (no solutions).
pub fn course_json() -> Result<Value, PlayError> {
    Ok(json!({ "lessons": course()? }))
}

/// The lesson `id`'s exercise `n` (counted from 1).
pub fn exercise(id: &str, n: &str) -> Result<(&'static Lesson, usize, &'static Exercise), PlayError> {
    let lesson = course()?
        .iter()
        .find(|l| l.id == id)
        .ok_or_else(|| PlayError::NoLesson {
            what: format!("no lesson '{id}'"),
        })?;
    let i = n
        .parse::<usize>()
        .ok()
        .filter(|i| (1..=lesson.exercises.len()).contains(i))
        .ok_or_else(|| PlayError::NoLesson {
            what: format!("lesson '{id}' has exercises 1 to {}, not '{n}'", lesson.exercises.len()),
        })?;
    Ok((lesson, i, &lesson.exercises[i - 1]))
}

/// A text of the course read as a game (its position after the last action).
pub fn load(text: &str) -> Result<LoadedGame, PlayError> {
    chess5d_notation::load(text).map_err(|e| PlayError::internal(format!("course position: {e}")))
}

/// One action in long form played on `game` (not submitted): its moves.
pub fn play_action(game: &mut Game, action: &str) -> Result<Vec<Move>, String> {
    let moves = long::parse_action(action).map_err(|e| format!("'{action}': {e}"))?;
    let mut played = Vec::new();
    for m in moves {
        let mv = m
            .resolve(game.position())
            .map_err(|e| format!("'{action}': {m}: {e:?}"))?;
        played.push(game.make_move(&mv).map_err(|e| format!("'{action}': {m}: {e}"))?);
    }
    Ok(played)
}

/// Whether `action` (long form), played and submitted on `start`, reaches `goal`: the check the
/// game service makes when an exercise's solver submits, for the course's test.
pub fn try_action(start: &Game, action: &str, goal: &Goal) -> Result<bool, String> {
    let mut game = start.clone();
    let before = game.position().clone();
    let moves = play_action(&mut game, action)?;
    game.submit()
        .map_err(|e| format!("'{action}' cannot be submitted: {e}"))?;
    Ok(goal.met(&before, &moves, &game))
}

/// The game of lesson `id`'s exercise `n`: both seats human (the exercise is the solver's one
/// action), settled by its goal when the solver submits.
pub fn exercise_game(id: &str, n: &str, created: String) -> Result<Play, PlayError> {
    let (lesson, i, ex) = exercise(id, n)?;
    let loaded = load(&ex.start)?;
    let solver = loaded.game().to_move();
    let run = PuzzleRun {
        id: format!("lesson:{}:{i}", lesson.id),
        name: format!("{}: {}", lesson.title, i),
        setup_actions: loaded.game().actions().len(),
        mate_in: 1,
        solver: color_name(solver).to_string(),
        status: "playing".into(),
        goal: Some(ex.goal.clone()),
        better: None,
    };
    let human = || Player::Human { name: None };
    let mut play = Play::new(loaded, [human(), human()], None, Some(run), created);
    play.headers.push(("Event".into(), format!("Lesson: {}", lesson.title)));
    play.after_change(true);
    Ok(play)
}
