//! The static site's door to the game service (chess5d-play) in WebAssembly: the page's typed
//! calls ([`chess5d_play::call::Call`] as JSON, `{"call": "create_game", "body": {...}}`, which
//! `backend/local.js` hands over as the page makes them; no URL is read here) are answered by
//! the same typed requests, rules, views and lists ([`chess5d_play::listing`]) as on the
//! server; what must happen outside (store a game in IndexedDB, tell the page's watchers, run an
//! engine search or a puzzle proof in the Web Worker) comes back as data for `backend/local.js`
//! to carry out. Refusals cross as `{kind, code, message}` objects. The worker's own entry points
//! ([`engine_think`], [`engine_analyse`], [`make_puzzle`], [`review_game`]) search, prove and
//! review in the worker.
#![deny(missing_docs)]

use chess5d_engine::{Bot, Engine, EngineOptions, Limits};
use chess5d_notation::{long, Games};
use chess5d_play::call::Call;
use chess5d_play::listing::{page_json, Info, PuzzleEntry, Scratch, Summary};
use chess5d_play::request::{self, Action, AnalysisReq, CreateReq, PuzzleReq, Source, StartReq};
use chess5d_play::review::{ReviewRun, REVIEW_NODES};
use chess5d_play::seats::Rights;
use chess5d_play::{proof, Effects, Play, PlayError, Player, Record, Shown};
use chess5d_rules::Color;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::time::Duration;
use wasm_bindgen::prelude::*;

/// The name of the one engine of the static site.
const ENGINE: &str = "chess5d";

/// Everyone at the page holds every seat: one person, one browser.
const ALL: Rights = Rights::ALL;

fn err(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

/// A refusal as it crosses to the page, with the HTTP status the server answers it with (the
/// service's one table), for scripts' `fetch('/api/...')`.
fn refusal(e: &PlayError) -> Value {
    json!({
        "kind": e.kind().name(), "code": e.code(), "message": e.to_string(),
        "status": e.kind().http_status(),
    })
}

/// The longest page of a list (the server's default `page-size`).
const PAGE_SIZE: usize = 100;

/// The most games one restore makes (a backup of a player's own games is far smaller).
const MAX_RESTORED_GAMES: usize = 5000;

/// `GET /api/info` of the static site.
#[wasm_bindgen]
pub fn info() -> String {
    Info::new(vec![ENGINE.into()], false).json().to_string()
}

/// An analysis board: a scratch game (one person plays both sides) and its engine's report.
#[derive(Debug)]
struct Board {
    play: Play,
    scratch: Scratch,
    info: Value,
}

fn idle_info() -> Value {
    json!({ "running": false, "depth": 0, "eval": null, "nodes": 0, "nps": 0, "pv": [], "lines": [], "error": null, "spent": false })
}

/// A built-in puzzle (the server's list, bundled at build time).
#[derive(Debug, serde::Deserialize)]
struct Builtin {
    id: String,
    name: String,
    pgn: String,
}

/// What `backend/local.js` must do after a request: store and delete rows, tell watchers, run
/// work in the worker.
#[derive(Debug, Default)]
struct Out {
    store: Vec<Value>,
    delete: Vec<i64>,
    notify: Vec<Value>,
    think: Vec<Value>,
    analyse: Vec<Value>,
    stop: Vec<u64>,
    prove: Option<Value>,
    made: Vec<Value>,
    review: Vec<Value>,
    stop_review: Vec<i64>,
    store_review: Vec<Value>,
}

impl Out {
    /// The answer with its effects; `status` is the HTTP status the server answers with (201 for
    /// what a request creates, else 200).
    fn json(self, answer: Value, text: bool, status: u16) -> String {
        json!({
            "ok": answer, "text": text, "status": status,
            "effects": {
                "store": self.store, "delete": self.delete, "notify": self.notify, "think": self.think,
                "analyse": self.analyse, "stop": self.stop, "prove": self.prove, "made": self.made,
                "review": self.review, "stop_review": self.stop_review, "store_review": self.store_review,
            }
        })
        .to_string()
    }
}

/// The game service of the static site: its games, analysis boards and puzzles in memory (the
/// page loads the stored ones at start).
#[wasm_bindgen]
#[derive(Debug, Default)]
pub struct Backend {
    games: BTreeMap<i64, Play>,
    boards: BTreeMap<u64, Board>,
    next_board: u64,
    builtin: Vec<Builtin>,
    made: BTreeMap<u64, proof::Made>,
    /// Each game's computer review (the latest), running in the worker or ended.
    reviews: BTreeMap<i64, ReviewRun>,
}

fn view_of(p: &Play, id: i64, shown: Shown) -> Value {
    serde_json::from_str(&p.view_text(ALL.viewer(), shown, id)).unwrap_or(Value::Null)
}

#[wasm_bindgen]
impl Backend {
    /// The service with the built-in puzzles (`{puzzles: [{id, name, pgn}]}`).
    #[wasm_bindgen(constructor)]
    pub fn new(puzzles: &str) -> Backend {
        #[derive(serde::Deserialize)]
        struct List {
            puzzles: Vec<Builtin>,
        }
        let builtin = serde_json::from_str::<List>(puzzles)
            .map(|l| l.puzzles)
            .unwrap_or_default();
        Backend {
            builtin,
            ..Backend::default()
        }
    }

    /// A stored game (an IndexedDB record) taken back into memory.
    pub fn load_game(&mut self, record: &str) -> Result<(), JsError> {
        let r: Record = serde_json::from_str(record).map_err(|e| err(format!("stored game: {e}")))?;
        let play = Play::restore(&r).map_err(err)?;
        self.games.insert(r.id, play);
        Ok(())
    }

    /// A stored puzzle made by the player (`{id, name, mate_in, to_move, pgn}`).
    pub fn load_made(&mut self, made: &str) -> Result<(), JsError> {
        let v: Value = serde_json::from_str(made).map_err(err)?;
        let n = v["id"].as_u64().ok_or_else(|| err("stored puzzle without a number"))?;
        let m: proof::Made = serde_json::from_value(v).map_err(err)?;
        self.made.insert(n, m);
        Ok(())
    }

    /// A typed call of the page (`{"call": "create_game", "body": {...}}`: a
    /// [`chess5d_play::call::Call`] as JSON) at time `now`: JSON `{ok, text, status, effects}`
    /// (`text`: the answer is a text, not JSON; `status`: the server's HTTP status for it) or
    /// `{error: {kind, code, message, status}}`.
    pub fn call(&mut self, call: &str, now: &str) -> String {
        let mut out = Out::default();
        match Call::read(call).and_then(|c| self.answer(c, now, &mut out)) {
            Ok(Answer::Json(v)) => out.json(v, false, 200),
            Ok(Answer::Created(v)) => out.json(v, false, 201),
            Ok(Answer::Accepted(v)) => out.json(v, false, 202),
            Ok(Answer::Text(t)) => out.json(Value::String(t), true, 200),
            Err(e) => json!({ "error": refusal(&e) }).to_string(),
        }
    }

    /// A backup restored: every game of a multi-game 5DPGN (as "Back up games" writes it, one
    /// record per game), each made as `POST /api/games {import}` makes it (with the result and
    /// termination it records: a resignation, a draw by agreement). JSON
    /// `{ok: {created: [ids], failed: [{game, line, message}]}, effects}`; a game that cannot be
    /// read is reported and the others are made.
    pub fn import_games(&mut self, text: &str, now: &str) -> String {
        let mut out = Out::default();
        let (mut created, mut failed) = (Vec::new(), Vec::new());
        let mut fail = |number: usize, line: usize, message: String| {
            failed.push(json!({ "game": number, "line": line, "message": message }));
        };
        for g in Games::new(text.as_bytes()).take(MAX_RESTORED_GAMES) {
            let g = match g {
                Ok(g) => g,
                Err(e) => {
                    fail(e.number, e.line, e.message);
                    continue;
                }
            };
            let body = json!({ "import": g.text });
            let id = match self.answer(Call::CreateGame { body }, now, &mut out) {
                Ok(Answer::Created(v)) => v["id"].as_i64(),
                Ok(_) => None,
                Err(e) => {
                    fail(g.number, g.line, e.to_string());
                    continue;
                }
            };
            created.extend(id);
        }
        out.json(json!({ "created": created, "failed": failed }), false, 200)
    }

    /// The engine's answer for game `game` asked at `version`: its moves (long form, one a line)
    /// and report, or why it failed. Gives the effects as [`Backend::call`] does.
    pub fn engine_done(
        &mut self,
        game: u32,
        version: f64,
        moves: &str,
        info: &str,
        error: Option<String>,
        now: &str,
    ) -> String {
        let mut out = Out::default();
        let game = i64::from(game);
        if let Some(p) = self.games.get_mut(&game) {
            let answer = match error {
                Some(e) => Err(e),
                None => read_moves(p, moves).map(|m| (m, info.to_string())),
            };
            let effects = p.engine_answer(version as u64, answer);
            Self::carry(p, game, effects, now, &mut out);
        }
        out.json(Value::Null, false, 200)
    }

    /// The clocks: every game whose side to move has run out of time ends. Gives the effects.
    pub fn tick(&mut self, now: &str) -> String {
        let mut out = Out::default();
        for (&id, p) in &mut self.games {
            if p.clock.is_some() && p.check_time() {
                let effects = p.effects();
                Self::carry(p, id, effects, now, &mut out);
            }
        }
        out.json(Value::Null, false, 200)
    }

    /// The search judging a submit of game `game` now asks for (a mistake's puzzle, its solver
    /// to move), to run in the worker before the submit ([`judge_answer`]): JSON `{start,
    /// actions, nodes}`, or `""` when a submit is not judged.
    pub fn judge_task(&self, game: u32) -> String {
        self.games
            .get(&i64::from(game))
            .and_then(|p| p.judge_task())
            .map_or_else(String::new, |v| v.to_string())
    }

    /// The worker's win percentage for the answer built in game `game` (of
    /// [`Backend::judge_task`]): the next submit is judged with it.
    pub fn judge_given(&mut self, game: u32, win: f64) {
        if let Some(p) = self.games.get_mut(&i64::from(game)) {
            p.judge_given(win);
        }
    }

    /// Whether a clock is running (the page ticks only then).
    pub fn clocks_running(&self) -> bool {
        self.games
            .values()
            .any(|p| !p.is_over() && p.clock.as_ref().is_some_and(|c| c.turn_started.is_some()))
    }

    /// The engines the games loaded at start wait for: their searches, as effects.
    pub fn wake(&mut self, now: &str) -> String {
        let mut out = Out::default();
        for (&id, p) in &mut self.games {
            if let Some(t) = p.engine_turn() {
                let effects = Effects {
                    store: false,
                    notify: false,
                    think: Some(t),
                };
                Self::carry(p, id, effects, now, &mut out);
            }
        }
        out.json(Value::Null, false, 200)
    }

    /// The analysis of board `id` as the worker last reported it (`{depth, eval, ...}`), or its
    /// failure. Gives the effects.
    pub fn analysis_info(&mut self, id: u32, info: &str, error: Option<String>) -> String {
        let mut out = Out::default();
        let id = u64::from(id);
        if let Some(b) = self.boards.get_mut(&id) {
            match error {
                Some(e) => {
                    b.info["running"] = json!(false);
                    b.info["error"] = json!(format!("the engine failed: {e}"));
                    out.stop.push(id);
                }
                None => {
                    if let (Value::Object(o), Ok(Value::Object(n))) = (&mut b.info, serde_json::from_str(info)) {
                        o.extend(n);
                    }
                }
            }
            out.notify
                .push(json!({ "path": format!("/api/analysis/{id}/ws"), "message": { "engine": b.info } }));
        }
        out.json(Value::Null, false, 200)
    }

    /// A stored review (`{id, review}`: an ended review as `GET /api/games/:id/review` answers
    /// it) taken back into memory.
    pub fn load_review(&mut self, row: &str) -> Result<(), JsError> {
        let v: Value = serde_json::from_str(row).map_err(|e| err(format!("stored review: {e}")))?;
        let id = v["id"].as_i64().ok_or_else(|| err("stored review without a game"))?;
        if let Some(run) = ReviewRun::from_json(&v["review"]) {
            self.reviews.insert(id, run);
        }
        Ok(())
    }

    /// The worker's report on the review of game `game`: a position searched (`{searched,
    /// positions, action}`, `action` the review of the action it completed or null), or the
    /// review's end (`{review}`: `Review::json`), or why it failed. Gives the effects (an ended
    /// review is stored).
    pub fn review_report(&mut self, game: u32, report: &str, error: Option<String>) -> String {
        let mut out = Out::default();
        let id = i64::from(game);
        if let Some(run) = self.reviews.get_mut(&id).filter(|r| r.running()) {
            let v: Value = serde_json::from_str(report).unwrap_or(Value::Null);
            if let Some(e) = error {
                run.fail(format!("the review failed: {e}"));
            } else if v["review"].is_object() {
                run.finish(v["review"].clone(), None);
                out.store_review.push(json!({ "id": id, "review": run.json(id) }));
            } else {
                let n = |k: &str| v[k].as_u64().unwrap_or(0) as usize;
                let action = Some(v["action"].clone()).filter(Value::is_object);
                run.progress(n("searched"), n("positions"), action);
            }
        }
        out.json(Value::Null, false, 200)
    }

    /// The puzzle maker's proof, done in the worker (`{name, mate_in, to_move, pgn}`): stored as
    /// made puzzle `user-<n>`; the answer of `POST /api/user-puzzles`.
    pub fn puzzle_made(&mut self, made: &str) -> String {
        let mut out = Out::default();
        match serde_json::from_str::<proof::Made>(made) {
            Ok(m) => {
                let n = self.made.keys().last().map_or(1, |n| n + 1);
                let mut row = serde_json::to_value(&m).unwrap_or(Value::Null);
                row["id"] = json!(n);
                out.made.push(row);
                let mut answer = serde_json::to_value(&m).unwrap_or(Value::Null);
                answer["id"] = json!(format!("user-{n}"));
                self.made.insert(n, m);
                out.json(answer, false, 201)
            }
            Err(e) => json!({ "error": refusal(&PlayError::internal(format!("the proof's answer: {e}"))) }).to_string(),
        }
    }
}

/// The answer of a request: JSON (of something it made, or started, or not), or a text (a 5DPGN
/// export).
enum Answer {
    Json(Value),
    Created(Value),
    Accepted(Value),
    Text(String),
}

fn read_moves(p: &Play, moves: &str) -> Result<Vec<chess5d_rules::Move>, String> {
    let mut scratch = p.game.position().clone();
    let mut mvs = Vec::new();
    for line in moves.lines().filter(|l| !l.trim().is_empty()) {
        let lm: chess5d_notation::LongMove = line.trim().parse().map_err(|e| format!("{e}"))?;
        let m = lm.resolve(&scratch).map_err(|e| format!("{e}"))?;
        scratch.play_unchecked(&m);
        mvs.push(m);
    }
    Ok(mvs)
}

impl Backend {
    /// Carries a game's effects into `out`: its row, its watchers' view, its engine's search.
    fn carry(p: &Play, id: i64, effects: Effects, now: &str, out: &mut Out) {
        if effects.store {
            let record = serde_json::to_string(&p.record(id, now.to_string())).unwrap_or_default();
            let summary = Summary::of(&p.record(id, now.to_string())).json();
            out.store
                .push(json!({ "id": id, "record": record, "summary": summary }));
        }
        if effects.notify {
            out.notify
                .push(json!({ "path": format!("/api/games/{id}/ws"), "message": view_of(p, id, Shown::Live) }));
        }
        if let Some(t) = effects.think {
            let bot = t.player.bot().name();
            out.think.push(json!({
                "game": id, "version": t.version, "start": p.start_text, "actions": p.actions_long(),
                "bot": bot, "budget": t.budget,
            }));
        }
    }

    fn game(&mut self, id: &str) -> Result<(i64, &mut Play), PlayError> {
        let n = id.parse::<i64>().ok().filter(|n| *n > 0);
        match n.and_then(|n| self.games.get_mut(&n).map(|p| (n, p))) {
            Some(g) => Ok(g),
            None => Err(PlayError::NoGame { id: id.to_string() }),
        }
    }

    fn board(&mut self, id: &str) -> Result<(u64, &mut Board), PlayError> {
        let n = id.parse::<u64>().ok();
        match n.and_then(|n| self.boards.get_mut(&n).map(|b| (n, b))) {
            Some(b) => Ok(b),
            None => Err(PlayError::NoAnalysisBoard { id: id.to_string() }),
        }
    }

    fn new_game(&mut self, play: Play, now: &str, out: &mut Out) -> (i64, Value) {
        let id = self.games.keys().last().map_or(1, |n| n + 1);
        let mut play = play;
        let effects = play.effects();
        Self::carry(&play, id, effects, now, out);
        let v = view_of(&play, id, Shown::Live);
        self.games.insert(id, play);
        (id, v)
    }

    /// The answer to a call: the service's typed request carried out on this door's games,
    /// boards and puzzles.
    fn answer(&mut self, call: Call, now: &str, out: &mut Out) -> Result<Answer, PlayError> {
        let q = call.query();
        let body = &call.body();
        let none = || call.none();
        let json = Answer::Json;
        Ok(match &call {
            Call::Info {} => json(Info::new(vec![ENGINE.into()], false).json()),
            Call::Games {} => {
                let list: Vec<Value> = self
                    .games
                    .iter()
                    .rev()
                    .map(|(id, p)| Summary::of(&p.record(*id, now.to_string())).json())
                    .collect();
                json(json!({ "games": list }))
            }
            Call::CreateGame { .. } => {
                let req: CreateReq = request::parse(body)?;
                let new = req.check(&[ENGINE.to_string()], now.to_string())?;
                let (_, mut v) = self.new_game(new.play, now, out);
                v["seat"] = Value::Null;
                v["invite"] = Value::Null;
                Answer::Created(v)
            }
            Call::Game { id, .. } => {
                let shown = q.shown()?;
                let (n, p) = self.game(&id.0)?;
                p.check_shown(shown, n)?;
                json(view_of(p, n, shown))
            }
            Call::Review { id, .. } => {
                let (n, _) = self.game(&id.0)?;
                json(
                    self.reviews
                        .get(&n)
                        .map_or_else(|| ReviewRun::none_json(n), |r| r.json(n)),
                )
            }
            Call::StartReview { id, .. } => {
                request::parse::<request::Empty>(body)?;
                let (n, p) = self.game(&id.0)?;
                p.check_review(ALL)?;
                let task = json!({
                    "game": n, "start": p.start_text, "actions": p.actions_long(),
                    "result": p.result.clone().filter(|r| r != "*"), "nodes": REVIEW_NODES,
                });
                let run = ReviewRun::start(p.game.actions().len(), REVIEW_NODES);
                out.stop_review.push(n);
                out.review.push(task);
                let v = run.json(n);
                self.reviews.insert(n, run);
                Answer::Accepted(v)
            }
            Call::Mistakes { id } => {
                let (n, _) = self.game(&id.0)?;
                let review = self.reviews.get(&n).map(|r| r.json(n));
                let p = &self.games[&n];
                p.check_review(ALL)?;
                json(chess5d_play::mistakes::list(p, n, review.as_ref()))
            }
            Call::StartMistake { id, n: index, .. } => {
                request::parse::<request::Empty>(body)?;
                let (n, _) = self.game(&id.0)?;
                let review = self.reviews.get(&n).map(|r| r.json(n));
                let p = &self.games[&n];
                p.check_review(ALL)?;
                let play = chess5d_play::mistakes::puzzle_game(
                    p,
                    n,
                    review.as_ref(),
                    &index.0,
                    REVIEW_NODES,
                    now.to_string(),
                )?;
                Answer::Created(self.new_game(play, now, out).1)
            }
            Call::CancelReview { id } => {
                let (n, p) = self.game(&id.0)?;
                p.check_review(ALL)?;
                let run = self
                    .reviews
                    .get_mut(&n)
                    .filter(|r| r.running())
                    .ok_or(PlayError::NoReviewRunning { game: n })?;
                // The search in the worker cannot be interrupted: the worker ends, the actions
                // reviewed so far are kept (without the summary a finished search gives).
                run.status = chess5d_play::review::ReviewStatus::Cancelled;
                run.reason = Some("cancelled".into());
                out.stop_review.push(n);
                json(json!({ "cancelled": n }))
            }
            Call::DeleteGame { id } => {
                let (n, _) = self.game(&id.0)?;
                self.games.remove(&n);
                if self.reviews.remove(&n).is_some() {
                    out.stop_review.push(n);
                }
                out.delete.push(n);
                out.notify
                    .push(json!({ "path": format!("/api/games/{n}/ws"), "message": { "deleted": n } }));
                json(json!({ "deleted": n }))
            }
            Call::GameMoves { id, .. } => {
                let (_, p) = self.game(&id.0)?;
                json(p.moves_asked(&q)?)
            }
            Call::GamePgn { id } => Answer::Text(self.game(&id.0)?.1.pgn()),
            Call::RetryEngine { id } => {
                let (n, p) = self.game(&id.0)?;
                let effects = p.retry_engine(ALL, n)?;
                Self::carry(p, n, effects, now, out);
                json(view_of(p, n, Shown::Live))
            }
            Call::Act { id, action: what, .. } => {
                let action = Action::read(what, body).ok_or_else(none)??;
                let (n, p) = self.game(&id.0)?;
                let effects = p.act(ALL, n, action)?;
                Self::carry(p, n, effects, now, out);
                json(view_of(p, n, Shown::Live))
            }
            Call::MyGames { .. } => json(json!({ "games": [] })),
            Call::Challenges { .. } => json(json!({ "challenges": [] })),
            Call::Lessons {} => json(chess5d_play::lesson::course_json()?),
            Call::StartExercise { id, n, .. } => {
                request::parse::<request::Empty>(body)?;
                let play = chess5d_play::lesson::exercise_game(&id.0, &n.0, now.to_string())?;
                Answer::Created(self.new_game(play, now, out).1)
            }
            Call::Puzzles { .. } => {
                let (offset, count) = q.page(PAGE_SIZE)?;
                let list = self.puzzle_list();
                let total = list.len();
                json(page_json(
                    "puzzles",
                    list.into_iter().skip(offset).take(count).collect(),
                    total,
                    offset,
                ))
            }
            Call::PuzzlePgn { id } => Answer::Text(self.puzzle(&id.0)?.2),
            Call::StartPuzzle { id, .. } => {
                request::parse::<request::Empty>(body)?;
                let (pid, name, text) = self.puzzle(&id.0)?;
                let loaded = request::import(&text)?;
                let engine = Player::Engine {
                    engine: Some(ENGINE.into()),
                    bot: Some("alphabeta".into()),
                    movetime_ms: Some(1000),
                };
                let play = request::puzzle_game(loaded, &pid, &name, engine, now.to_string());
                Answer::Created(self.new_game(play, now, out).1)
            }
            Call::MakePuzzle { .. } => {
                let mut req: PuzzleReq = request::parse(body)?;
                let (text, from_game) = match req.source()? {
                    Source::Import(loaded) => (chess5d_notation::write_5dpgn(&loaded), false),
                    Source::Game(id, at) => {
                        let (n, p) = self.game(&id.to_string())?;
                        let loaded = p.until(n, at)?;
                        (chess5d_notation::write_5dfen(loaded.game().position()), true)
                    }
                };
                out.prove =
                    Some(json!({ "text": text, "from_game": from_game, "mate_in": req.mate_in, "name": req.name }));
                json(Value::Null)
            }
            Call::CreateAnalysis { .. } => {
                let req: AnalysisReq = request::parse(body)?;
                let (loaded, from, game_pgn) = match req.source()? {
                    Source::Import(loaded) => {
                        let pgn = chess5d_notation::write_5dpgn(&loaded);
                        (*loaded, None, pgn)
                    }
                    Source::Game(id, at) => {
                        let (n, p) = self.game(&id.to_string())?;
                        (p.until(n, at)?, Some(n), p.pgn())
                    }
                };
                let base = loaded.game().actions().len();
                let human = || Player::Human { name: None };
                let play = Play::new(loaded, [human(), human()], None, None, now.to_string());
                self.next_board += 1;
                let id = self.next_board;
                self.boards.insert(
                    id,
                    Board {
                        play,
                        scratch: Scratch {
                            from_game: from,
                            base_actions: base,
                            game_pgn,
                        },
                        info: idle_info(),
                    },
                );
                Answer::Created(self.board_state(id))
            }
            Call::Analysis { id, .. } => {
                let at = q.at()?;
                let (n, b) = self.board(&id.0)?;
                let info = b.info.clone();
                let mut v = self.board_state_at(n, at);
                v["engine"] = info;
                json(v)
            }
            Call::DeleteAnalysis { id } => {
                let (n, _) = self.board(&id.0)?;
                self.boards.remove(&n);
                out.stop.push(n);
                json(json!({ "deleted": n }))
            }
            Call::AnalysisMoves { id, .. } => json(self.board(&id.0)?.1.play.moves_asked(&q)?),
            Call::AnalysisPgn { id } => {
                let (_, b) = self.board(&id.0)?;
                Answer::Text(b.scratch.export(&b.play)?)
            }
            Call::StartAnalysis { id, .. } => {
                let multipv = request::parse::<StartReq>(body)?.multipv()?;
                let (n, b) = self.board(&id.0)?;
                b.info = idle_info();
                b.info["running"] = json!(true);
                let even = b.play.game.start().even();
                let actions: String = b
                    .play
                    .game
                    .actions()
                    .iter()
                    .map(|a| long::write_action(&a.moves, even) + "\n")
                    .collect();
                out.stop.push(n);
                out.analyse
                    .push(json!({ "board": n, "start": b.play.start_text, "actions": actions, "multipv": multipv }));
                out.notify
                    .push(json!({ "path": format!("/api/analysis/{n}/ws"), "message": { "engine": b.info } }));
                json(b.info.clone())
            }
            Call::StopAnalysis { id } => {
                let (n, b) = self.board(&id.0)?;
                b.info["running"] = json!(false);
                out.stop.push(n);
                out.notify
                    .push(json!({ "path": format!("/api/analysis/{n}/ws"), "message": { "engine": b.info } }));
                json(b.info.clone())
            }
            Call::AnalysisAct { id, action: what, .. } => {
                let (n, b) = self.board(&id.0)?;
                if *what == "takeback" {
                    request::parse::<request::Empty>(body)?;
                    b.play.take_back(b.scratch.base_actions)?;
                } else {
                    let action = Action::read_on_board(what, body).ok_or_else(none)??;
                    let _ = b.play.act(ALL, 0, action)?;
                }
                b.info = idle_info();
                out.stop.push(n);
                out.notify
                    .push(json!({ "path": format!("/api/analysis/{n}/ws"), "message": { "engine": b.info } }));
                json(self.board_state(n))
            }
        })
    }

    fn board_state(&self, id: u64) -> Value {
        self.board_state_at(id, None)
    }

    /// A board's state, or (`at`) the position after its first `at` actions (as for games).
    fn board_state_at(&self, id: u64, at: Option<usize>) -> Value {
        self.boards
            .get(&id)
            .map_or(Value::Null, |b| b.scratch.state(&b.play, id, None, at))
    }

    /// A puzzle by id: built-in or made here (`user-<n>`): its id, name and record.
    fn puzzle(&self, id: &str) -> Result<(String, String, String), PlayError> {
        if let Some(p) = self.builtin.iter().find(|p| p.id == id) {
            return Ok((p.id.clone(), p.name.clone(), p.pgn.clone()));
        }
        id.strip_prefix("user-")
            .and_then(|n| n.parse::<u64>().ok())
            .and_then(|n| self.made.get(&n))
            .map(|m| (id.to_string(), m.name.clone(), m.pgn.clone()))
            .ok_or_else(|| PlayError::NoPuzzle { id: id.to_string() })
    }

    fn puzzle_list(&self) -> Vec<Value> {
        let mut status: BTreeMap<String, String> = BTreeMap::new();
        for p in self.games.values().filter_map(|g| g.puzzle.as_ref()) {
            if p.status != "playing" && status.get(&p.id).map(String::as_str) != Some("solved") {
                status.insert(p.id.clone(), p.status.clone());
            }
        }
        let st = |id: &str| status.get(id).cloned().unwrap_or_else(|| "unsolved".into());
        let mut list: Vec<Value> = self
            .builtin
            .iter()
            .map(|p| {
                PuzzleEntry::built_in(&p.id, &p.name, chess5d_notation::load(&p.pgn).ok().as_ref(), st(&p.id)).json()
            })
            .collect();
        for (n, m) in &self.made {
            let id = format!("user-{n}");
            let status = st(&id);
            list.push(PuzzleEntry::made(id, m.name.clone(), m.mate_in, m.to_move.clone(), status).json());
        }
        list
    }
}

/// The engine's action for a game (`start` 5DFEN, `actions` in long form one a line), searched
/// with `bot` within `budget` (the think task's [`chess5d_play::ThinkBudget`] as JSON, made the
/// engine's limits by [`chess5d_play::ThinkBudget::limits`] as the server does): JSON
/// `{moves: "<long moves, one a line>", info}`.
#[wasm_bindgen]
pub fn engine_think(start: &str, actions: &str, bot: &str, budget: &str) -> Result<String, JsError> {
    let budget: chess5d_play::ThinkBudget = serde_json::from_str(budget).map_err(|e| err(format!("budget: {e}")))?;
    let start = chess5d_notation::load(start).map_err(err)?.start().clone();
    let loaded = long::read_game(actions, Some(start)).map_err(err)?;
    let pos = loaded.game().position();
    let mut engine = Engine::new(EngineOptions {
        bot: Bot::from_name(bot).unwrap_or_default(),
        hash_mb: 8,
        ..EngineOptions::default()
    });
    let r = engine.search(pos, &budget.limits(None), &mut |_| {});
    let best = r.best.ok_or_else(|| err("the engine found no legal action"))?;
    let even = pos.even();
    let moves: String = best.iter().map(|m| long::write_move(m, even) + "\n").collect();
    Ok(json!({"moves": moves, "info": format!("depth {} score {}", r.depth, r.score)}).to_string())
}

/// The judge's search of a mistake's puzzle answer (run in the worker): the win percentage of
/// the side that just played in the position after `actions` (long form, one a line) from
/// `start` (5DFEN), within `nodes` ([`chess5d_play::mistakes::answer_win`]).
#[wasm_bindgen]
pub fn judge_answer(start: &str, actions: &str, nodes: f64) -> Result<f64, JsError> {
    let start = chess5d_notation::load(start).map_err(err)?.start().clone();
    let loaded = long::read_game(actions, Some(start)).map_err(err)?;
    let pos = loaded.game().position();
    Ok(chess5d_play::mistakes::answer_win(
        pos.to_move().other(),
        pos,
        nodes as u64,
    ))
}

/// The analysis of a position (`start` 5DFEN, `actions` in long form one a line) for
/// `movetime_ms`, reporting its `multipv` best lines (1 to 8; the analysis board asks for 3):
/// JSON `{depth, eval, nodes, nps, pv, lines}` as the analysis board reports it (`eval` from
/// White's view: `"35"` or `"mate -2"`; `lines` as the server's, best first; `depth`, `eval` and
/// `pv` are the best line's). The worker calls it with growing times.
#[wasm_bindgen]
pub fn engine_analyse(start: &str, actions: &str, movetime_ms: u32, multipv: u32) -> Result<String, JsError> {
    let start = chess5d_notation::load(start).map_err(err)?.start().clone();
    let loaded = long::read_game(actions, Some(start)).map_err(err)?;
    let pos = loaded.game().position();
    let multipv = chess5d_play::analysis_multipv(Some(&json!(multipv))).map_err(err)?;
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        multipv,
        ..EngineOptions::default()
    });
    let limits = Limits::movetime(Duration::from_millis(u64::from(movetime_ms.max(10))));
    let mut lines = chess5d_play::AnalysisLines::default();
    let r = engine.search(pos, &limits, &mut |i| {
        lines.update(loaded.game(), i.multipv, i.depth, i.score, &i.pv);
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

/// A forced mate of the side to move after `actions` (long form, one a line) from `start`,
/// proven by the solver within the analysis board's budget ([`chess5d_play::mates::Effort::analysis`]
/// with the puzzle maker's [`proof::TOTAL_BUDGET`]): [`chess5d_play::mates::Proven::json`] as
/// text, or `null` (no mate within reach, or not proven in time: the page says nothing).
#[wasm_bindgen]
pub fn proven_mate(start: &str, actions: &str) -> Result<String, JsError> {
    let start = chess5d_notation::load(start).map_err(err)?.start().clone();
    let loaded = long::read_game(actions, Some(start)).map_err(err)?;
    let pos = loaded.game().position();
    let effort = chess5d_play::mates::Effort::analysis(proof::TOTAL_BUDGET);
    Ok(chess5d_play::mates::proven_mate(pos, &effort)
        .map_or(Value::Null, |p| p.json(pos))
        .to_string())
}

/// The puzzle maker's proof (run in the worker): the service's [`proof::make_from_record`] on
/// the text the request named. JSON `{name, mate_in, to_move, pgn}`, or the refusal as
/// `{error: {kind, code, message}}`.
#[wasm_bindgen]
pub fn make_puzzle(text: &str, from_game: bool, mate_in: Option<u32>, name: Option<String>) -> String {
    let made = request::import(text).and_then(|l| {
        proof::make_from_record(l, from_game, mate_in.map(|n| n as usize), name, &proof::Work::default())
    });
    match made {
        Ok(m) => serde_json::to_string(&m).unwrap_or_default(),
        Err(e) => json!({ "error": refusal(&e) }).to_string(),
    }
}

#[wasm_bindgen]
extern "C" {
    /// A JavaScript function called with one string (the worker's progress callback).
    pub type Progress;
    #[wasm_bindgen(method, js_name = call)]
    fn call1(this: &Progress, this_arg: &JsValue, text: &str);
}

/// The computer review of a game (`start` 5DFEN, `actions` in long form one a line, `result` its
/// result if it has one), each position searched within the static site's budget
/// ([`chess5d_play::review::options`] with `nodes` nodes): `Review::json` as text, as
/// `chess5d review --json` writes it. `progress` is called after each position with JSON
/// `{searched, positions, action}` (`action`: the review of the action just completed, or null).
#[wasm_bindgen]
pub fn review_game(
    start: &str,
    actions: &str,
    result: Option<String>,
    nodes: f64,
    progress: &Progress,
) -> Result<String, JsError> {
    let start = chess5d_notation::load(start).map_err(err)?.start().clone();
    let loaded = long::read_game(actions, Some(start)).map_err(err)?;
    let nodes = if nodes.is_finite() && nodes >= 1.0 {
        nodes as u64
    } else {
        REVIEW_NODES
    };
    let mut reviewer = chess5d_engine::review::Reviewer::new(chess5d_play::review::options(nodes, 16, 1));
    let mut writer = chess5d_play::review::ActionWriter::new(loaded.game());
    let review = reviewer.review_game(loaded.game(), result, &mut |p| {
        let action = p.action.map(|a| writer.json(a));
        let report = json!({ "searched": p.searched, "positions": p.positions, "action": action });
        progress.call1(&JsValue::NULL, &report.to_string());
    });
    Ok(review.json().to_string())
}
