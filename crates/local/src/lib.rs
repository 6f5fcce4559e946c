//! The static site's local back-end in WebAssembly: a game in the browser answers with the
//! server's JSON (the view, moves, actions of chess5d-play), and the engine thinks in a Web Worker
//! ([`engine_think`]). The page keeps the games in IndexedDB as [`LocalGame::record`]s.
#![deny(missing_docs)]

use chess5d_engine::{Bot, Engine, EngineOptions, Limits};
use chess5d_notation::{long, LoadedGame};
use chess5d_play::{Clock, Play, PlayError, Player, PuzzleRun};
use chess5d_rules::{Color, Variant, VARIANTS};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::time::Duration;
use wasm_bindgen::prelude::*;
use web_time::Instant;

/// The name of the one engine of the static site.
const ENGINE: &str = "chess5d";

fn err(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

fn play_err(e: PlayError) -> JsError {
    JsError::new(&e.to_string())
}

/// `GET /api/info` of the static site.
#[wasm_bindgen]
pub fn info() -> String {
    json!({
        "engines": [ENGINE],
        "bots": Bot::ALL.iter().map(|b| b.name()).collect::<Vec<_>>(),
        "variants": VARIANTS.iter().map(|v| json!({"name": v.name, "size": format!("{}x{}", v.width, v.height), "even": v.even})).collect::<Vec<_>>(),
        "public": false,
    })
    .to_string()
}

#[derive(Deserialize)]
struct ClockReq {
    initial_ms: u64,
    #[serde(default)]
    increment_ms: u64,
}

#[derive(Deserialize)]
struct CreateReq {
    variant: Option<String>,
    import: Option<String>,
    white: Option<Player>,
    black: Option<Player>,
    clock: Option<ClockReq>,
}

fn check_player(p: Option<Player>) -> Result<Player, String> {
    match p.unwrap_or(Player::Human { name: None }) {
        Player::Human { name } => {
            if name.as_ref().is_some_and(|n| n.chars().count() > 60) {
                return Err("player names are at most 60 characters".into());
            }
            Ok(Player::Human { name })
        }
        Player::Engine {
            engine,
            bot,
            movetime_ms,
        } => {
            if let Some(n) = engine.as_deref().filter(|n| *n != ENGINE) {
                return Err(format!("unknown engine '{n}'; configured engines: {ENGINE}"));
            }
            if bot.as_deref().is_some_and(|b| Bot::from_name(b).is_none()) {
                return Err(format!(
                    "unknown bot '{}'; use random, greedy or alphabeta",
                    bot.unwrap_or_default()
                ));
            }
            if movetime_ms.is_some_and(|ms| !(10..=60_000).contains(&ms)) {
                return Err("movetime_ms must be between 10 and 60000".into());
            }
            Ok(Player::Engine {
                engine: Some(ENGINE.into()),
                bot,
                movetime_ms,
            })
        }
    }
}

/// A saved game, as IndexedDB keeps it (the server's table row in JSON).
#[derive(Serialize, Deserialize)]
struct Record {
    id: i64,
    created: String,
    updated: String,
    variant: String,
    start: String,
    headers: Vec<(String, String)>,
    white: Player,
    black: Player,
    actions: String,
    n_actions: usize,
    result: Option<String>,
    termination: Option<String>,
    clock: Option<Clock>,
    puzzle: Option<PuzzleRun>,
    pending: String,
    draw_offer: Option<String>,
}

/// One game of the local back-end.
#[wasm_bindgen]
#[derive(Debug)]
pub struct LocalGame {
    id: i64,
    play: Play,
}

fn json_str(v: &str) -> Result<Value, JsError> {
    if v.trim().is_empty() {
        return Ok(json!({}));
    }
    serde_json::from_str(v).map_err(|e| err(format!("bad JSON body: {e}")))
}

#[wasm_bindgen]
impl LocalGame {
    /// `POST /api/games` with `body` (JSON): a new game with this id, made at `created`.
    pub fn create(body: &str, id: u32, created: &str) -> Result<LocalGame, JsError> {
        let req: CreateReq = serde_json::from_str(if body.trim().is_empty() { "{}" } else { body })
            .map_err(|e| err(format!("bad request body: {e}")))?;
        let players = [
            check_player(req.white).map_err(err)?,
            check_player(req.black).map_err(err)?,
        ];
        let clock = match req.clock {
            None => None,
            Some(c) if c.initial_ms == 0 || c.initial_ms > 24 * 3_600_000 => {
                return Err(err("clock.initial_ms must be between 1 and 86400000"))
            }
            Some(c) => Some(Clock::new(c.initial_ms, c.increment_ms)),
        };
        let loaded = match (req.import, req.variant) {
            (Some(_), Some(_)) => return Err(err("give either 'variant' or 'import', not both")),
            (Some(text), None) => {
                if text.trim().is_empty() {
                    return Err(err("nothing to import: the text is empty"));
                }
                chess5d_notation::load(&text).map_err(|e| err(format!("cannot import: {e}")))?
            }
            (None, v) => {
                let name = v.unwrap_or_else(|| "Standard".into());
                let v = Variant::by_name(&name).ok_or_else(|| {
                    err(format!(
                        "unknown variant '{name}'; known variants: {}",
                        VARIANTS.iter().map(|v| v.name).collect::<Vec<_>>().join(", ")
                    ))
                })?;
                LoadedGame::new(chess5d_notation::Format::Pgn, v.position())
            }
        };
        let result = loaded.result.clone().filter(|r| r != "*");
        let mut play = Play::new(loaded, players, clock, None, created.to_string());
        if let Some(r) = result {
            play.finish(&r, "imported result");
        }
        Ok(LocalGame {
            id: i64::from(id),
            play,
        })
    }

    /// A puzzle game: `pgn` posed for the side to move, the defence played by the engine.
    pub fn puzzle(
        pgn: &str,
        puzzle_id: &str,
        name: &str,
        mate_in: usize,
        id: u32,
        created: &str,
    ) -> Result<LocalGame, JsError> {
        let loaded = chess5d_notation::load(pgn).map_err(|e| err(format!("puzzle {puzzle_id}: {e}")))?;
        let setup_actions = loaded.game.actions().len();
        let solver = loaded.game.to_move();
        let engine = Player::Engine {
            engine: Some(ENGINE.into()),
            bot: None,
            movetime_ms: Some(1000),
        };
        let human = Player::Human { name: None };
        let players = if solver == Color::White {
            [human, engine]
        } else {
            [engine, human]
        };
        let run = PuzzleRun {
            id: puzzle_id.into(),
            name: name.into(),
            setup_actions,
            mate_in,
            solver: chess5d_play::color_name(solver).into(),
            status: "playing".into(),
        };
        Ok(LocalGame {
            id: i64::from(id),
            play: Play::new(loaded, players, None, Some(run), created.to_string()),
        })
    }

    /// A game saved by [`LocalGame::record`].
    pub fn restore(record: &str) -> Result<LocalGame, JsError> {
        let r: Record = serde_json::from_str(record).map_err(|e| err(format!("stored game: {e}")))?;
        let start = chess5d_notation::load(&r.start)
            .map_err(|e| err(format!("stored game {}: {e}", r.id)))?
            .start;
        let loaded = long::read_game(&r.actions, Some(start)).map_err(|e| err(format!("stored game {}: {e}", r.id)))?;
        let mut play = Play::with_defaults(loaded.game, [r.white, r.black]);
        play.created = r.created;
        play.variant = r.variant;
        play.start_text = r.start;
        play.headers = r.headers;
        play.result = r.result;
        play.termination = r.termination;
        play.clock = r.clock;
        play.puzzle = r.puzzle;
        if let Some(c) = &mut play.clock {
            c.turn_started = (play.result.is_none()).then(Instant::now);
        }
        play.after_change(true);
        play.draw_offer = match r.draw_offer.as_deref() {
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            _ => None,
        };
        for line in r.pending.lines().filter(|l| !l.trim().is_empty()) {
            if play.play_unchecked_text(line).is_err() {
                break;
            }
        }
        Ok(LocalGame { id: r.id, play })
    }

    /// The game as IndexedDB keeps it (JSON), `updated` now.
    pub fn record(&self, updated: &str) -> String {
        let p = &self.play;
        let even = p.game.start().even();
        let mut clock = p.clock.clone();
        if let Some(c) = &mut clock {
            let tm = p.game.to_move();
            c.remaining_ms = [c.now_ms(Color::White, tm), c.now_ms(Color::Black, tm)];
        }
        let r = Record {
            id: self.id,
            created: p.created.clone(),
            updated: updated.into(),
            variant: p.variant.clone(),
            start: p.start_text.clone(),
            headers: p.headers.clone(),
            white: p.players[0].clone(),
            black: p.players[1].clone(),
            actions: p
                .game
                .actions()
                .iter()
                .map(|a| long::write_action(&a.moves, even) + "\n")
                .collect(),
            n_actions: p.game.actions().len(),
            result: p.result.clone(),
            termination: p.termination.clone(),
            clock,
            puzzle: p.puzzle.clone(),
            pending: p
                .game
                .position()
                .action_moves()
                .map(|m| long::write_move(m, even) + "\n")
                .collect(),
            draw_offer: p.draw_offer.map(|c| chess5d_play::color_name(c).to_string()),
        };
        serde_json::to_string(&r).unwrap_or_default()
    }

    /// The game's line in the game list (`GET /api/games`).
    pub fn summary(&self, updated: &str) -> String {
        let p = &self.play;
        json!({
            "id": self.id, "white": p.players[0].display(), "black": p.players[1].display(), "variant": p.variant,
            "result": p.result.clone().unwrap_or_else(|| "*".into()), "termination": p.termination,
            "created": p.created, "updated": updated, "actions": p.game.actions().len(),
            "puzzle": p.puzzle.as_ref().map(|p| p.name.clone()),
        })
        .to_string()
    }

    /// The game state (`GET /api/games/:id`, `?at=N` for review).
    pub fn view(&self, at: Option<u32>) -> String {
        self.play
            .view_text(at.map(|a| a as usize), self.id, [false, false], false)
    }

    /// `GET /api/games/:id/moves`.
    pub fn moves(&self, l: i32, t: i32, square: &str) -> Result<String, JsError> {
        self.play
            .moves_from(l, t, square)
            .map(|v| v.to_string())
            .map_err(play_err)
    }

    /// `POST /api/games/:id/<what>` with its JSON body: move, undo, submit, resign, draw, abort.
    pub fn act(&mut self, what: &str, body: &str) -> Result<(), JsError> {
        let b = json_str(body)?;
        let color = match b.get("color").and_then(Value::as_str) {
            None => None,
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            Some(c) => return Err(err(format!("bad color '{c}': white or black"))),
        };
        let p = &mut self.play;
        let side = color.unwrap_or(p.to_move());
        match what {
            "move" => {
                let mv = b
                    .get("move")
                    .and_then(Value::as_str)
                    .ok_or_else(|| err("missing 'move'"))?;
                p.play(mv)
            }
            "undo" => p.undo(),
            // The analysis board's: the branch point is given.
            "takeback" => {
                let floor = b.get("floor").and_then(Value::as_u64).unwrap_or(0);
                p.take_back(floor as usize)
            }
            "submit" => p.submit(),
            "resign" => p.resign(color),
            "abort" => p.abort(side),
            "draw" => match b.get("action").and_then(Value::as_str) {
                Some("offer") => p.offer_draw(side),
                Some("accept") => p.accept_draw(side),
                Some("decline") => p.decline_draw(side),
                _ => return Err(err("draw: action must be offer, accept or decline")),
            },
            _ => return Err(err(format!("no such request: {what}"))),
        }
        .map_err(play_err)
    }

    /// Whether the engine should be asked for an action (and is not already).
    pub fn engine_to_move(&self) -> bool {
        self.play.engine_to_move() && !self.play.engine_busy && self.play.engine_error.is_none()
    }

    /// Marks the engine as thinking (the view's `engine_busy`).
    pub fn set_engine_busy(&mut self, busy: bool) {
        self.play.engine_busy = busy;
        self.play.version += 1;
    }

    /// The engine's task for the worker (JSON): `{version, start, actions, bot, movetime_ms, clock_ms}`.
    pub fn engine_task(&self) -> String {
        let p = &self.play;
        let even = p.game.start().even();
        let tm = p.to_move();
        let player = &p.players[tm.index()];
        let movetime = match player {
            Player::Engine { movetime_ms, .. } => movetime_ms.unwrap_or(1000),
            Player::Human { .. } => 1000,
        };
        // With a clock: a 30th of the time left plus the increment, as a player would.
        let movetime = match &p.clock {
            Some(c) => ((c.now_ms(tm, tm).max(0) as u64) / 30 + c.increment_ms).clamp(10, 60_000),
            None => movetime,
        };
        json!({
            "version": p.version,
            "start": p.start_text,
            "actions": p.game.actions().iter().map(|a| long::write_action(&a.moves, even) + "\n").collect::<String>(),
            "bot": player.bot().name(),
            "movetime_ms": movetime,
        })
        .to_string()
    }

    /// The version of the game (an engine answer for an older one is dropped).
    pub fn version(&self) -> f64 {
        self.play.version as f64
    }

    /// Plays the engine's action (long-form moves, one a line) and its search report.
    pub fn engine_apply(&mut self, moves: &str, info: &str) -> Result<(), JsError> {
        let pos = self.play.game.position();
        let mut mvs = Vec::new();
        let mut scratch = pos.clone();
        for line in moves.lines().filter(|l| !l.trim().is_empty()) {
            let lm: chess5d_notation::LongMove = line.trim().parse().map_err(err)?;
            let m = lm.resolve(&scratch).map_err(err)?;
            scratch.play_unchecked(&m);
            mvs.push(m);
        }
        self.play.engine_busy = false;
        self.play.engine_info = Some(info.to_string());
        self.play.engine_action(&mvs).map_err(play_err)?;
        if self.play.game.actions().len() >= 1000 {
            self.play.finish("1/2-1/2", "action limit");
        }
        Ok(())
    }

    /// Records an engine failure (the view's `engine_error`).
    pub fn engine_failed(&mut self, message: &str) {
        self.play.engine_busy = false;
        let side = if self.play.to_move() == Color::White {
            "White"
        } else {
            "Black"
        };
        self.play.engine_error = Some(format!("{side}'s engine failed: {message}"));
        self.play.version += 1;
    }

    /// Ends the game if the side to move has run out of time; whether it did.
    pub fn check_time(&mut self) -> bool {
        self.play.check_time()
    }

    /// Whether a clock is running.
    pub fn clock_running(&self) -> bool {
        self.play.clock.as_ref().is_some_and(|c| c.turn_started.is_some()) && !self.play.is_over()
    }

    /// An analysis board (two humans) from the position after `at` actions (all by default).
    pub fn analysis(&self, at: Option<u32>, id: u32, created: &str) -> Result<LocalGame, JsError> {
        let p = &self.play;
        let n = at.map_or(p.game.actions().len(), |a| (a as usize).min(p.game.actions().len()));
        let even = p.game.start().even();
        let actions: String = p.game.actions()[..n]
            .iter()
            .map(|a| long::write_action(&a.moves, even) + "\n")
            .collect();
        let mut loaded = long::read_game(&actions, Some(p.game.start().clone())).map_err(err)?;
        loaded.headers = p.headers.clone();
        let human = || Player::Human { name: None };
        Ok(LocalGame {
            id: i64::from(id),
            play: Play::new(loaded, [human(), human()], None, None, created.to_string()),
        })
    }

    /// The position between actions as 5DFEN (the analysis board's `fen`).
    pub fn fen(&self) -> String {
        let mut game = self.play.game.clone();
        while game.undo_move().is_some() {}
        chess5d_notation::write_5dfen(game.position())
    }

    /// The analysis board's export: the game it was opened on (`game_pgn`, the whole game) with
    /// the actions tried after its first `base` as a variation.
    pub fn variation(&self, base: u32, game_pgn: &str) -> Result<String, JsError> {
        chess5d_play::export_variation(game_pgn, base as usize, &self.play.game).map_err(err)
    }

    /// The number of submitted actions.
    pub fn action_count(&self) -> u32 {
        self.play.game.actions().len() as u32
    }

    /// The game as 5DPGN.
    pub fn pgn(&self) -> String {
        self.play.pgn()
    }
}

/// The engine's action for a game (`start` 5DFEN, `actions` in long form one a line), searched
/// for `movetime_ms` with `bot`: JSON `{moves: "<long moves, one a line>", info}`.
#[wasm_bindgen]
pub fn engine_think(start: &str, actions: &str, bot: &str, movetime_ms: u32) -> Result<String, JsError> {
    let start = chess5d_notation::load(start).map_err(err)?.start;
    let loaded = long::read_game(actions, Some(start)).map_err(err)?;
    let pos = loaded.game.position();
    let mut engine = Engine::new(EngineOptions {
        bot: Bot::from_name(bot).unwrap_or_default(),
        hash_mb: 8,
        ..EngineOptions::default()
    });
    let limits = Limits::movetime(Duration::from_millis(u64::from(movetime_ms.max(10))));
    let r = engine.search(pos, &limits, &mut |_| {});
    let best = r.best.ok_or_else(|| err("the engine found no legal action"))?;
    let even = pos.even();
    let moves: String = best.iter().map(|m| long::write_move(m, even) + "\n").collect();
    Ok(json!({"moves": moves, "info": format!("depth {} score {}", r.depth, r.score)}).to_string())
}

/// A puzzle record's `{mate_in, to_move}` (mate in N from its `Puzzle "mate-in-N"` header, 1 if
/// absent, as the server counts it).
#[wasm_bindgen]
pub fn puzzle_info(pgn: &str) -> Result<String, JsError> {
    let loaded = chess5d_notation::load(pgn).map_err(err)?;
    let mate_in: usize = loaded
        .header("Puzzle")
        .and_then(|p| {
            p.to_ascii_lowercase()
                .strip_prefix("mate-in-")
                .and_then(|n| n.trim().parse().ok())
        })
        .unwrap_or(1);
    Ok(json!({"mate_in": mate_in, "to_move": chess5d_play::color_name(loaded.game.to_move())}).to_string())
}

/// The analysis of a position (`start` 5DFEN, `actions` in long form one a line) for
/// `movetime_ms`, reporting its `multipv` best lines (1 to 8; the analysis board asks for 3):
/// JSON `{depth, eval, nodes, nps, pv, lines}` as the analysis board reports it (`eval` from
/// White's view: `"35"` or `"mate -2"`; `lines` as the server's, best first; `depth`, `eval` and
/// `pv` are the best line's). The worker calls it with growing times.
#[wasm_bindgen]
pub fn engine_analyse(start: &str, actions: &str, movetime_ms: u32, multipv: u32) -> Result<String, JsError> {
    let start = chess5d_notation::load(start).map_err(err)?.start;
    let loaded = long::read_game(actions, Some(start)).map_err(err)?;
    let pos = loaded.game.position();
    let multipv = chess5d_play::analysis_multipv(Some(&json!(multipv))).map_err(err)?;
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        multipv,
        ..EngineOptions::default()
    });
    let limits = Limits::movetime(Duration::from_millis(u64::from(movetime_ms.max(10))));
    let mut lines = chess5d_play::AnalysisLines::default();
    let r = engine.search(pos, &limits, &mut |i| {
        lines.update(pos, i.multipv, i.depth, i.score, &i.pv);
    });
    let white = pos.to_move() == Color::White;
    let (depth, score, pv) = match lines.best() {
        Some(b) => (b.depth, b.score, b.pv.clone()),
        None => (
            r.depth,
            chess5d_play::white_score(r.score, white),
            chess5d_play::pv_json(pos, &r.pv),
        ),
    };
    Ok(json!({
        "depth": depth, "eval": chess5d_play::eval_text(score), "nodes": r.nodes, "nps": r.nps(),
        "pv": pv, "lines": lines.json(),
    })
    .to_string())
}

/// The puzzle maker (`POST /api/user-puzzles`, run in the worker): proves "mate in N for the side
/// to move" in the position of `text` (5DFEN/5DPGN; a record with a `Goal` header is posed
/// before its solution) and gives `{name, mate_in, to_move, pgn}`, or the reason it is refused.
/// `from_game`: the text is a game's position (its headers give no goal or name).
#[wasm_bindgen]
pub fn make_puzzle(text: &str, from_game: bool, mate_in: Option<u32>, name: Option<String>) -> Result<String, JsError> {
    let mut loaded = chess5d_notation::load(text).map_err(|e| err(format!("cannot import: {e}")))?;
    if !from_game && loaded.header("Goal").is_some() {
        let headers = std::mem::take(&mut loaded.headers);
        loaded = LoadedGame::new(loaded.format, loaded.start.clone());
        loaded.headers = headers;
    }
    let (goal, header_name) = if from_game {
        (None, None)
    } else {
        let goal = loaded.header("Puzzle").map(|p| {
            p.to_ascii_lowercase()
                .strip_prefix("mate-in-")
                .and_then(|n| n.trim().parse().ok())
                .unwrap_or(1)
        });
        (goal, loaded.header("Event").map(str::to_string))
    };
    let pos = loaded.game.position();
    if pos.action_moves().next().is_some() {
        return Err(err(
            "the position has moves of an unfinished action; a puzzle starts between actions",
        ));
    }
    let n = mate_in
        .map(|n| n as usize)
        .or(goal)
        .ok_or_else(|| err("give the goal: 'mate_in' (or a [Puzzle \"mate-in-N\"] header)"))?;
    let name = name
        .or(header_name)
        .map(|n| n.trim().chars().take(60).collect::<String>())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| format!("My puzzle (mate in {n})"));
    // The server's budget for each list of legal actions.
    let pgn = chess5d_play::proof::prove(pos, n, &name, 200_000).map_err(play_err)?;
    Ok(json!({"name": name, "mate_in": n, "to_move": chess5d_play::color_name(pos.to_move()), "pgn": pgn}).to_string())
}
