//! A game being played: rules state, players, clock, result, and its JSON view.

use crate::clocks::Clock;
use crate::db::{self, GameRow};
use crate::seats::{Need, Rights, Seat};
use crate::ServerError;
use chess5d_engine::Bot;
use chess5d_notation::{long, san, write_5dfen, LoadedGame};
use chess5d_rules::{Budget, Color, Coord, Game, Move, MoveKind, Outcome, Position, Role};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::time::Instant;

/// Who plays one side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
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
    pub fn is_engine(&self) -> bool {
        matches!(self, Player::Engine { .. })
    }

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
    pub id: String,
    pub name: String,
    /// Actions of the record before the puzzle starts.
    pub setup_actions: usize,
    /// How many actions the solver has.
    pub mate_in: usize,
    pub solver: String,
    /// `playing`, `solved` or `failed`.
    pub status: String,
}

/// One game in memory.
#[derive(Debug)]
pub struct Session {
    pub id: i64,
    pub created: String,
    pub variant: String,
    pub start_text: String,
    pub headers: Vec<(String, String)>,
    pub game: Game,
    pub players: [Player; 2],
    pub result: Option<String>,
    pub termination: Option<String>,
    pub clock: Option<Clock>,
    pub puzzle: Option<PuzzleRun>,
    /// Bumped on every change; engine answers for an older version are dropped.
    pub version: u64,
    pub engine_busy: bool,
    pub engine_error: Option<String>,
    /// The last message of the engine search (score, depth).
    pub engine_info: Option<String>,
    /// Cached: whether the side to move is in check and the checking move.
    check: Option<(Coord, Coord)>,
    pub deleted: bool,
    /// Who may act for which side (empty: a game from before seats).
    pub seats: Vec<Seat>,
    /// The side offering a draw, until the other side answers or plays.
    pub draw_offer: Option<Color>,
    /// Open WebSockets of seat holders per side (for the "connected" marks).
    pub online: [u32; 2],
    /// Bumped when `online` changes (watchers resend; the engine driver ignores it).
    pub presence: u64,
    /// Cached 5DPGN and action texts (rebuilt when an action is submitted or the game ends).
    pgn_text: String,
    actions_json: Vec<Value>,
}

pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn coord_json(pos: &Position, c: Coord) -> Value {
    json!({
        "l": c.board.l,
        "t": c.board.t,
        "label": pos.timeline_label(c.board.l),
        "turn": c.board.turn(),
        "sq": c.square.to_string(),
        "name": pos.coord_name(c),
    })
}

pub(crate) fn move_json(pos: &Position, m: &Move) -> Value {
    json!({
        "from": coord_json(pos, m.from),
        "to": coord_json(pos, m.to),
        "long": long::write_move(m, pos.even()),
        "promotion": m.promotion.map(|r| r.letter().to_string()),
        "kind": match m.kind {
            MoveKind::Normal | MoveKind::DoubleStep => "normal",
            MoveKind::EnPassant => "en-passant",
            MoveKind::Castle { .. } => "castle",
            MoveKind::Hop => "hop",
            MoveKind::Branch => "branch",
        },
        "capture": m.captured.is_some(),
    })
}

/// The variant name of a start position (`custom` if none).
pub fn variant_name(start: &Position) -> String {
    chess5d_notation::start::variant_of(start).map_or_else(|| "custom".to_string(), |v| v.name.to_string())
}

impl Session {
    /// A new game from a loaded record (its actions are kept).
    pub fn new(loaded: LoadedGame, players: [Player; 2], clock: Option<Clock>, puzzle: Option<PuzzleRun>) -> Session {
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
        let created = db::now();
        if loaded.header("Date").is_none() {
            headers.push(("Date".into(), created[..10].replace('-', ".")));
        }
        let mut s = Session {
            variant: variant_name(&loaded.start),
            start_text: write_5dfen(&loaded.start),
            created,
            headers,
            clock,
            puzzle,
            ..Session::with_defaults(loaded.game, players)
        };
        s.after_change(true);
        if let Some(c) = &mut s.clock {
            c.turn_started = Some(Instant::now());
        }
        s
    }

    /// A session of `game` with everything else empty and the runtime state (version, engine
    /// flags, caches) at its start values; the constructors fill in the rest.
    fn with_defaults(game: Game, players: [Player; 2]) -> Session {
        Session {
            id: 0,
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
            engine_busy: false,
            engine_error: None,
            engine_info: None,
            check: None,
            deleted: false,
            seats: Vec::new(),
            draw_offer: None,
            online: [0, 0],
            presence: 0,
            pgn_text: String::new(),
            actions_json: Vec::new(),
        }
    }

    /// Rebuilds a stored game.
    pub fn from_row(row: &GameRow) -> Result<Session, ServerError> {
        let bad =
            |what: &str, e: String| ServerError::Internal(format!("stored game {} has a bad {what}: {e}", row.id));
        let start = chess5d_notation::load(&row.start)
            .map_err(|e| bad("start position", e.to_string()))?
            .start;
        let loaded = long::read_game(&row.actions, Some(start)).map_err(|e| bad("action list", e.to_string()))?;
        let players = [
            serde_json::from_str(&row.white).map_err(|e| bad("player", e.to_string()))?,
            serde_json::from_str(&row.black).map_err(|e| bad("player", e.to_string()))?,
        ];
        let headers: Vec<(String, String)> = serde_json::from_str(&row.headers).unwrap_or_default();
        let mut clock: Option<Clock> = row.clock.as_deref().and_then(|c| serde_json::from_str(c).ok());
        if let Some(c) = &mut clock {
            c.turn_started = Some(Instant::now());
        }
        let mut s = Session {
            id: row.id,
            created: row.created.clone(),
            variant: row.variant.clone(),
            start_text: row.start.clone(),
            headers,
            result: row.result.clone(),
            termination: row.termination.clone(),
            clock,
            puzzle: row.puzzle.as_deref().and_then(|p| serde_json::from_str(p).ok()),
            ..Session::with_defaults(loaded.game, players)
        };
        s.after_change(true);
        s.draw_offer = match row.draw_offer.as_deref() {
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            _ => None,
        };
        for line in row.pending.lines().filter(|l| !l.trim().is_empty()) {
            // The moves of the action being built; a move that no longer applies is dropped.
            if s.play_unchecked_text(line).is_err() {
                break;
            }
        }
        Ok(s)
    }

    /// Plays a stored move of the current action (no turn checks).
    fn play_unchecked_text(&mut self, text: &str) -> Result<(), ServerError> {
        let lm: chess5d_notation::LongMove = text
            .trim()
            .parse()
            .map_err(|e: chess5d_notation::ParseError| ServerError::BadRequest(format!("bad move '{text}': {e}")))?;
        let mv = lm
            .resolve(self.game.position())
            .map_err(|e| ServerError::BadRequest(format!("illegal move {text}: {e}")))?;
        self.game
            .make_move(&mv)
            .map_err(|e| ServerError::BadRequest(format!("illegal move {text}: {e}")))?;
        self.after_change(false);
        Ok(())
    }

    /// What the holder of `token` may do here. A game without seats (made before seats existed)
    /// is open to everyone on a loopback-only server and to nobody on a public one.
    pub fn rights(&self, token: Option<&str>, public: bool) -> Rights {
        if self.seats.is_empty() {
            return if public { Rights::default() } else { Rights::ALL };
        }
        crate::seats::rights(&self.seats, token)
    }

    /// Checks that `rights` allow `need`; gives the side acted for.
    pub fn authorize(&self, rights: Rights, need: Need) -> Result<Color, ServerError> {
        let engine = [self.players[0].is_engine(), self.players[1].is_engine()];
        need.check(rights, self.to_move(), engine, self.id)
    }

    /// The row to store.
    pub fn row(&self) -> GameRow {
        let pos = self.game.start();
        let even = pos.even();
        let actions: String = self
            .game
            .actions()
            .iter()
            .map(|a| long::write_action(&a.moves, even) + "\n")
            .collect();
        GameRow {
            id: self.id,
            created: self.created.clone(),
            updated: db::now(),
            variant: self.variant.clone(),
            start: self.start_text.clone(),
            headers: serde_json::to_string(&self.headers).unwrap_or_else(|_| "[]".into()),
            white: serde_json::to_string(&self.players[0]).unwrap_or_default(),
            black: serde_json::to_string(&self.players[1]).unwrap_or_default(),
            actions,
            n_actions: self.game.actions().len() as i64,
            result: self.result.clone(),
            termination: self.termination.clone(),
            clock: self.clock.as_ref().and_then(|c| {
                let mut c = c.clone();
                c.remaining_ms = [
                    c.now_ms(Color::White, self.game.to_move()),
                    c.now_ms(Color::Black, self.game.to_move()),
                ];
                serde_json::to_string(&c).ok()
            }),
            puzzle: self.puzzle.as_ref().and_then(|p| serde_json::to_string(p).ok()),
            pending: self
                .game
                .position()
                .action_moves()
                .map(|m| long::write_move(m, even) + "\n")
                .collect(),
            draw_offer: self.draw_offer.map(|c| color_name(c).to_string()),
        }
    }

    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    pub fn to_move(&self) -> Color {
        self.game.to_move()
    }

    /// Whether the side to move is an engine that should be asked for an action.
    pub fn engine_to_move(&self) -> bool {
        !self.is_over() && !self.deleted && self.players[self.to_move().index()].is_engine()
    }

    fn require_human_turn(&self) -> Result<(), ServerError> {
        if self.is_over() {
            return Err(ServerError::Conflict(format!(
                "the game is over ({})",
                self.termination.as_deref().unwrap_or("finished")
            )));
        }
        if self.players[self.to_move().index()].is_engine() {
            return Err(ServerError::Conflict("it is the engine's turn".into()));
        }
        Ok(())
    }

    /// Updates cached check info and, after a submitted action, the result.
    fn after_change(&mut self, submitted: bool) {
        self.version += 1;
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

    fn refresh_texts(&mut self) {
        self.pgn_text = self.build_pgn();
        self.actions_json = self.action_texts();
    }

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
        self.version += 1;
        self.refresh_texts();
    }

    /// The pseudo-legal moves of the piece on `(l, t, square)`.
    pub fn moves_from(&self, l: i32, t: i32, square: &str) -> Result<Value, ServerError> {
        let pos = self.game.position();
        let sq = chess5d_rules::Square::parse(square)
            .filter(|s| pos.size().contains(s.x(), s.y()))
            .ok_or_else(|| ServerError::BadRequest(format!("'{square}' is not a square of this game's boards")))?;
        let id = chess5d_rules::BoardId::new(l, t);
        if pos.board(id).is_none() {
            return Err(ServerError::BadRequest(format!(
                "there is no board at timeline index {l}, half-turn {t}"
            )));
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
    pub fn play(&mut self, text: &str) -> Result<(), ServerError> {
        self.require_human_turn()?;
        let lm: chess5d_notation::LongMove = text
            .trim()
            .parse()
            .map_err(|e: chess5d_notation::ParseError| ServerError::BadRequest(format!("bad move '{text}': {e}")))?;
        let pos = self.game.position();
        let mv = lm
            .resolve(pos)
            .map_err(|e| ServerError::BadRequest(format!("illegal move {text}: {e}")))?;
        if pos.action_moves().any(|p| p.from.board == mv.from.board) {
            return Err(ServerError::BadRequest(format!(
                "illegal move {text}: board {} was already played in this action",
                pos.board_name(mv.from.board)
            )));
        }
        self.game
            .make_move(&mv)
            .map_err(|e| ServerError::BadRequest(format!("illegal move {text}: {e}")))?;
        self.after_change(false);
        Ok(())
    }

    /// Takes back the last move of the current action.
    pub fn undo(&mut self) -> Result<(), ServerError> {
        self.require_human_turn()?;
        if self.game.undo_move().is_none() {
            return Err(ServerError::Conflict("no move of the current action to undo".into()));
        }
        self.after_change(false);
        Ok(())
    }

    /// Submits the current action (by a human).
    pub fn submit(&mut self) -> Result<(), ServerError> {
        self.require_human_turn()?;
        self.game
            .position()
            .can_submit()
            .map_err(|e| ServerError::BadRequest(format!("cannot submit: {e}")))?;
        self.submit_checked()
    }

    /// Submits after the check was done; handles clock and puzzle accounting.
    fn submit_checked(&mut self) -> Result<(), ServerError> {
        let mover = self.to_move();
        if self.draw_offer == Some(mover.other()) {
            // Playing on declines the opponent's offer.
            self.draw_offer = None;
        }
        self.game
            .submit()
            .map_err(|e| ServerError::BadRequest(format!("cannot submit: {e}")))?;
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
    pub fn engine_action(&mut self, moves: &[Move]) -> Result<(), ServerError> {
        for m in moves {
            self.game
                .make_move(m)
                .map_err(|e| ServerError::Internal(format!("engine move {m}: {e}")))?;
        }
        if let Err(e) = self.game.position().can_submit() {
            while self.game.undo_move().is_some() {}
            return Err(ServerError::Internal(format!("engine action cannot be submitted: {e}")));
        }
        self.submit_checked()
    }

    /// Resigns for `color` (default: the side to move).
    pub fn resign(&mut self, color: Option<Color>) -> Result<(), ServerError> {
        if self.is_over() {
            return Err(ServerError::Conflict("the game is already over".into()));
        }
        let c = color.unwrap_or(self.to_move());
        self.finish(if c == Color::White { "0-1" } else { "1-0" }, "resignation");
        Ok(())
    }

    fn require_live(&self) -> Result<(), ServerError> {
        if self.is_over() {
            return Err(ServerError::Conflict(format!(
                "the game is over ({})",
                self.termination.as_deref().unwrap_or("finished")
            )));
        }
        Ok(())
    }

    /// Aborts the game for `c`, allowed until `c` has submitted an action: no result counts.
    pub fn abort(&mut self, c: Color) -> Result<(), ServerError> {
        self.require_live()?;
        let start_mover = self.game.start().to_move();
        let n = self.game.actions().len();
        let played = if c == start_mover { n >= 1 } else { n >= 2 };
        if played {
            return Err(ServerError::Conflict(format!(
                "too late to abort: {} has played an action",
                color_name(c)
            )));
        }
        self.finish("*", "aborted");
        Ok(())
    }

    /// Offers a draw for `c` (or accepts the other side's offer).
    pub fn offer_draw(&mut self, c: Color) -> Result<(), ServerError> {
        self.require_live()?;
        if self.players[c.other().index()].is_engine() {
            return Err(ServerError::Conflict("engines do not take draw offers".into()));
        }
        match self.draw_offer {
            Some(o) if o == c => Err(ServerError::Conflict(format!(
                "{} has already offered a draw",
                color_name(c)
            ))),
            Some(_) => self.accept_draw(c),
            None => {
                self.draw_offer = Some(c);
                self.version += 1;
                Ok(())
            }
        }
    }

    /// Accepts the other side's draw offer for `c`.
    pub fn accept_draw(&mut self, c: Color) -> Result<(), ServerError> {
        self.require_live()?;
        if self.draw_offer != Some(c.other()) {
            return Err(ServerError::Conflict(format!(
                "{} has no draw offer to accept",
                color_name(c)
            )));
        }
        self.draw_offer = None;
        self.finish("1/2-1/2", "agreement");
        Ok(())
    }

    /// Declines (or, for the offering side, withdraws) the draw offer.
    pub fn decline_draw(&mut self, _c: Color) -> Result<(), ServerError> {
        self.require_live()?;
        if self.draw_offer.is_none() {
            return Err(ServerError::Conflict("there is no draw offer".into()));
        }
        self.draw_offer = None;
        self.version += 1;
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
        chess5d_notation::pgn::write(&self.game, &headers, Some(&result))
    }

    /// The actions as SAN texts, one entry per action.
    fn action_texts(&self) -> Vec<Value> {
        let mut pos = self.game.start().clone();
        let mut out = Vec::new();
        let first = pos.present_turn().max(0) as usize;
        let offset = usize::from(pos.to_move() == Color::Black);
        for (i, a) in self.game.actions().iter().enumerate() {
            let color = pos.to_move();
            let turn = first + (i + offset) / 2;
            let mut texts = Vec::new();
            for m in &a.moves {
                texts.push(san::write(&pos, m, pos.timeline_count() > 1));
                pos.play_unchecked(m);
            }
            pos.submit_unchecked();
            out.push(json!({ "index": i + 1, "number": turn, "color": color_name(color), "text": texts.join(" ") }));
        }
        out
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

    /// The JSON view of the game (at action `at` for review, else live).
    pub fn view(&self, at: Option<usize>) -> Value {
        let n = self.game.actions().len();
        let review = at.filter(|&a| a < n);
        let reviewed;
        let pos = match review {
            Some(a) => {
                reviewed = self.position_after(a);
                &reviewed
            }
            None => self.game.position(),
        };
        let live = review.is_none();
        let mandatory = pos.mandatory_boards();
        let pending: Vec<_> = if live {
            pos.action_moves().copied().collect()
        } else {
            Vec::new()
        };
        let played_boards: Vec<_> = pending.iter().map(|m| m.from.board).collect();
        let boards: Vec<Value> = pos
            .boards()
            .map(|(id, b)| {
                let pieces: Vec<Value> = b
                    .pieces()
                    .map(|(sq, p)| {
                        json!({"sq": sq.to_string(), "p": p.role().letter().to_string(), "c": color_name(p.color())})
                    })
                    .collect();
                json!({
                    "l": id.l, "t": id.t, "label": pos.timeline_label(id.l), "turn": id.turn(),
                    "color": color_name(id.color()),
                    "playable": live && pos.is_playable(id) && !played_boards.contains(&id) && !self.is_over(),
                    "mandatory": live && !self.is_over() && mandatory.contains(&id),
                    "pieces": pieces,
                })
            })
            .collect();
        let timelines: Vec<Value> = pos
            .timelines()
            .map(|l| {
                json!({
                    "l": l, "label": pos.timeline_label(l), "active": pos.is_active(l),
                    "start": pos.timeline_start(l), "end": pos.timeline_end(l),
                    "origin": pos.timeline_origin(l).map(|b| json!({"l": b.l, "t": b.t})),
                })
            })
            .collect();
        let last_index = review.unwrap_or(n);
        let last_action: Vec<Value> = if last_index > 0 {
            let before = self.position_after(last_index - 1);
            self.game.actions()[last_index - 1]
                .moves
                .iter()
                .map(|m| move_json(&before, m))
                .collect()
        } else {
            Vec::new()
        };
        let check = if live { self.check } else { pos.checking_move() };
        let submit = if live {
            pos.can_submit().map_err(|e| e.to_string())
        } else {
            Err("reviewing".into())
        };
        let to_move = pos.to_move();
        let promotions: Vec<String> = pos.promotions().iter().map(|r: &Role| r.letter().to_string()).collect();
        json!({
            "id": self.id,
            "version": self.version,
            "variant": self.variant,
            "created": self.created,
            "size": {"w": pos.size().width, "h": pos.size().height},
            "even": pos.even(),
            "players": {
                "white": {"display": self.players[0].display(), "engine": self.players[0].is_engine(), "config": self.players[0]},
                "black": {"display": self.players[1].display(), "engine": self.players[1].is_engine(), "config": self.players[1]},
            },
            "to_move": color_name(to_move),
            "human_to_move": live && !self.is_over() && !self.players[to_move.index()].is_engine(),
            "present": {"t": pos.present(), "turn": pos.present_turn(), "color": color_name(Color::of_time(pos.present()))},
            "boards": boards,
            "timelines": timelines,
            "pending": pending.iter().map(|m| move_json(pos, m)).collect::<Vec<_>>(),
            "last_action": last_action,
            "check": check.map(|(a, r)| json!({"from": coord_json(pos, a), "to": coord_json(pos, r)})),
            "can_submit": submit.is_ok() && live && !self.is_over(),
            "submit_error": submit.err(),
            "promotions": promotions,
            "result": self.result,
            "termination": self.termination,
            "actions": self.actions_json,
            "action_count": n,
            "review": review,
            "pgn": self.pgn_text,
            "clock": self.clock.as_ref().map(|c| json!({
                "initial_ms": c.initial_ms, "increment_ms": c.increment_ms,
                "white_ms": c.now_ms(Color::White, self.to_move()).max(0),
                "black_ms": c.now_ms(Color::Black, self.to_move()).max(0),
                "running": c.turn_started.is_some() && !self.is_over(),
            })),
            "puzzle": self.puzzle,
            "engine_busy": self.engine_busy,
            "engine_error": self.engine_error,
            "engine_info": self.engine_info,
            "draw_offer": self.draw_offer.map(color_name),
            "online": {"white": self.online[0] > 0, "black": self.online[1] > 0},
            "seated": !self.seats.is_empty(),
        })
    }

    /// The summary line of the game list.
    pub fn summary(row: &GameRow) -> Value {
        let name = |p: &str| {
            serde_json::from_str::<Player>(p)
                .map(|p| p.display())
                .unwrap_or_else(|_| "?".into())
        };
        json!({
            "id": row.id, "white": name(&row.white), "black": name(&row.black), "variant": row.variant,
            "result": row.result.clone().unwrap_or_else(|| "*".into()), "termination": row.termination,
            "created": row.created, "updated": row.updated, "actions": row.n_actions,
            "puzzle": row.puzzle.as_deref().and_then(|p| serde_json::from_str::<PuzzleRun>(p).ok()).map(|p| p.name),
        })
    }
}
