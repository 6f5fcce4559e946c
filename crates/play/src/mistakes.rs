//! Learn from your mistakes (`GET /api/games/:id/mistakes`, `POST /api/games/:id/mistakes/:n`),
//! as lichess offers after its analysis: each mistake and blunder of a human player that a
//! computer review found becomes a puzzle, the position before it and "find a better action".
//!
//! No one expected action: the engine judges the answer ([`Better::judge`]). An answer is
//! accepted when the player's winning chances after it are within the review's *good* margin
//! of the engine's best, that is when the review would not class it (a drop under 0.1, below
//! an inaccuracy: [`chess5d_engine::review::Class::of`]), measured as the review measures
//! every action: the evaluation of the position the answer reaches, searched within the
//! review's budget, against the evaluation of the position before it. The engine's own best
//! action is accepted and the mistake played refused without a search (the review already
//! searched both). Both doors call this module; they only find the review (the server's
//! table, the static site's memory) and carry the game out.

use crate::error::PlayError;
use crate::game::{Play, Player, PuzzleRun};
use crate::terms::color_name;
use chess5d_engine::review::{Class, Eval, Reviewer, WIN_K};
use chess5d_notation::long;
use chess5d_rules::Position;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The judge of a puzzle made from a reviewed mistake: what the review said of the action and
/// the engine's budget for an answer (kept with the puzzle game, so a reload judges alike).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Better {
    /// The reviewed game.
    pub game: i64,
    /// The mistaken action's index in it (from 0).
    pub index: usize,
    /// `mistake` or `blunder`.
    pub class: String,
    /// The player's win percentage (0..100) before the action: with the engine's best play.
    pub win_best: f64,
    /// The action played, in long form (refused).
    pub played: String,
    /// The action played as the notation writes it (`Nf6`).
    #[serde(default)]
    pub played_text: String,
    /// The engine's best action, in long form (accepted), when the review gave one.
    #[serde(default)]
    pub best: Option<String>,
    /// The engine's best as the notation writes it (shown once the puzzle is over).
    #[serde(default)]
    pub best_text: Option<String>,
    /// The node budget of the search that judges another answer (the review's).
    pub nodes: u64,
    /// The verdict on the answer, once judged.
    #[serde(default)]
    pub answer: Option<Verdict>,
    /// The player's win percentage after an answer as a door searched it beforehand (the static
    /// site's worker, off the page's thread: [`answer_win`]), with the hash of the position it
    /// is of; used by [`Better::judge`] instead of searching again when the answer reached it.
    #[serde(skip)]
    pub given: Option<(u64, f64)>,
}

/// The judge's search: the win percentage of `mover` (who just played) in `after` (the
/// opponent to move), within `nodes` (the review's budget).
pub fn answer_win(mover: chess5d_rules::Color, after: &Position, nodes: u64) -> f64 {
    let mut reviewer = Reviewer::new(crate::review::options(nodes, 16, 1));
    let eval: Eval = reviewer.evaluate(after);
    eval.win_percent(mover, WIN_K)
}

/// The engine's verdict on an answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// The player's win percentage after the answer.
    pub win: f64,
    /// The drop of the player's winning chances from the best (`(win_best - win) / 50`).
    pub drop: f64,
    /// Whether it is accepted (the drop under the good margin).
    pub accepted: bool,
    /// How it was judged: `best` (the engine's best action), `played` (the mistake again) or
    /// `searched`.
    pub by: String,
}

/// The good margin: an answer whose drop of winning chances from the best is under this is not
/// classed by the review (not even an inaccuracy), so it is accepted.
pub fn good(drop: f64) -> bool {
    Class::of(drop).is_none()
}

/// The position an action (long form) reaches from `pos` (submitted); `None` if it does not
/// apply.
fn reached(pos: &Position, action: &str) -> Option<u64> {
    let mut p = pos.clone();
    for m in long::parse_action(action).ok()? {
        let mv = m.resolve(&p).ok()?;
        p.play_unchecked(&mv);
    }
    p.submit_unchecked();
    Some(p.hash())
}

impl Better {
    /// Judges the solver's answer from `before` (the position of the puzzle), which reached
    /// `after` (the opponent to move): the engine's best is accepted and the mistake refused as
    /// the review found them; any other answer by the evaluation of `after` within the
    /// review's budget. The verdict is kept in [`Better::answer`].
    pub fn judge(&mut self, before: &Position, after: &Position) -> &Verdict {
        let hash = after.hash();
        let same = |action: Option<&String>| action.and_then(|a| reached(before, a)) == Some(hash);
        let (win, by) = if same(self.best.as_ref()) {
            (self.win_best, "best")
        } else if same(Some(&self.played)) {
            // The review's own verdict on it: at least a mistake.
            (self.win_best - 50.0 * DROP_PLAYED, "played")
        } else if let Some((_, win)) = self.given.take().filter(|(h, _)| *h == hash) {
            (win, "searched")
        } else {
            (answer_win(before.to_move(), after, self.nodes), "searched")
        };
        let drop = (self.win_best - win) / 50.0;
        self.answer.insert(Verdict {
            win: round2(win),
            drop: (drop * 10_000.0).round() / 10_000.0,
            accepted: by != "played" && good(drop),
            by: by.into(),
        })
    }
}

/// The drop a verdict on the mistake played again shows (a mistake's least: the review classed
/// it).
const DROP_PLAYED: f64 = 0.2;

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The reviewed actions of a review (`GET /api/games/:id/review`'s answer) that are a human
/// player's mistake or blunder in `play`.
fn mistakes<'a>(play: &'a Play, review: &'a Value) -> impl Iterator<Item = &'a Value> + 'a {
    let actions = review["review"]["actions"]
        .as_array()
        .filter(|a| !a.is_empty())
        .or_else(|| review["actions"].as_array());
    actions.into_iter().flatten().filter(move |a| {
        let class = a["class"].as_str().unwrap_or("");
        let human = match a["player"].as_str() {
            Some("white") => !play.players[0].is_engine(),
            Some("black") => !play.players[1].is_engine(),
            _ => false,
        };
        human && (class == "mistake" || class == "blunder")
    })
}

/// `GET /api/games/:id/mistakes`: the puzzles a review (`GET /api/games/:id/review`'s answer,
/// or `None` when the game has none) offers: `{game, status, puzzles: [{index, turn, player,
/// class, played, best, win_before}]}`, in the game's order; `status` is the review's.
pub fn list(play: &Play, game: i64, review: Option<&Value>) -> Value {
    let puzzles: Vec<Value> = review
        .map(|r| {
            mistakes(play, r)
                .map(|a| {
                    json!({
                        "index": a["index"], "turn": a["turn"], "player": a["player"],
                        "class": a["class"], "played": a["played"], "best": a["best"],
                        "win_before": a["win_before"],
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let status = review.and_then(|r| r["status"].as_str()).unwrap_or("none");
    json!({ "game": game, "status": status, "puzzles": puzzles })
}

/// `POST /api/games/:id/mistakes/:n`: the puzzle of the mistake at action `n` (its index, from
/// 0) of game `game`, from its review (`None`: it has none): the position before it, both
/// seats the solver's, judged by [`Better::judge`] with `nodes` nodes when the solver submits.
pub fn puzzle_game(
    play: &Play,
    game: i64,
    review: Option<&Value>,
    n: &str,
    nodes: u64,
    created: String,
) -> Result<Play, PlayError> {
    let missing = |what: String| PlayError::NoMistake { what };
    let review = review.ok_or_else(|| missing(format!("game {game} has no computer review")))?;
    let index = n
        .parse::<usize>()
        .map_err(|_| missing(format!("'{n}' is not an action's index")))?;
    let a = mistakes(play, review)
        .find(|a| a["index"].as_u64() == Some(index as u64))
        .ok_or_else(|| {
            missing(format!(
                "the review of game {game} found no mistake of a player at action {index}"
            ))
        })?;
    let loaded = play.until(game, Some(index))?;
    let even = loaded.game().start().even();
    let pos = loaded.game().position().clone();
    let played = play
        .game
        .actions()
        .get(index)
        .map(|x| long::write_action(&x.moves, even))
        .ok_or_else(|| missing(format!("game {game} has no action {index}")))?;
    let best = a["best_long"].as_str().map(str::to_string);
    let solver = pos.to_move();
    let class = a["class"].as_str().unwrap_or("mistake").to_string();
    let run = PuzzleRun {
        id: format!("mistake:{game}:{index}"),
        name: format!("Your {class} at action {}: find a better action", index + 1),
        setup_actions: index,
        mate_in: 1,
        solver: color_name(solver).to_string(),
        status: "playing".into(),
        goal: None,
        better: Some(Better {
            game,
            index,
            class,
            win_best: a["win_before"].as_f64().unwrap_or(50.0),
            played,
            played_text: a["played"].as_str().unwrap_or("").to_string(),
            best,
            best_text: a["best"].as_str().map(str::to_string),
            nodes,
            answer: None,
            given: None,
        }),
    };
    let human = || Player::Human { name: None };
    let mut p = Play::new(loaded, [human(), human()], None, Some(run), created);
    p.headers
        .push(("Event".into(), format!("Learn from your mistakes: game {game}")));
    p.after_change(true);
    Ok(p)
}
