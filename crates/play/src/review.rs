//! The computer review of a game as the doors run it (`GET/POST/DELETE /api/games/:id/review`):
//! who may ask for one ([`Play::check_review`]), its budget ([`options`]) and the state a door
//! keeps of it while it runs and after ([`ReviewRun`], whose JSON both doors answer with). The
//! review itself is [`chess5d_engine::review::Reviewer`]: the server runs it as a budgeted job on
//! a thread of its own, the static site in a Web Worker.

use crate::error::PlayError;
use crate::game::Play;
use crate::seats::Rights;
use chess5d_engine::review::{ActionReview, ReviewOptions, DEFAULT_DEPTH, DEFAULT_MOVETIME};
use chess5d_engine::{EngineOptions, Limits};
use chess5d_rules::{Game, Position};
use serde_json::{json, Value};

/// The default node budget of one position's search in a review (the server's limit
/// `review-nodes`, the static site's budget): with the default depth
/// ([`DEFAULT_DEPTH`]) and time cap ([`DEFAULT_MOVETIME`]) a 40-action game reviews in well under
/// a minute on one core.
pub const REVIEW_NODES: u64 = 200_000;

/// The budget of a review: each position searched to [`DEFAULT_DEPTH`], at most
/// [`DEFAULT_MOVETIME`] and `nodes` nodes (of the first thread), by `threads` threads with a hash
/// table of `hash_mb` MB.
pub fn options(nodes: u64, hash_mb: usize, threads: usize) -> ReviewOptions {
    ReviewOptions {
        limits: Limits {
            depth: Some(DEFAULT_DEPTH),
            movetime: Some(DEFAULT_MOVETIME),
            nodes: Some(nodes.max(1)),
            ..Limits::default()
        },
        engine: EngineOptions {
            hash_mb: hash_mb.max(1),
            threads: threads.max(1),
            ..EngineOptions::default()
        },
        ..ReviewOptions::default()
    }
}

impl Play {
    /// Refuses a review the requester may not have: of a game without a submitted action, or of
    /// a game still being played by someone the requester is not (a review would be an engine's
    /// help in the game: an online opponent, a puzzle being solved). A finished game may be
    /// reviewed by anyone who sees it; an unfinished one by whoever holds every human side
    /// (one person's game against the engine or at one board, an imported game).
    pub fn check_review(&self, rights: Rights) -> Result<(), PlayError> {
        if self.game.actions().is_empty() {
            return Err(PlayError::NothingToReview);
        }
        if self.engine_help_refused(rights) {
            return Err(PlayError::ReviewWhilePlaying);
        }
        Ok(())
    }

    /// Whether the engine may not help the holder of `rights` with this game now (fair play):
    /// the game goes on and a human side is not theirs (an online opponent; a spectator), or
    /// it is a puzzle being solved. Reviews made from the game ask this.
    pub fn engine_help_refused(&self, rights: Rights) -> bool {
        if self.is_over() {
            return false;
        }
        let solving = self.puzzle.as_ref().is_some_and(|p| p.status == "playing");
        let others = (0..2).any(|i| !self.players[i].is_engine() && !rights.sides[i]);
        solving || others
    }
}

/// Writes the reviews of a game's actions, reported in order, as the doors answer them:
/// [`ActionReview::json`] with `pv`, the engine's line from the position before the action
/// ([`crate::text::pv_json`]: each action's colour, text and moves with their coordinates, for the
/// page's arrows; empty when the action played was the engine's choice), and `best_long`, its
/// best action in long form (for [`crate::mistakes`]), and `missed_mate` N when the player had
/// a forced mate in N (at most [`crate::mates::REVIEW_MAX`]) and the action gave it up
/// ([`crate::mates::missed_mate`]).
#[derive(Debug)]
pub struct ActionWriter {
    pos: Position,
    actions: Vec<Vec<chess5d_rules::Move>>,
    next: usize,
}

impl ActionWriter {
    /// For the actions of `game` (its submitted ones).
    pub fn new(game: &Game) -> ActionWriter {
        ActionWriter {
            pos: game.start().clone(),
            actions: game.actions().iter().map(|a| a.moves.clone()).collect(),
            next: 0,
        }
    }

    /// The JSON of the review of action `a` (after those before it).
    pub fn json(&mut self, a: &ActionReview) -> Value {
        while self.next < a.index && self.next < self.actions.len() {
            for m in &self.actions[self.next] {
                self.pos.play_unchecked(m);
            }
            self.pos.submit_unchecked();
            self.next += 1;
        }
        let mut v = a.json();
        v["pv"] = json!(crate::text::pv_json(&self.pos, &a.line));
        // The engine's best in long form: what a puzzle made from this action accepts at once.
        if let Some(best) = &a.best {
            v["best_long"] = json!(chess5d_notation::long::write_action(best, self.pos.even()));
        }
        // A short forced mate the player had and did not keep, proven by the solver (within
        // its budget: else nothing is said).
        if let Some(played) = self.actions.get(a.index) {
            if let Some(n) = crate::mates::missed_mate(&self.pos, played, &crate::mates::Effort::review()) {
                v["missed_mate"] = json!(n);
            }
        }
        v
    }
}

/// Where a review stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReviewStatus {
    /// Searching.
    Running,
    /// Every action reviewed.
    Done,
    /// Stopped before its end (asked, replaced by a newer one, its page gone, the server
    /// stopping): the actions reviewed so far are kept.
    Cancelled,
    /// The review could not run.
    Failed,
}

impl ReviewStatus {
    /// Its name in the API: `running`, `done`, `cancelled`, `failed`.
    pub fn name(self) -> &'static str {
        match self {
            ReviewStatus::Running => "running",
            ReviewStatus::Done => "done",
            ReviewStatus::Cancelled => "cancelled",
            ReviewStatus::Failed => "failed",
        }
    }
}

/// A door's record of one game's review: its progress while it runs, then its result.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewRun {
    /// Where it stands.
    pub status: ReviewStatus,
    /// Positions searched so far.
    pub searched: usize,
    /// Positions to search (the actions and the final position).
    pub positions: usize,
    /// The actions reviewed so far (each [`chess5d_engine::review::ActionReview::json`]).
    pub actions: Vec<Value>,
    /// The whole review ([`chess5d_engine::review::Review::json`]) once it has ended.
    pub review: Option<Value>,
    /// Why it failed or was cancelled.
    pub reason: Option<String>,
    /// The node budget of each position.
    pub nodes: u64,
}

impl ReviewRun {
    /// A review of `actions` actions starting, with `nodes` nodes per position.
    pub fn start(actions: usize, nodes: u64) -> ReviewRun {
        ReviewRun {
            status: ReviewStatus::Running,
            searched: 0,
            positions: actions + 1,
            actions: Vec::new(),
            review: None,
            reason: None,
            nodes,
        }
    }

    /// A position searched; `action` the review of the action it completed, if one.
    pub fn progress(&mut self, searched: usize, positions: usize, action: Option<Value>) {
        self.searched = searched;
        self.positions = positions;
        self.actions.extend(action);
    }

    /// The review ended with `review` ([`chess5d_engine::review::Review::json`]); `reason` says
    /// why it stopped early, if it did (its `cancelled` is true).
    pub fn finish(&mut self, review: Value, reason: Option<String>) {
        let cancelled = review["cancelled"].as_bool().unwrap_or(false);
        self.status = if cancelled {
            ReviewStatus::Cancelled
        } else {
            ReviewStatus::Done
        };
        self.reason = if cancelled {
            Some(reason.unwrap_or_else(|| "stopped".into()))
        } else {
            None
        };
        let mut review = review;
        // The actions as reported (with their lines' moves), unless some were not.
        match review["actions"].as_array() {
            Some(a) if a.len() == self.actions.len() => review["actions"] = json!(self.actions),
            Some(a) => self.actions.clone_from(a),
            None => {}
        }
        self.review = Some(review);
    }

    /// The review could not run.
    pub fn fail(&mut self, reason: String) {
        self.status = ReviewStatus::Failed;
        self.reason = Some(reason);
    }

    /// Whether it is still searching.
    pub fn running(&self) -> bool {
        self.status == ReviewStatus::Running
    }

    /// The answer of `GET /api/games/:id/review`: `{game, status, searched, positions,
    /// actions, review, reason, budget}` (`actions`: those reviewed so far, each as in
    /// `review.actions`; `review`: the whole review once it has ended, else null).
    pub fn json(&self, game: i64) -> Value {
        json!({
            "game": game,
            "status": self.status.name(),
            "searched": self.searched,
            "positions": self.positions,
            "actions": self.actions,
            "review": self.review,
            "reason": self.reason,
            "budget": { "depth": DEFAULT_DEPTH, "movetime_ms": DEFAULT_MOVETIME.as_millis() as u64, "nodes": self.nodes },
        })
    }

    /// The answer for a game never reviewed (status `none`).
    pub fn none_json(game: i64) -> Value {
        json!({
            "game": game, "status": "none", "searched": 0, "positions": 0, "actions": [],
            "review": null, "reason": null, "budget": null,
        })
    }

    /// Reads back a run stored by a door as [`ReviewRun::json`] (only ended ones are kept).
    pub fn from_json(v: &Value) -> Option<ReviewRun> {
        let review = v.get("review").filter(|r| r.is_object())?.clone();
        let mut run = ReviewRun::start(0, v["budget"]["nodes"].as_u64().unwrap_or(REVIEW_NODES));
        run.searched = v["searched"].as_u64().unwrap_or(0) as usize;
        run.positions = v["positions"].as_u64().unwrap_or(0) as usize;
        run.finish(review, v["reason"].as_str().map(str::to_string));
        Some(run)
    }
}
