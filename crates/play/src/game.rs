//! A game being played: its rules state, players, clock and result, with what its view keeps
//! written out.

use crate::cache::{raw, ActionTexts, MoveView, PieceCache};
use crate::error::PlayError;
use crate::terms::color_name;
use crate::text::{move_json, variant_name};
use crate::variations::Variations;
use chess5d_engine::Bot;
use chess5d_notation::pgn::Movetext;
use chess5d_notation::{write_5dfen, LoadedGame};
use chess5d_rules::{Budget, Color, Coord, Game, Move, Outcome, Position};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use web_time::Instant;

/// A day in milliseconds (correspondence clocks).
pub const DAY_MS: u64 = 86_400_000;

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
    /// The clock waits for each side's first action (as lichess's): it runs once both sides
    /// have played one. Set for games between two people online (an invite, a pairing), so
    /// that no time is lost before the friend has come; other games start it at once.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub first_moves_free: bool,
    /// Correspondence: days per action (1, 2, 3, 5, 7 or 14). Each action resets the mover's
    /// time to this many days (no increment, no bank of time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<u32>,
}

impl Clock {
    /// A clock with `initial_ms` per side, not running.
    pub fn new(initial_ms: u64, increment_ms: u64) -> Clock {
        Clock {
            initial_ms,
            increment_ms,
            remaining_ms: [initial_ms as i64; 2],
            turn_started: None,
            first_moves_free: false,
            days: None,
        }
    }

    /// A correspondence clock of `days` per action.
    pub fn per_action_days(days: u32) -> Clock {
        Clock {
            days: Some(days),
            ..Clock::new(u64::from(days) * DAY_MS, 0)
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
            Player::Engine {
                engine, movetime_ms, ..
            } => {
                let engine = engine.clone().unwrap_or_default();
                let ms = movetime_ms.unwrap_or(crate::request::DEFAULT_MOVETIME_MS);
                match self.level() {
                    Some(n) => format!("{engine}, level {n}"),
                    None => format!("{engine} ({}, {} s an action)", self.bot().name(), ms as f64 / 1000.0),
                }
            }
        }
    }

    /// The level of the home page's "Play the computer" (1 to 5) this engine player plays at:
    /// random moves, greedy, alpha-beta at ½, 2 or 5 s an action; `None` for other settings.
    pub fn level(&self) -> Option<u8> {
        let Player::Engine { movetime_ms, .. } = self else {
            return None;
        };
        let ms = movetime_ms.unwrap_or(crate::request::DEFAULT_MOVETIME_MS);
        match (self.bot(), ms) {
            (Bot::Random, _) => Some(1),
            (Bot::Greedy, _) => Some(2),
            (Bot::AlphaBeta, 500) => Some(3),
            (Bot::AlphaBeta, 2000) => Some(4),
            (Bot::AlphaBeta, 5000) => Some(5),
            _ => None,
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
    /// A lesson's exercise: the goal its solver's one action must reach (judged by the rules,
    /// [`crate::lesson::Goal::met`]), instead of a mate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<crate::lesson::Goal>,
    /// A puzzle made from a reviewed mistake: the engine judges the solver's one action
    /// ([`crate::mistakes::Better::judge`]), instead of a mate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub better: Option<crate::mistakes::Better>,
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
    pub(crate) public_at: u64,
    /// Whether an engine is searching for this game.
    pub engine_busy: bool,
    /// Since when (set whenever the engine is given its turn; read only while `engine_busy`).
    pub thinking_since: Option<Instant>,
    /// The last engine failure.
    pub engine_error: Option<String>,
    /// The last message of the engine search (score, depth).
    pub engine_info: Option<String>,
    /// Cached: whether the side to move is in check and the checking move.
    pub(crate) check: Option<(Coord, Coord)>,
    /// The side offering a draw, until the other side answers or plays.
    pub draw_offer: Option<Color>,
    /// The side whose draw offer was last declined (or lapsed when the other side played on),
    /// until it offers again or plays: its page says so.
    pub draw_declined: Option<Color>,
    /// Cached 5DPGN and action texts (rebuilt when an action is submitted or the game ends).
    pub(crate) pgn_text: String,
    pub(crate) texts: ActionTexts,
    /// The main line in 5DPGN, written an action at a time.
    movetext: Movetext,
    /// The actions in long form, one per line, written an action at a time (what the server
    /// stores).
    long_actions: String,
    /// The pieces of every board shown, as JSON.
    pub(crate) pieces: PieceCache,
    /// The variations kept from an import, if any.
    pub(crate) variations: Option<Box<Variations>>,
}

/// A game as it was, to put back by [`Play::rewind`] (a door's write of a change failed: the
/// change must leave no trace). Cheap to take before every change: the fields an action may
/// change are copied, but the game's boards and texts are not (a whole copy of the game before
/// every action took about a tenth of a loaded server's time). The game is kept as its
/// length and the moves of the action being built, and its texts are written again from it.
#[derive(Debug)]
pub struct Checkpoint {
    created: String,
    variant: String,
    start_text: String,
    headers: Vec<(String, String)>,
    players: [Player; 2],
    result: Option<String>,
    termination: Option<String>,
    clock: Option<Clock>,
    puzzle: Option<PuzzleRun>,
    version: u64,
    public_at: u64,
    engine_busy: bool,
    thinking_since: Option<Instant>,
    engine_error: Option<String>,
    engine_info: Option<String>,
    check: Option<(Coord, Coord)>,
    draw_offer: Option<Color>,
    draw_declined: Option<Color>,
    variations: Option<Box<Variations>>,
    /// The submitted actions then (an action is taken back by the rules' replay).
    actions: usize,
    /// The moves of the action being built then.
    pending: Vec<Move>,
}

impl Play {
    /// The game as it is now, for [`Play::rewind`].
    pub fn checkpoint(&self) -> Checkpoint {
        // Every field named: a new one must say here whether it is kept or written again.
        let Play {
            created,
            variant,
            start_text,
            headers,
            game,
            players,
            result,
            termination,
            clock,
            puzzle,
            version,
            public_at,
            engine_busy,
            thinking_since,
            engine_error,
            engine_info,
            check,
            draw_offer,
            draw_declined,
            // Written from the game by `rewind`.
            pgn_text: _,
            texts: _,
            movetext: _,
            long_actions: _,
            // A cache by board (it checks the board it wrote).
            pieces: _,
            variations,
        } = self;
        Checkpoint {
            created: created.clone(),
            variant: variant.clone(),
            start_text: start_text.clone(),
            headers: headers.clone(),
            players: players.clone(),
            result: result.clone(),
            termination: termination.clone(),
            clock: clock.clone(),
            puzzle: puzzle.clone(),
            version: *version,
            public_at: *public_at,
            engine_busy: *engine_busy,
            thinking_since: *thinking_since,
            engine_error: engine_error.clone(),
            engine_info: engine_info.clone(),
            check: *check,
            draw_offer: *draw_offer,
            draw_declined: *draw_declined,
            variations: variations.clone(),
            actions: game.actions().len(),
            pending: game.pending_moves(),
        }
    }

    /// Puts the game back as it was at checkpoint `c`, taken of this game before changes that
    /// only play and take back moves and submit actions (as [`Play::act`] and the engine's
    /// answers do): the same game, view and record as then.
    pub fn rewind(&mut self, c: Checkpoint) {
        while self.game.undo_move().is_some() {}
        while self.game.actions().len() > c.actions {
            self.game.undo_action();
        }
        for m in &c.pending {
            // Played in this very position before: the rules take it again.
            let _ = self.game.make_move(m);
        }
        let Checkpoint {
            created,
            variant,
            start_text,
            headers,
            players,
            result,
            termination,
            clock,
            puzzle,
            version,
            public_at,
            engine_busy,
            thinking_since,
            engine_error,
            engine_info,
            check,
            draw_offer,
            draw_declined,
            variations,
            actions: _,
            pending: _,
        } = c;
        self.created = created;
        self.variant = variant;
        self.start_text = start_text;
        self.headers = headers;
        self.players = players;
        self.result = result;
        self.termination = termination;
        self.clock = clock;
        self.puzzle = puzzle;
        self.version = version;
        self.public_at = public_at;
        self.engine_busy = engine_busy;
        self.thinking_since = thinking_since;
        self.engine_error = engine_error;
        self.engine_info = engine_info;
        self.check = check;
        self.draw_offer = draw_offer;
        self.draw_declined = draw_declined;
        self.variations = variations;
        // The texts from the start again (the variations are the checkpoint's already).
        self.movetext = Movetext::new(self.game.start());
        self.texts = ActionTexts::default();
        self.long_actions.clear();
        self.refresh_texts();
    }
}

impl Play {
    /// About the bytes the game holds in memory: the boards of its position (kept twice, by the
    /// rules and by the movetext writer), the boards its view keeps written out, its actions and
    /// its texts. An estimate for a server's memory budget (`games-memory-mb`), not an
    /// allocator's count: it grows with the game as its memory does.
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        let boards = self.game.position().boards().count() + self.game.start().boards().count();
        // Each board sits in a timeline's list (a slot and a little bookkeeping per board).
        let board = size_of::<chess5d_rules::Board>() + 16;
        let moves: usize = self.game.actions().iter().map(|a| a.moves.len()).sum();
        size_of::<Play>()
            + 2 * boards * board
            + self.pieces.bytes()
            + moves * size_of::<Move>() * 2
            + 2 * self.pgn_text.len()
            + self.long_actions.len()
            + self.texts.bytes()
    }

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
            variant: variant_name(loaded.start()),
            start_text: write_5dfen(loaded.start()),
            created,
            headers,
            clock,
            puzzle,
            ..Play::with_defaults(loaded.into_game(), players)
        };
        s.after_change(true);
        let runs = s.clock_runs();
        if let Some(c) = &mut s.clock {
            c.turn_started = runs.then(Instant::now);
        }
        s
    }

    /// Whether the clock runs: the game goes on (and, for a clock that waits for the first
    /// actions, each side has played one).
    pub fn clock_runs(&self) -> bool {
        let waits = self.clock.as_ref().is_some_and(|c| c.first_moves_free);
        self.result.is_none() && (!waits || self.game.actions().len() >= 2)
    }

    /// Makes the clock wait for each side's first action (see [`Clock::first_moves_free`]).
    pub fn free_first_moves(&mut self) {
        let runs = self.result.is_none() && self.game.actions().len() >= 2;
        if let Some(c) = &mut self.clock {
            c.first_moves_free = true;
            if !runs {
                c.turn_started = None;
            }
        }
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
            texts: ActionTexts::default(),
            movetext,
            long_actions: String::new(),
            pieces: PieceCache::default(),
            variations: None,
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
        self.make(text, &mv)
    }

    /// Makes move `mv` (read from `text`) on the game, or says why the rules refuse it.
    fn make(&mut self, text: &str, mv: &Move) -> Result<(), PlayError> {
        self.game.make_move(mv).map_err(|e| PlayError::IllegalMove {
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
            self.texts = ActionTexts::default();
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
                let last: Vec<_> = moves.iter().map(|m| MoveView::new(before, m)).collect();
                self.texts.last = raw(&last);
            }
            let mate = i + 1 == n && self.termination.as_deref() == Some("checkmate");
            // As 5DPGN writes them (`+` on an action that gives check, `#` on the one that
            // mated), without the `~` of jumps that move the present back.
            let text = self.movetext.push(moves, mate).join(" ").replace('~', "");
            let entry =
                json!({ "index": i + 1, "number": first + (i + offset) / 2, "color": color_name(color), "text": text });
            self.texts.push(&entry);
        }
        if let Some(v) = &mut self.variations {
            v.follow(&self.game);
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
            if p.status == "playing" && p.goal.is_none() {
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

    /// The moves a moves request asks for (`GET .../moves`): the piece's on `l`, `t` and
    /// `square` ([`Play::moves_from`]), or with none of them every move of the action being
    /// built ([`Play::moves_written`]).
    pub fn moves_asked(&self, q: &crate::request::Query) -> Result<Value, PlayError> {
        match q.square_or_all()? {
            Some(q) => self.moves_from(q.l, q.t, &q.square),
            None => Ok(self.moves_written()),
        }
    }

    /// Every pseudo-legal move the side to move may add to its action (from a playable board
    /// it has not played on yet), each also written as the notation panel writes it (the
    /// notation crate's SAN, `san`), for moves typed by keyboard: `{moves: [{san, long, ...}]}`.
    pub fn moves_written(&self) -> Value {
        let pos = self.game.position();
        let mut all = Vec::new();
        if !self.is_over() {
            for id in pos.playable_boards() {
                if !pos.action_moves().any(|p| p.from.board == id) {
                    pos.moves_from(id, &mut all);
                }
            }
        }
        let multi = pos.timeline_count() > 1;
        let moves: Vec<Value> = all
            .iter()
            .map(|m| {
                let mut v = move_json(pos, m);
                v["san"] = Value::String(chess5d_notation::san::write(pos, m, multi));
                v
            })
            .collect();
        json!({ "moves": moves })
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
        self.make(text, &mv)
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

    /// Whether a submit now is judged by a search of up to the review's budget (a puzzle made
    /// from a reviewed mistake, its solver to move): costly work, which the doors run as they
    /// run reviews (the server under its quota of reviews, the static site in a worker).
    pub fn judges_submit(&self) -> bool {
        self.puzzle
            .as_ref()
            .is_some_and(|p| p.status == "playing" && p.better.is_some() && color_name(self.to_move()) == p.solver)
    }

    /// The search judging a submit now asks for, for a door that runs it elsewhere first (the
    /// static site's worker): `{start, actions, nodes}` (the position after the answer, as
    /// the start's 5DFEN and every action in long form, one a line), or `None` when a submit
    /// is not judged or cannot be made.
    pub fn judge_task(&self) -> Option<Value> {
        if !self.judges_submit() || self.game.position().can_submit().is_err() {
            return None;
        }
        let even = self.game.start().even();
        let pending = chess5d_notation::long::write_action(&self.game.pending_moves(), even);
        let nodes = self.puzzle.as_ref()?.better.as_ref()?.nodes;
        Some(json!({
            "start": self.start_text,
            "actions": format!("{}{pending}\n", self.actions_long()),
            "nodes": nodes,
        }))
    }

    /// Keeps the win percentage `win` a door's search (of [`Play::judge_task`]) found for the
    /// answer now built, for the judge of the next submit.
    pub fn judge_given(&mut self, win: f64) {
        let mut after = self.game.position().clone();
        after.submit_unchecked();
        let hash = after.hash();
        if let Some(b) = self.puzzle.as_mut().and_then(|p| p.better.as_mut()) {
            b.given = Some((hash, win));
        }
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
        // A lesson's exercise is judged on the action and the positions around it.
        let exercise = self
            .puzzle
            .as_ref()
            .filter(|p| p.status == "playing" && color_name(mover) == p.solver)
            .and_then(|p| p.goal.clone())
            .map(|g| {
                let mut before = self.game.position().clone();
                before.undo_action_moves();
                (g, before, self.game.pending_moves())
            });
        let better = self
            .puzzle
            .as_ref()
            .is_some_and(|p| p.status == "playing" && color_name(mover) == p.solver && p.better.is_some())
            .then(|| {
                let mut before = self.game.position().clone();
                before.undo_action_moves();
                before
            });
        self.game
            .submit()
            .map_err(|e| PlayError::CannotSubmit { reason: e.to_string() })?;
        if let (Some(before), Some(p)) = (better, &mut self.puzzle) {
            let accepted = p
                .better
                .as_mut()
                .is_some_and(|b| b.judge(&before, self.game.position()).accepted);
            p.status = if accepted { "solved" } else { "failed" }.into();
            self.after_change(true);
            self.finish("*", if accepted { "better action found" } else { "not better" });
            return Ok(());
        }
        if let (Some((goal, before, moves)), Some(p)) = (exercise, &mut self.puzzle) {
            let met = goal.met(&before, &moves, &self.game);
            p.status = if met { "solved" } else { "failed" }.into();
            self.after_change(true);
            self.finish("*", if met { "exercise solved" } else { "exercise failed" });
            return Ok(());
        }
        let runs = self.clock_runs();
        if let Some(c) = &mut self.clock {
            // A side's first action (the clock not running yet) costs no time and earns none.
            let increment = if c.turn_started.is_some() {
                c.increment_ms as i64
            } else {
                0
            };
            let left = match c.days {
                // Correspondence: the time of an action is all the mover gets for the next.
                Some(d) => i64::from(d) * DAY_MS as i64,
                None => c.now_ms(mover, mover) + increment,
            };
            c.remaining_ms[mover.index()] = left;
            c.turn_started = runs.then(Instant::now);
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
        match &self.variations {
            Some(v) => v.write(&headers, Some(&result)),
            None => self.movetext.write(&headers, Some(&result)),
        }
    }

    /// Keeps the variations of the tree an imported game was read from (its main line is the
    /// game's): they are shown with the game, stored with it and exported again.
    pub fn keep_variations(&mut self, tree: chess5d_notation::GameTree) {
        let main = tree.main_line();
        let same = tree.start().hash() == self.game.start().hash()
            && main.len() == self.game.actions().len()
            && main.iter().zip(self.game.actions()).all(|(&n, a)| tree.action(n) == a);
        if !same {
            return;
        }
        self.variations = Variations::new(tree).map(Box::new);
        if self.variations.is_some() {
            self.refresh_texts();
        }
    }

    /// How many actions the game's variations have (an import's budget counts them).
    pub fn variation_actions(&self) -> usize {
        self.variations.as_ref().map_or(0, |v| v.len())
    }

    /// The position after the first `n` actions.
    pub(crate) fn position_after(&self, n: usize) -> Position {
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
