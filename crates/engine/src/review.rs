//! A computer review of a finished (or unfinished) game, as lichess gives one after every game.
//!
//! Every position of the game's main line is searched once (within [`ReviewOptions`]); the
//! evaluation before an action is its position's score, the one after it the score of the
//! next position. A score becomes an expected score by the logistic curve
//! `p = 1 / (1 + exp(-k * cp))` ([`win_probability`], [`WIN_K`] fitted on our own games, clamped
//! as lichess clamps it), and an
//! action is classed by the drop in its player's *winning chances* `2p - 1` (in -1..1), as
//! lichess classes moves: 0.1 an inaccuracy, 0.2 a mistake, 0.3 a blunder ([`Class::of`]). The
//! accuracy of an action is lichess's `103.1668 * exp(-0.04354 * (w_before - w_after)) -
//! 3.1669` on win percentages `w = 100 p`, clamped to 0..100 ([`action_accuracy`]); a side's
//! accuracy is the mean of its actions' accuracies.
//!
//! [`Reviewer::review`] is the one implementation every door uses (the `chess5d review`
//! command, the Python and JavaScript packages): it reports progress after each position,
//! and a [`Canceller`] stops it from another thread (the actions reviewed so far are kept).
//! [`annotate`] writes a review into a game's tree as lichess writes one into PGN: a comment
//! `[%eval 0.35]` after every action, `?!`, `?` or `??` on the classed ones with a comment
//! naming the best action, and the engine's line as a variation.

use crate::{Engine, EngineOptions, Limits, Score};
use chess5d_notation::{pgn, GameTree, LoadedGame, NodeId};
use chess5d_rules::{Color, Game, Move, Position};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The scale `k` of the curve `p = 1 / (1 + exp(-k * cp))` that turns the engine's evaluation
/// (centipawns, side to move's view) into the side to move's expected score, fitted on our
/// own games.
///
/// Fitted by the tuner's fit of its sigmoid's scale (`tune::fit_k`: the `K` of
/// `1 / (1 + 10^(-K * eval / 400))` that minimises the squared error between the game's result
/// and the static evaluation with the engine's weights, on every position after a game's
/// first two actions whose side to move is not in check) over every game of
/// `data/ladder/records/*.5dpgn` (the ladder's and tuning runs' match records, all variants):
/// `chess5d tune data/ladder/records/*.5dpgn --holdout 0 --iterations 1 --out /dev/null` reads 7,942
/// games, 215,462 positions and prints `K = 0.2085`; `k = K * ln(10) / 400 = 0.0012002`.
/// That is a third of lichess's [`LICHESS_K`] for Stockfish's centipawns: our evaluation's
/// centipawns predict results less sharply (a pawn up is 53% here, 59% there), and many of
/// the ladder's games are draws by the action limit.
pub const WIN_K: f64 = 0.001_200_2;

/// lichess's scale of the same curve, for Stockfish's centipawns (its winning chances are
/// `2 / (1 + exp(-0.00368208 * cp)) - 1`).
pub const LICHESS_K: f64 = 0.003_682_08;

/// The curve is clamped where lichess clamps its own (at 1000 of Stockfish's centipawns):
/// `k * cp` at most this (winning chances 0.951, a win percentage of 97.5). A forced mate
/// counts as this much.
pub const MAX_LOGIT: f64 = 3.682_08;

/// The default search depth per position (in actions).
pub const DEFAULT_DEPTH: u32 = 4;

/// The default cap on the time of one position's search: a position whose search to
/// [`DEFAULT_DEPTH`] would take longer is searched as deep as this allows.
pub const DEFAULT_MOVETIME: Duration = Duration::from_millis(1200);

/// The expected score of an evaluation of `cp` centipawns at scale `k`, `1 / (1 + exp(-k *
/// cp))` with `k * cp` clamped to ±[`MAX_LOGIT`].
pub fn win_probability(cp: f64, k: f64) -> f64 {
    let x = (k * cp).clamp(-MAX_LOGIT, MAX_LOGIT);
    1.0 / (1.0 + (-x).exp())
}

/// Lichess's accuracy of a move that takes its player's win percentage (0..100) from
/// `before` to `after`: `103.1668 * exp(-0.04354 * (before - after)) - 3.1669`, clamped to
/// 0..100.
pub fn action_accuracy(before: f64, after: f64) -> f64 {
    (103.1668 * (-0.04354 * (before - after)).exp() - 3.1669).clamp(0.0, 100.0)
}

/// An evaluation, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns (positive: White is better).
    Cp(i32),
    /// A forced mate in this many actions of the mating side: positive, White mates;
    /// negative, Black mates.
    Mate(i32),
    /// The game is over by checkmate: this side has won.
    Checkmate(Color),
    /// The game is over by stalemate: a draw.
    Stalemate,
}

impl Eval {
    /// The evaluation of a search's score in a position where `to_move` moves.
    pub fn from_score(score: Score, to_move: Color) -> Eval {
        let sign = if to_move == Color::White { 1 } else { -1 };
        match score {
            Score::Cp(c) => Eval::Cp(sign * c),
            Score::Mate(n) => Eval::Mate(sign * n),
        }
    }

    /// White's expected score (0..1) at scale `k`: a game won by checkmate is 1 or 0, a
    /// stalemate 1/2.
    pub fn white_expectation(self, k: f64) -> f64 {
        match self {
            Eval::Checkmate(Color::White) => 1.0,
            Eval::Checkmate(Color::Black) => 0.0,
            Eval::Stalemate => 0.5,
            Eval::Cp(c) => win_probability(f64::from(c), k),
            Eval::Mate(n) => win_probability(if n >= 0 { f64::INFINITY } else { f64::NEG_INFINITY }, 1.0),
        }
    }

    /// `side`'s win percentage (0..100) at scale `k`.
    pub fn win_percent(self, side: Color, k: f64) -> f64 {
        let w = self.white_expectation(k);
        100.0 * if side == Color::White { w } else { 1.0 - w }
    }

    /// The value of a lichess `[%eval ...]` comment: pawns with two decimals (`0.35`,
    /// `-1.20`) or a mate (`#3`, `#-2`); `None` for a game over (lichess writes no evaluation
    /// after the last action).
    pub fn lichess(self) -> Option<String> {
        match self {
            Eval::Cp(c) => Some(format!("{:.2}", f64::from(c) / 100.0)),
            Eval::Mate(n) => Some(format!("#{n}")),
            Eval::Checkmate(_) => None,
            Eval::Stalemate => Some("0.00".to_string()),
        }
    }

    /// As JSON: `{"cp": 35}`, `{"mate": -2}`, `{"checkmate": "white"}` or `{"stalemate": true}`.
    pub fn json(self) -> Value {
        match self {
            Eval::Cp(c) => json!({ "cp": c }),
            Eval::Mate(n) => json!({ "mate": n }),
            Eval::Checkmate(c) => json!({ "checkmate": color_name(c) }),
            Eval::Stalemate => json!({ "stalemate": true }),
        }
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// How bad an action was, by the drop in its player's winning chances.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// A drop of 0.1 or more (`?!`).
    Inaccuracy,
    /// A drop of 0.2 or more (`?`).
    Mistake,
    /// A drop of 0.3 or more (`??`).
    Blunder,
}

impl Class {
    /// The class of a drop in winning chances (`2p - 1`, so in -2..2), if any.
    pub fn of(drop: f64) -> Option<Class> {
        if drop >= 0.3 {
            Some(Class::Blunder)
        } else if drop >= 0.2 {
            Some(Class::Mistake)
        } else if drop >= 0.1 {
            Some(Class::Inaccuracy)
        } else {
            None
        }
    }

    /// Its annotation glyph: `?!`, `?` or `??`.
    pub fn glyph(self) -> &'static str {
        match self {
            Class::Inaccuracy => "?!",
            Class::Mistake => "?",
            Class::Blunder => "??",
        }
    }

    /// Its name: `inaccuracy`, `mistake` or `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }

    /// Its name as a comment starts with: `Inaccuracy`, `Mistake`, `Blunder`.
    pub fn title(self) -> &'static str {
        match self {
            Class::Inaccuracy => "Inaccuracy",
            Class::Mistake => "Mistake",
            Class::Blunder => "Blunder",
        }
    }
}

/// The review of one action.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionReview {
    /// Its index in the main line (from 0).
    pub index: usize,
    /// Its turn number, as the record numbers it.
    pub turn: u32,
    /// Who played it.
    pub player: Color,
    /// Its moves.
    pub played: Vec<Move>,
    /// Its moves in 5DPGN (`(0T3)Nf3`, moves separated by spaces).
    pub played_text: String,
    /// The evaluation before it (of the position it was played in).
    pub before: Eval,
    /// The evaluation after it.
    pub after: Eval,
    /// The engine's best action, when it reaches another position than the action played.
    pub best: Option<Vec<Move>>,
    /// The best action in 5DPGN, when it differs.
    pub best_text: Option<String>,
    /// The engine's line from the position before the action (its best action first), when the
    /// best action differs.
    pub line: Vec<Vec<Move>>,
    /// The line in 5DPGN movetext, numbered as the game's record (`12b. ... 13. ...`).
    pub line_text: Option<String>,
    /// The player's win percentage (0..100) before the action.
    pub win_before: f64,
    /// The player's win percentage after it.
    pub win_after: f64,
    /// Its class, if it lost enough (only an action other than the engine's best is classed).
    pub class: Option<Class>,
    /// Its accuracy, 0..100.
    pub accuracy: f64,
    /// The depth of the search of the position before it.
    pub depth: u32,
    /// The scale of the win probabilities it was reviewed with.
    pub k: f64,
    /// The nodes of that search.
    pub nodes: u64,
}

impl ActionReview {
    /// The drop of its player's winning chances (`2p - 1`): `(before - after) / 50` in win
    /// percentages.
    pub fn drop(&self) -> f64 {
        (self.win_before - self.win_after) / 50.0
    }

    /// As JSON (the graph data of one action).
    pub fn json(&self) -> Value {
        json!({
            "index": self.index,
            "turn": self.turn,
            "player": color_name(self.player),
            "played": self.played_text,
            "before": self.before.json(),
            "after": self.after.json(),
            "best": self.best_text,
            "line": self.line_text,
            "win_before": round2(self.win_before),
            "white_after": round2(self.after.white_expectation(self.k) * 100.0),
            "win_after": round2(self.win_after),
            "drop": round4(self.drop()),
            "class": self.class.map(Class::name),
            "accuracy": round2(self.accuracy),
            "depth": self.depth,
            "nodes": self.nodes,
        })
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// A game's review.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// The actions reviewed, in order.
    pub actions: Vec<ActionReview>,
    /// The number of actions of the game's main line.
    pub total: usize,
    /// The game's result, if it has one (`1-0`, `0-1`, `1/2-1/2`).
    pub result: Option<String>,
    /// The evaluation of the position after the last action reviewed.
    pub last: Option<Eval>,
    /// Whether the review was stopped before its end (then `actions` holds the first ones).
    pub cancelled: bool,
    /// The scale `k` of the win probabilities.
    pub k: f64,
}

impl Review {
    /// `side`'s accuracy: the mean of its actions' accuracies (`None` if it has none).
    pub fn accuracy(&self, side: Color) -> Option<f64> {
        let list: Vec<f64> = self
            .actions
            .iter()
            .filter(|a| a.player == side)
            .map(|a| a.accuracy)
            .collect();
        (!list.is_empty()).then(|| list.iter().sum::<f64>() / list.len() as f64)
    }

    /// How many of `side`'s actions are of `class`.
    pub fn count(&self, side: Color, class: Class) -> usize {
        self.actions
            .iter()
            .filter(|a| a.player == side && a.class == Some(class))
            .count()
    }

    /// As JSON: the graph data (`actions`, each with its evaluation before and after, best
    /// action and line, class and accuracy) and each side's accuracy and counts.
    pub fn json(&self) -> Value {
        let side = |c: Color| {
            json!({
                "accuracy": self.accuracy(c).map(round2),
                "inaccuracies": self.count(c, Class::Inaccuracy),
                "mistakes": self.count(c, Class::Mistake),
                "blunders": self.count(c, Class::Blunder),
            })
        };
        json!({
            "actions": self.actions.iter().map(ActionReview::json).collect::<Vec<_>>(),
            "reviewed": self.actions.len(),
            "total": self.total,
            "result": self.result,
            "cancelled": self.cancelled,
            "k": self.k,
            "white": side(Color::White),
            "black": side(Color::Black),
        })
    }
}

/// The budget and engine of a review.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewOptions {
    /// The limits of each position's search (its depth, time and nodes; the default: at most
    /// [`DEFAULT_DEPTH`] and [`DEFAULT_MOVETIME`]).
    pub limits: Limits,
    /// The engine's options (hash size, threads...).
    pub engine: EngineOptions,
    /// The scale of the win probabilities ([`WIN_K`]).
    pub k: f64,
}

impl Default for ReviewOptions {
    fn default() -> ReviewOptions {
        ReviewOptions {
            limits: Limits {
                depth: Some(DEFAULT_DEPTH),
                movetime: Some(DEFAULT_MOVETIME),
                ..Limits::default()
            },
            engine: EngineOptions::default(),
            k: WIN_K,
        }
    }
}

/// Progress of a review, reported after each position searched.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    /// Positions searched.
    pub searched: usize,
    /// Positions to search (the actions and the final position).
    pub positions: usize,
    /// The action whose review was just completed, if one was.
    pub action: Option<&'a ActionReview>,
}

/// Stops a running review from another thread (see [`Reviewer::canceller`]).
#[derive(Clone, Debug)]
pub struct Canceller {
    cancel: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
}

impl Canceller {
    /// Stops the review: the search under way ends at once and the review returns the actions
    /// reviewed so far, marked cancelled.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether the review was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// Reviews games with one engine.
#[derive(Debug)]
pub struct Reviewer {
    engine: Engine,
    options: ReviewOptions,
    cancel: Arc<AtomicBool>,
}

/// What the search of one position found.
struct Searched {
    eval: Eval,
    best: Option<Vec<Move>>,
    pv: Vec<Vec<Move>>,
    depth: u32,
    nodes: u64,
}

impl Reviewer {
    /// A reviewer with these options.
    pub fn new(options: ReviewOptions) -> Reviewer {
        Reviewer {
            engine: Engine::new(options.engine.clone()),
            options,
            cancel: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Its options.
    pub fn options(&self) -> &ReviewOptions {
        &self.options
    }

    /// A handle that stops its reviews from another thread.
    pub fn canceller(&self) -> Canceller {
        Canceller {
            cancel: Arc::clone(&self.cancel),
            stop: self.engine.stop_flag(),
        }
    }

    /// Reviews the main line of a game (the whole game; an unfinished one is reviewed as far
    /// as it was played), calling `progress` after each position searched. A cancel (see
    /// [`Reviewer::canceller`]) made before or during it ends it; the next review starts
    /// afresh.
    pub fn review(&mut self, game: &LoadedGame, progress: &mut dyn FnMut(&Progress<'_>)) -> Review {
        self.review_game(game.game(), result_of(game), progress)
    }

    /// [`Reviewer::review`] of a game without record: `result` is its result, if any.
    pub fn review_game(
        &mut self,
        game: &Game,
        result: Option<String>,
        progress: &mut dyn FnMut(&Progress<'_>),
    ) -> Review {
        self.engine.new_game();
        let k = self.options.k;
        let tree_start = game.start().clone();
        let actions = game.actions();
        let mut review = Review {
            actions: Vec::with_capacity(actions.len()),
            total: actions.len(),
            result,
            last: None,
            cancelled: false,
            k,
        };
        let positions = actions.len() + 1;
        let mut pos = tree_start.clone();
        // The search of the position before the action under review, and that position.
        let mut before: Option<(Searched, Position)> = None;
        for i in 0..positions {
            if self.cancel.load(Ordering::Relaxed) {
                review.cancelled = true;
                break;
            }
            let searched = self.search(&pos);
            if self.cancel.load(Ordering::Relaxed) {
                review.cancelled = true;
                break;
            }
            let mut done = None;
            if let Some((b, at)) = before.take() {
                let action = &actions[i - 1].moves;
                let reviewed = self.action_review(&tree_start, &at, i - 1, action, &b, &searched);
                review.actions.push(reviewed);
                done = review.actions.last();
            }
            review.last = Some(searched.eval);
            progress(&Progress {
                searched: i + 1,
                positions,
                action: done,
            });
            if let Some(a) = actions.get(i) {
                before = Some((searched, pos.clone()));
                for m in &a.moves {
                    pos.play_unchecked(m);
                }
                pos.submit_unchecked();
            }
        }
        // A cancel ends this review only: the next one starts afresh.
        self.cancel.store(false, Ordering::Relaxed);
        self.engine.stop_flag().store(false, Ordering::Relaxed);
        review
    }

    /// The evaluation of one position within the review's budget, as the review evaluates
    /// each position of a game (a position without a legal action: checkmate or stalemate):
    /// what judges an answer to a puzzle made from a reviewed mistake.
    pub fn evaluate(&mut self, pos: &Position) -> Eval {
        self.engine.new_game();
        let eval = self.search(pos).eval;
        self.engine.stop_flag().store(false, Ordering::Relaxed);
        eval
    }

    fn search(&mut self, pos: &Position) -> Searched {
        let r = self.engine.search(pos, &self.options.limits, &mut |_| {});
        let eval = match r.best {
            Some(_) => Eval::from_score(r.score, pos.to_move()),
            None if pos.in_check() => Eval::Checkmate(pos.to_move().other()),
            None => Eval::Stalemate,
        };
        Searched {
            eval,
            best: r.best,
            pv: r.pv,
            depth: r.depth,
            nodes: r.nodes,
        }
    }

    /// The review of the action `index` (its moves `played`, from `pos`), from the searches of
    /// the positions before and after it; `start` is the game's start.
    fn action_review(
        &self,
        start: &Position,
        pos: &Position,
        index: usize,
        played: &[Move],
        before: &Searched,
        after: &Searched,
    ) -> ActionReview {
        let k = self.options.k;
        let (turn, player) = chess5d_notation::serial(start, index);
        let played_text = pgn::write_line(pos, (turn, player), &[played.to_vec()]);
        let played_text = strip_serial(&played_text);
        let win_before = before.eval.win_percent(player, k);
        let win_after = after.eval.win_percent(player, k);
        // The engine's best action, when it reaches another position than the one played.
        let differs = before.best.as_ref().is_some_and(|b| {
            let reached = |moves: &[Move]| {
                let mut p = pos.clone();
                for m in moves {
                    p.play_unchecked(m);
                }
                p.submit_unchecked();
                p.hash()
            };
            reached(b) != reached(played)
        });
        let (best, best_text, line, line_text) = if differs {
            let best = before.best.clone().expect("differs only with a best action");
            let mut line = before.pv.clone();
            if line.first() != Some(&best) {
                line = vec![best.clone()];
            }
            let first = pgn::write_line(pos, (turn, player), &line[..1]);
            let text = pgn::write_line(pos, (turn, player), &line);
            (Some(best), Some(strip_serial(&first)), line, Some(text))
        } else {
            (None, None, Vec::new(), None)
        };
        let drop = (win_before - win_after) / 50.0;
        let class = if differs { Class::of(drop) } else { None };
        ActionReview {
            index,
            turn,
            player,
            played: played.to_vec(),
            played_text,
            before: before.eval,
            after: after.eval,
            best,
            best_text,
            line,
            line_text,
            win_before,
            win_after,
            class,
            accuracy: action_accuracy(win_before, win_after),
            depth: before.depth,
            nodes: before.nodes,
            k,
        }
    }
}

/// The moves of a one-action line without its serial (`12. ` or `12b. `).
fn strip_serial(text: &str) -> String {
    match text.split_once(". ") {
        Some((serial, rest)) if serial.trim_end_matches(['b', 'w']).chars().all(|c| c.is_ascii_digit()) => {
            rest.to_string()
        }
        _ => text.to_string(),
    }
}

/// A game's result, from its headers or the token after its moves (only `1-0`, `0-1`,
/// `1/2-1/2`).
pub fn result_of(game: &LoadedGame) -> Option<String> {
    game.header("Result")
        .map(str::to_string)
        .or_else(|| game.result.clone())
        .filter(|r| crate::tune::white_score(r).is_some())
}

/// Whether a comment is one a review writes (`[%eval ...]`, or a class's note), so that a
/// review of a reviewed game replaces them.
pub fn is_review_comment(comment: &str) -> bool {
    let c = comment.trim_start();
    c.starts_with("[%eval")
        || (c.starts_with('(')
            && c.contains(" → ")
            && [Class::Inaccuracy, Class::Mistake, Class::Blunder]
                .iter()
                .any(|k| c.contains(&format!(") {}. ", k.title()))))
}

/// The game with the review written into its tree as lichess writes a review into PGN: after
/// every action reviewed a comment `[%eval 0.35]` (White's view, in pawns; `#3` a mate), on a
/// classed action its glyph (`?!`, `?`, `??`) and a comment `(0.23 → -0.40) Inaccuracy.
/// (0T2)Nc3 was best.`, and the engine's line: as a variation (an alternative to the action)
/// if `variations`, else at the end of that comment (`Line: 2. (0T2)Nc3 / ...`), which every
/// 5DPGN reader skips (5d-chess-js 1.2.1 plays a variation's actions as the main line's).
/// Comments of an earlier review are replaced; other comments and variations are kept.
pub fn annotate(game: &LoadedGame, review: &Review, variations: bool) -> LoadedGame {
    let mut out = game.clone();
    let tree = out.tree_mut();
    let main: Vec<NodeId> = tree.main_line();
    for a in &review.actions {
        let Some(&node) = main.get(a.index) else { continue };
        let parent = tree.parent(node).unwrap_or(GameTree::ROOT);
        let moves = a.played.len().max(1);
        let mut comments: Vec<(usize, String)> = tree
            .comments(node)
            .iter()
            .filter(|(_, c)| !is_review_comment(c))
            .cloned()
            .collect();
        if let Some(e) = a.after.lichess() {
            comments.push((moves, format!("[%eval {e}]")));
        }
        let mut glyphs: Vec<(usize, String)> = tree
            .glyphs(node)
            .iter()
            .filter(|(_, g)| !matches!(g.as_str(), "?!" | "?" | "??"))
            .cloned()
            .collect();
        if let Some(class) = a.class {
            glyphs.retain(|(k, _)| *k != moves);
            glyphs.push((moves, class.glyph().to_string()));
            let arrow = |e: Eval| e.lichess().unwrap_or_else(|| "#".to_string());
            let best = a.best_text.as_deref().unwrap_or("?");
            let mut note = format!(
                "({} → {}) {}. {best} was best.",
                arrow(a.before),
                arrow(a.after),
                class.title()
            );
            if let Some(line) = a.line_text.as_deref().filter(|_| !variations) {
                note.push_str(&format!(" Line: {line}"));
            }
            comments.push((moves, note));
            // The engine's line as a variation from the position the action was played in.
            let mut at = parent;
            let line = if variations { &a.line[..] } else { &[] };
            for (i, step) in line.iter().enumerate() {
                match tree.play(at, step, false) {
                    Ok(n) => at = n,
                    Err(_) => break,
                }
                if i == 0 && at == node {
                    break;
                }
            }
        }
        tree.set_comments(node, comments);
        tree.set_glyphs(node, glyphs);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serials_are_stripped() {
        assert_eq!(strip_serial("12. (0T12)Nf3"), "(0T12)Nf3");
        assert_eq!(strip_serial("3b. e5"), "e5");
    }
}
