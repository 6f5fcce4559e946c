//! A game being played, without I/O: rules state, players, clock, result, and the JSON view the
//! server's API and the browser's local back-end both answer with (API.md). Time comes from
//! `web-time` (std's `Instant` natively, `performance.now()` in the browser).
#![deny(missing_docs)]

mod error;
pub mod proof;
pub mod request;
pub mod seats;
mod service;
mod view;

pub use error::{ErrorKind, PlayError};
pub use service::{Effects, Record, Think, ThinkBudget};
pub use view::{view_text, view_value, View};

use chess5d_engine::{Bot, Score};
use chess5d_notation::pgn::Movetext;
use chess5d_notation::{san, write_5dfen, GameTree, LoadedGame};
use chess5d_rules::{Budget, Color, Coord, Game, Move, Outcome, Position};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use web_time::Instant;

/// The longest player or puzzle name, in characters.
pub const MAX_NAME: usize = 60;

/// A chess clock: remaining time per side, increment.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Clock {
    /// Time per side at the start.
    pub initial_ms: u64,
    /// Added after each action.
    pub increment_ms: u64,
    /// White's and Black's remaining time when their turn started.
    pub remaining_ms: [i64; 2],
    /// When the running side's turn started.
    #[serde(skip)]
    pub turn_started: Option<Instant>,
}

impl Clock {
    /// A clock with `initial_ms` per side, not running.
    pub fn new(initial_ms: u64, increment_ms: u64) -> Clock {
        Clock {
            initial_ms,
            increment_ms,
            remaining_ms: [initial_ms as i64; 2],
            turn_started: None,
        }
    }

    /// Remaining time of `c` now.
    pub fn now_ms(&self, c: Color, to_move: Color) -> i64 {
        let base = self.remaining_ms[c.index()];
        match self.turn_started {
            Some(t) if c == to_move => base - t.elapsed().as_millis() as i64,
            _ => base,
        }
    }
}

/// Who plays one side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum Player {
    /// A person at the browser.
    Human {
        /// Display name.
        #[serde(default)]
        name: Option<String>,
    },
    /// A configured engine.
    Engine {
        /// The engine's configured name.
        #[serde(default)]
        engine: Option<String>,
        /// `random`, `greedy` or `alphabeta`.
        #[serde(default)]
        bot: Option<String>,
        /// Time per action in milliseconds (without a clock).
        #[serde(default)]
        movetime_ms: Option<u64>,
    },
}

impl Player {
    /// Whether an engine plays this side.
    pub fn is_engine(&self) -> bool {
        matches!(self, Player::Engine { .. })
    }

    /// The name shown for this side.
    pub fn display(&self) -> String {
        match self {
            Player::Human { name } => name
                .clone()
                .filter(|n| !n.trim().is_empty())
                .unwrap_or_else(|| "Human".into()),
            Player::Engine { engine, bot, .. } => format!(
                "{} ({})",
                engine.clone().unwrap_or_default(),
                bot.clone().unwrap_or_else(|| "alphabeta".into())
            ),
        }
    }

    /// The engine's kind (alpha-beta unless named).
    pub fn bot(&self) -> Bot {
        match self {
            Player::Engine { bot: Some(b), .. } => Bot::from_name(b).unwrap_or_default(),
            _ => Bot::AlphaBeta,
        }
    }
}

/// A puzzle attempt.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PuzzleRun {
    /// The puzzle's id.
    pub id: String,
    /// The puzzle's name.
    pub name: String,
    /// Actions of the record before the puzzle starts.
    pub setup_actions: usize,
    /// How many actions the solver has.
    pub mate_in: usize,
    /// The side solving it (`white` or `black`).
    pub solver: String,
    /// `playing`, `solved` or `failed`.
    pub status: String,
}

/// One game in memory.
#[derive(Clone, Debug)]
pub struct Play {
    /// When the game was made (UTC, `YYYY-MM-DD HH:MM:SS`).
    pub created: String,
    /// The variant name (`custom` for other starts).
    pub variant: String,
    /// The start position as 5DFEN.
    pub start_text: String,
    /// Headers kept from an imported record.
    pub headers: Vec<(String, String)>,
    /// The rules state.
    pub game: Game,
    /// White's and Black's players.
    pub players: [Player; 2],
    /// `1-0`, `0-1`, `1/2-1/2` or `*` once over.
    pub result: Option<String>,
    /// Why the game ended.
    pub termination: Option<String>,
    /// The clock, if the game has one.
    pub clock: Option<Clock>,
    /// The puzzle being solved, if any.
    pub puzzle: Option<PuzzleRun>,
    /// Bumped on every change; engine answers for an older version are dropped.
    pub version: u64,
    /// The version of the last change everyone sees (not a try of the side to move).
    public_at: u64,
    /// Whether an engine is searching for this game.
    pub engine_busy: bool,
    /// Since when (set whenever the engine is given its turn; read only while `engine_busy`).
    pub thinking_since: Option<Instant>,
    /// The last engine failure.
    pub engine_error: Option<String>,
    /// The last message of the engine search (score, depth).
    pub engine_info: Option<String>,
    /// Cached: whether the side to move is in check and the checking move.
    check: Option<(Coord, Coord)>,
    /// The side offering a draw, until the other side answers or plays.
    pub draw_offer: Option<Color>,
    /// The side whose draw offer was last declined (or lapsed when the other side played on),
    /// until it offers again or plays: its page says so.
    pub draw_declined: Option<Color>,
    /// Cached 5DPGN and action texts (rebuilt when an action is submitted or the game ends).
    pgn_text: String,
    texts: view::ActionTexts,
    /// The main line in 5DPGN, written an action at a time.
    movetext: Movetext,
    /// The actions in long form, one per line, written an action at a time (what the server
    /// stores).
    long_actions: String,
    /// The pieces of every board shown, as JSON.
    pieces: view::PieceCache,
}

/// The color's name in the API (`white`, `black`).
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A move as the API writes it (from, to, long form, kind...).
pub fn move_json(pos: &Position, m: &Move) -> Value {
    serde_json::to_value(view::MoveView::new(pos, m)).unwrap_or(Value::Null)
}

/// The variant name of a start position (`custom` if none).
pub fn variant_name(start: &Position) -> String {
    chess5d_notation::start::variant_of(start).map_or_else(|| "custom".to_string(), |v| v.name.to_string())
}

impl Play {
    /// A new game from a loaded record (its actions are kept).
    pub fn new(
        loaded: LoadedGame,
        players: [Player; 2],
        clock: Option<Clock>,
        puzzle: Option<PuzzleRun>,
        created: String,
    ) -> Play {
        // An imported record keeps its headers (Event, Date, Site...); White and Black name
        // the human players, the result and termination are the game's own.
        let written = ["White", "Black", "Result", "Termination"];
        let mut headers: Vec<(String, String)> = loaded
            .headers
            .iter()
            .filter(|(k, _)| !written.iter().any(|h| h.eq_ignore_ascii_case(k)))
            .cloned()
            .collect();
        let mut players = players;
        for (p, side) in players.iter_mut().zip(["White", "Black"]) {
            if let (Player::Human { name: name @ None }, Some(n)) = (&mut *p, loaded.header(side)) {
                *name = Some(n.chars().take(60).collect());
            }
        }
        if loaded.header("Date").is_none() {
            headers.push(("Date".into(), created[..10].replace('-', ".")));
        }
        let mut s = Play {
            variant: variant_name(&loaded.start),
            start_text: write_5dfen(&loaded.start),
            created,
            headers,
            clock,
            puzzle,
            ..Play::with_defaults(loaded.game, players)
        };
        s.after_change(true);
        if let Some(c) = &mut s.clock {
            c.turn_started = Some(Instant::now());
        }
        s
    }

    /// A session of `game` with everything else empty and the runtime state (version, engine
    /// flags, caches) at its start values; the constructors fill in the rest.
    pub fn with_defaults(game: Game, players: [Player; 2]) -> Play {
        let movetext = Movetext::new(game.start());
        Play {
            created: String::new(),
            variant: String::new(),
            start_text: String::new(),
            headers: Vec::new(),
            game,
            players,
            result: None,
            termination: None,
            clock: None,
            puzzle: None,
            version: 1,
            public_at: 1,
            engine_busy: false,
            thinking_since: None,
            engine_error: None,
            engine_info: None,
            check: None,
            draw_offer: None,
            draw_declined: None,
            pgn_text: String::new(),
            texts: view::ActionTexts::default(),
            movetext,
            long_actions: String::new(),
            pieces: view::PieceCache::default(),
        }
    }

    /// A move of the current action in long form, read in the position now (not yet played).
    fn read_move(&self, text: &str) -> Result<Move, PlayError> {
        let lm: chess5d_notation::LongMove =
            text.trim()
                .parse()
                .map_err(|e: chess5d_notation::ParseError| PlayError::BadMove {
                    text: text.to_string(),
                    reason: e.to_string(),
                })?;
        lm.resolve(self.game.position()).map_err(|e| PlayError::IllegalMove {
            text: text.to_string(),
            reason: e.to_string(),
        })
    }

    /// Plays a stored move of the current action (no turn checks).
    pub fn play_unchecked_text(&mut self, text: &str) -> Result<(), PlayError> {
        let mv = self.read_move(text)?;
        self.game.make_move(&mv).map_err(|e| PlayError::IllegalMove {
            text: text.to_string(),
            reason: e.to_string(),
        })?;
        self.after_change(false);
        Ok(())
    }

    /// Whether the game has a result.
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.game.to_move()
    }

    /// Whether the side to move is an engine that should be asked for an action.
    pub fn engine_to_move(&self) -> bool {
        !self.is_over() && self.players[self.to_move().index()].is_engine()
    }

    fn require_human_turn(&self) -> Result<(), PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver {
                termination: self.termination.clone(),
            });
        }
        if self.players[self.to_move().index()].is_engine() {
            return Err(PlayError::EngineTurn);
        }
        Ok(())
    }

    /// Updates cached check info and, after a submitted action, the result.
    pub fn after_change(&mut self, submitted: bool) {
        self.version += 1;
        if submitted {
            self.public_at = self.version;
        }
        let pos = self.game.position();
        self.check = pos.checking_move();
        if submitted && self.result.is_none() && pos.action_len() == 0 {
            let mover = pos.to_move();
            match pos.outcome(Budget::DEFAULT) {
                Outcome::Checkmate => {
                    self.finish(if mover == Color::White { "0-1" } else { "1-0" }, "checkmate");
                }
                Outcome::Stalemate => self.finish("1/2-1/2", "stalemate"),
                _ => {}
            }
        }
        if submitted {
            self.refresh_texts();
        }
    }

    /// Brings the cached texts up to date: the actions submitted since the last call are
    /// written (from the start again when actions were taken back), then the 5DPGN.
    fn refresh_texts(&mut self) {
        let n = self.game.actions().len();
        if self.movetext.len() > n {
            self.movetext = Movetext::new(self.game.start());
            self.texts = view::ActionTexts::default();
            self.long_actions.clear();
        }
        let start = self.game.start();
        let first = start.present_turn().max(0) as usize;
        let offset = usize::from(start.to_move() == Color::Black);
        while self.movetext.len() < n {
            let i = self.movetext.len();
            let moves = &self.game.actions()[i].moves;
            self.long_actions
                .push_str(&chess5d_notation::long::write_action(moves, start.even()));
            self.long_actions.push('\n');
            let before = self.movetext.position();
            let color = before.to_move();
            if i + 1 == n {
                let last: Vec<_> = moves.iter().map(|m| view::MoveView::new(before, m)).collect();
                self.texts.last = view::raw(&last);
            }
            let mate = i + 1 == n && self.termination.as_deref() == Some("checkmate");
            // As 5DPGN writes them (`+` on an action that gives check, `#` on the one that
            // mated), without the `~` of jumps that move the present back.
            let text = self.movetext.push(moves, mate).join(" ").replace('~', "");
            let entry =
                json!({ "index": i + 1, "number": first + (i + offset) / 2, "color": color_name(color), "text": text });
            self.texts.push(&entry);
        }
        self.pgn_text = self.build_pgn();
    }

    /// Ends the game with `result` (first result wins), stops the clock, settles a puzzle.
    pub fn finish(&mut self, result: &str, termination: &str) {
        if self.result.is_some() {
            return;
        }
        self.result = Some(result.to_string());
        self.termination = Some(termination.to_string());
        if let Some(c) = &mut self.clock {
            let tm = self.game.to_move();
            c.remaining_ms[tm.index()] = c.now_ms(tm, tm);
            c.turn_started = None;
        }
        if let Some(p) = &mut self.puzzle {
            if p.status == "playing" {
                let solver_won = (result == "1-0" && p.solver == "white") || (result == "0-1" && p.solver == "black");
                p.status = if solver_won { "solved" } else { "failed" }.to_string();
            }
        }
        self.bump();
        self.refresh_texts();
    }

    /// The pseudo-legal moves of the piece on `(l, t, square)`.
    pub fn moves_from(&self, l: i32, t: i32, square: &str) -> Result<Value, PlayError> {
        let pos = self.game.position();
        let sq = chess5d_rules::Square::parse(square)
            .filter(|s| pos.size().contains(s.x(), s.y()))
            .ok_or_else(|| PlayError::BadSquare {
                square: square.to_string(),
            })?;
        let id = chess5d_rules::BoardId::new(l, t);
        if pos.board(id).is_none() {
            return Err(PlayError::NoBoard { l, t });
        }
        let mut all = Vec::new();
        if pos.is_playable(id) && !self.is_over() {
            pos.moves_from(id, &mut all);
        }
        let moves: Vec<Value> = all
            .iter()
            .filter(|m| m.from.square == sq)
            .filter(|m| !pos.action_moves().any(|p| p.from.board == m.from.board))
            .map(|m| move_json(pos, m))
            .collect();
        Ok(json!({ "from": pos.coord_name(chess5d_rules::Coord::new(l, t, sq)), "moves": moves }))
    }

    /// Plays one move of the current action, given in long form.
    pub fn play(&mut self, text: &str) -> Result<(), PlayError> {
        self.require_human_turn()?;
        let mv = self.read_move(text)?;
        let pos = self.game.position();
        if pos.action_moves().any(|p| p.from.board == mv.from.board) {
            return Err(PlayError::IllegalMove {
                text: text.to_string(),
                reason: format!(
                    "board {} was already played in this action",
                    pos.board_name(mv.from.board)
                ),
            });
        }
        self.game.make_move(&mv).map_err(|e| PlayError::IllegalMove {
            text: text.to_string(),
            reason: e.to_string(),
        })?;
        self.after_change(false);
        Ok(())
    }

    /// Takes back the last move of the current action.
    pub fn undo(&mut self) -> Result<(), PlayError> {
        self.require_human_turn()?;
        if self.game.undo_move().is_none() {
            return Err(PlayError::NothingToUndo);
        }
        self.after_change(false);
        Ok(())
    }

    /// Takes back the last action played after the first `floor` (the analysis board's "Take
    /// back": the game it branched from stays), with the moves of the action being built; the
    /// result of a line that ended is forgotten with it.
    pub fn take_back(&mut self, floor: usize) -> Result<(), PlayError> {
        if self.game.actions().len() <= floor {
            return Err(PlayError::NothingToTakeBack);
        }
        while self.game.undo_move().is_some() {}
        self.game.undo_action();
        self.result = None;
        self.termination = None;
        self.after_change(false);
        self.bump();
        self.refresh_texts();
        Ok(())
    }

    /// Submits the current action (by a human).
    pub fn submit(&mut self) -> Result<(), PlayError> {
        self.require_human_turn()?;
        self.game
            .position()
            .can_submit()
            .map_err(|e| PlayError::CannotSubmit { reason: e.to_string() })?;
        self.submit_checked()
    }

    /// Submits after the check was done; handles clock and puzzle accounting.
    fn submit_checked(&mut self) -> Result<(), PlayError> {
        let mover = self.to_move();
        if self.draw_offer == Some(mover.other()) {
            // Playing on declines the opponent's offer.
            self.draw_offer = None;
            self.draw_declined = Some(mover.other());
        } else if self.draw_declined == Some(mover) {
            // The side told of a declined offer has played on.
            self.draw_declined = None;
        }
        self.game
            .submit()
            .map_err(|e| PlayError::CannotSubmit { reason: e.to_string() })?;
        if let Some(c) = &mut self.clock {
            let left = c.now_ms(mover, mover) + c.increment_ms as i64;
            c.remaining_ms[mover.index()] = left;
            c.turn_started = Some(Instant::now());
        }
        self.after_change(true);
        if let Some(p) = &mut self.puzzle {
            if p.status == "playing" && self.result.is_none() && color_name(mover) == p.solver {
                let used = self.game.actions().len().saturating_sub(p.setup_actions).div_ceil(2);
                if used >= p.mate_in {
                    // A failed puzzle is over without being a lost game.
                    p.status = "failed".into();
                    self.finish("*", "puzzle failed");
                }
            }
        }
        Ok(())
    }

    /// Plays and submits an engine's action.
    pub fn engine_action(&mut self, moves: &[Move]) -> Result<(), PlayError> {
        for m in moves {
            self.game
                .make_move(m)
                .map_err(|e| PlayError::internal(format!("engine move {m}: {e}")))?;
        }
        if let Err(e) = self.game.position().can_submit() {
            while self.game.undo_move().is_some() {}
            return Err(PlayError::internal(format!("engine action cannot be submitted: {e}")));
        }
        self.submit_checked()
    }

    /// Resigns for `color` (default: the side to move).
    pub fn resign(&mut self, color: Option<Color>) -> Result<(), PlayError> {
        if self.is_over() {
            return Err(PlayError::AlreadyOver);
        }
        let c = color.unwrap_or(self.to_move());
        self.finish(if c == Color::White { "0-1" } else { "1-0" }, "resignation");
        Ok(())
    }

    fn require_live(&self) -> Result<(), PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver {
                termination: self.termination.clone(),
            });
        }
        Ok(())
    }

    /// Aborts the game for `c`, allowed until `c` has submitted an action: no result counts.
    pub fn abort(&mut self, c: Color) -> Result<(), PlayError> {
        self.require_live()?;
        let start_mover = self.game.start().to_move();
        let n = self.game.actions().len();
        let played = if c == start_mover { n >= 1 } else { n >= 2 };
        if played {
            return Err(PlayError::TooLateToAbort { color: c });
        }
        self.finish("*", "aborted");
        Ok(())
    }

    /// Offers a draw for `c` (or accepts the other side's offer).
    pub fn offer_draw(&mut self, c: Color) -> Result<(), PlayError> {
        self.require_live()?;
        if self.players[c.other().index()].is_engine() {
            return Err(PlayError::EngineRefusesDraws);
        }
        match self.draw_offer {
            Some(o) if o == c => Err(PlayError::DrawAlreadyOffered { color: c }),
            Some(_) => self.accept_draw(c),
            None => {
                self.draw_offer = Some(c);
                self.draw_declined = None;
                self.bump();
                Ok(())
            }
        }
    }

    /// Accepts the other side's draw offer for `c`.
    pub fn accept_draw(&mut self, c: Color) -> Result<(), PlayError> {
        self.require_live()?;
        if self.draw_offer != Some(c.other()) {
            return Err(PlayError::NoDrawToAccept { color: c });
        }
        self.draw_offer = None;
        self.finish("1/2-1/2", "agreement");
        Ok(())
    }

    /// Declines (or, for the offering side, withdraws) the draw offer.
    pub fn decline_draw(&mut self, c: Color) -> Result<(), PlayError> {
        self.require_live()?;
        let Some(offered) = self.draw_offer else {
            return Err(PlayError::NoDrawOffer);
        };
        self.draw_offer = None;
        // Withdrawn by the side that offered: nothing to tell it.
        self.draw_declined = (offered != c).then_some(offered);
        self.bump();
        Ok(())
    }

    /// Checks the clock; ends the game if the side to move has run out of time.
    pub fn check_time(&mut self) -> bool {
        if self.is_over() {
            return false;
        }
        let tm = self.to_move();
        let flagged = self.clock.as_ref().is_some_and(|c| c.now_ms(tm, tm) <= 0);
        if flagged {
            if let Some(c) = &mut self.clock {
                c.remaining_ms[tm.index()] = 0;
            }
            self.finish(if tm == Color::White { "0-1" } else { "1-0" }, "time");
        }
        flagged
    }

    /// The submitted actions in long form (`(0T1)e2(0T1)e4`), one per line.
    pub fn actions_long(&self) -> std::borrow::Cow<'_, str> {
        if self.movetext.len() == self.game.actions().len() {
            return std::borrow::Cow::Borrowed(&self.long_actions);
        }
        // Not brought up to date (the game was changed from outside): written from the game.
        let even = self.game.start().even();
        self.game
            .actions()
            .iter()
            .map(|a| chess5d_notation::long::write_action(&a.moves, even) + "\n")
            .collect()
    }

    /// The game as 5DPGN.
    pub fn pgn(&self) -> String {
        self.pgn_text.clone()
    }

    fn build_pgn(&self) -> String {
        let mut headers = self.headers.clone();
        headers.push(("White".into(), self.players[0].display()));
        headers.push(("Black".into(), self.players[1].display()));
        let result = self.result.clone().unwrap_or_else(|| "*".into());
        headers.push(("Result".into(), result.clone()));
        if let Some(t) = &self.termination {
            headers.push(("Termination".into(), t.clone()));
        }
        self.movetext.write(&headers, Some(&result))
    }

    /// The position after the first `n` actions.
    fn position_after(&self, n: usize) -> Position {
        let mut pos = self.game.start().clone();
        for a in &self.game.actions()[..n] {
            for m in &a.moves {
                pos.play_unchecked(m);
            }
            pos.submit_unchecked();
        }
        pos
    }
}

/// A principal variation as the page shows it (the analysis board's `pv`): per action its SAN,
/// the side that plays it and its moves (for arrows); at most 12 actions.
pub fn pv_json(pos: &Position, pv: &[Vec<Move>]) -> Vec<Value> {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for a in pv.iter().take(12) {
        let multi = pos.timeline_count() > 1;
        let mut texts = Vec::new();
        let mut moves = Vec::new();
        for m in a {
            texts.push(san::write(&pos, m, multi));
            moves.push(move_json(&pos, m));
            pos.play_unchecked(m);
        }
        pos.submit_unchecked();
        out.push(json!({ "color": color_name(pos.to_move().other()), "text": texts.join(" "), "moves": moves }));
    }
    out
}

/// The most lines an analysis shows (`MultiPV`); the analysis board asks for
/// [`ANALYSIS_LINES`] unless told otherwise.
pub const MAX_ANALYSIS_LINES: usize = 8;
/// The lines an analysis board shows by default: the engine's three best actions.
pub const ANALYSIS_LINES: usize = 3;

/// The number of lines asked of an analysis (`multipv` of a request): 1 to
/// [`MAX_ANALYSIS_LINES`], [`ANALYSIS_LINES`] when not given; anything else is refused with a
/// message that says what is accepted.
pub fn analysis_multipv(asked: Option<&Value>) -> Result<usize, PlayError> {
    let Some(v) = asked.filter(|v| !v.is_null()) else {
        return Ok(ANALYSIS_LINES);
    };
    match v.as_u64() {
        Some(n) if (1..=MAX_ANALYSIS_LINES as u64).contains(&n) => Ok(n as usize),
        _ => Err(PlayError::BadField {
            field: "multipv",
            expected: format!("a whole number from 1 to {MAX_ANALYSIS_LINES}"),
            got: v.to_string(),
        }),
    }
}

/// A score from White's point of view (`white`: White is to move in the position searched).
pub fn white_score(s: Score, white: bool) -> Score {
    match (s, white) {
        (s, true) => s,
        (Score::Cp(c), false) => Score::Cp(-c),
        (Score::Mate(n), false) => Score::Mate(-n),
    }
}

/// A score as the analysis board's `eval` says it: `"35"` (centipawns) or `"mate -2"`.
pub fn eval_text(s: Score) -> String {
    match s {
        Score::Cp(c) => c.to_string(),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// One line of an analysis: what the engine last reported for one of its best actions.
#[derive(Clone, Debug)]
pub struct AnalysisLine {
    /// The engine's rank of the line (1: the best).
    pub rank: u32,
    /// The depth searched, in actions.
    pub depth: u32,
    /// From White's point of view.
    pub score: Score,
    /// The line's first action (to tell lines apart whatever the order of its moves).
    first: Vec<Move>,
    /// Its actions as [`pv_json`] writes them.
    pub pv: Vec<Value>,
    /// The line in numbered SAN (`1. e4 / e5 2. Nf3`), as [`movetext`] writes it.
    pub text: String,
}

/// The best lines of an analysis (the engine searching with `MultiPV` N), kept as the engine
/// reports them, line by line after each depth: at most N lines, each with its own first action,
/// in the engine's order (best first). A line reported at a new depth replaces the line of that
/// rank; if another rank held a line starting with the same action, the replaced line takes that
/// rank (a search cut in the middle of a depth reports only its new best line: the old best
/// moves to where the new one was, until the next depth reports every line).
#[derive(Clone, Debug, Default)]
pub struct AnalysisLines {
    lines: Vec<AnalysisLine>,
}

impl AnalysisLines {
    /// The engine's report of line `rank` (1 is the best; `None` from a search of one line) in
    /// `pos` (between actions): its depth, its score from the side to move's point of view and
    /// its actions. A report without a line is left out.
    pub fn update(&mut self, pos: &Position, rank: Option<u32>, depth: u32, score: Score, pv: &[Vec<Move>]) {
        let Some(first) = pv.first() else { return };
        let rank = rank.unwrap_or(1).max(1);
        let same = |a: &[Move]| a.len() == first.len() && a.iter().all(|m| first.contains(m));
        // The line already starting with this action gives its place to the line it displaces.
        let dup = self.lines.iter().position(|l| same(&l.first));
        let old_rank = dup.map(|j| self.lines.remove(j).rank);
        if let Some(i) = self.lines.iter().position(|l| l.rank == rank) {
            match old_rank {
                Some(r) => self.lines[i].rank = r,
                None => drop(self.lines.remove(i)),
            }
        }
        let pv = &pv[..pv.len().min(12)];
        self.lines.push(AnalysisLine {
            rank,
            depth,
            score: white_score(score, pos.to_move() == Color::White),
            first: first.clone(),
            pv: pv_json(pos, pv),
            text: movetext(pos, pv),
        });
        self.lines.sort_by_key(|l| l.rank);
    }

    /// The lines, best first.
    pub fn lines(&self) -> &[AnalysisLine] {
        &self.lines
    }

    /// The best line, if any was reported.
    pub fn best(&self) -> Option<&AnalysisLine> {
        self.lines.first()
    }

    /// The lines as the analysis board's `lines`: `[{rank, depth, eval, score: {cp} or {mate},
    /// text, pv}]`, best first, ranked 1, 2, 3... as shown (scores from White's point of view).
    pub fn json(&self) -> Value {
        let lines: Vec<Value> = self
            .lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let score = match l.score {
                    Score::Cp(c) => json!({ "cp": c }),
                    Score::Mate(n) => json!({ "mate": n }),
                };
                json!({
                    "rank": i + 1, "depth": l.depth, "eval": eval_text(l.score), "score": score,
                    "text": l.text, "pv": l.pv,
                })
            })
            .collect();
        Value::Array(lines)
    }
}

/// Numbered SAN of `actions` played from `pos` (`1. e4 / e5 2. ...`, `1b. e5 / ...` from Black):
/// a variation from a position. Turns are numbered as 5DPGN numbers them, by the actions played
/// since `pos` (from its present turn), not by the present, which time travel moves back.
pub fn movetext(pos: &Position, actions: &[Vec<Move>]) -> String {
    let numbering = GameTree::new(pos.clone());
    numbered(pos, actions, |i| numbering.serial(i))
}

/// SAN of `actions` played from `pos`, the `i`-th numbered `serial(i)`; a line starting with
/// Black's action says `Nb.`, later Black actions `/`.
fn numbered(pos: &Position, actions: &[Vec<Move>], serial: impl Fn(usize) -> (u32, Color)) -> String {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for (i, a) in actions.iter().enumerate() {
        match serial(i) {
            (turn, Color::White) => out.push(format!("{turn}.")),
            (turn, Color::Black) if i == 0 => out.push(format!("{turn}b.")),
            (_, Color::Black) => out.push("/".into()),
        }
        let multi = pos.timeline_count() > 1;
        for m in a {
            out.push(san::write(&pos, m, multi));
            pos.play_unchecked(m);
        }
        pos.submit_unchecked();
    }
    out.join(" ")
}

/// The analysis board's export: the game it was opened on (`game_pgn`, the whole game with its
/// headers and any variations) with the actions tried on the board (`board`, whose first `base`
/// actions are the game's) as a variation branching after action `base`. Written as Branched
/// 5DPGN, so it reads back to the same tree; a tried line the game itself played is merged
/// into it.
pub fn export_variation(game_pgn: &str, base: usize, board: &Game) -> Result<String, PlayError> {
    let mut loaded = chess5d_notation::load(game_pgn)
        .map_err(|e| PlayError::internal(format!("the analysed game does not read back: {e}")))?;
    let main = loaded.tree.main_line();
    let Some(&from) = (if base == 0 {
        Some(&GameTree::ROOT)
    } else {
        main.get(base - 1)
    }) else {
        return Err(PlayError::internal(format!(
            "the analysis board branches after action {base}, but the game has {} actions",
            main.len()
        )));
    };
    let result = loaded
        .result
        .clone()
        .or_else(|| loaded.header("Result").map(str::to_string));
    let tried: Vec<Vec<Move>> = board.actions()[base.min(board.actions().len())..]
        .iter()
        .map(|a| a.moves.clone())
        .collect();
    if loaded.tree.children(from).is_empty() && !tried.is_empty() {
        // The game stops where the board branched: the tried line is still written as a
        // variation, after the game's last action (a reader makes it the continuation, as there
        // is no other), and the game's result stays the game's.
        let end = *main.last().unwrap_or(&GameTree::ROOT);
        loaded.tree.set_result(end, None);
        let mut out = chess5d_notation::pgn::write_tree(&loaded.tree, &loaded.headers, None);
        let pos = loaded.tree.game_at(from).position().clone();
        let line = numbered(&pos, &tried, |i| loaded.tree.serial(base + i));
        let token = result.as_deref().filter(|r| chess5d_notation::pgn::is_result(r));
        out.push_str(&format!("({line})\n{}\n", token.unwrap_or("*")));
        return Ok(out);
    }
    let mut node = from;
    for (i, moves) in tried.iter().enumerate() {
        // The game's own continuation stays the main line; the tried one is a variation.
        node = loaded.tree.play(node, moves, false).map_err(|e| {
            PlayError::internal(format!(
                "tried action {} does not replay on the game: {e}",
                base + i + 1
            ))
        })?;
    }
    Ok(chess5d_notation::pgn::write_tree(
        &loaded.tree,
        &loaded.headers,
        result.as_deref(),
    ))
}
