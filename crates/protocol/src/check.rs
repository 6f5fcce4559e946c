//! A compliance checker: walks an engine through 5DUCI step by step.

use crate::client::{EngineAnswer, EngineProcess, GameState};
use crate::text::{parse_fen_boards, StartPos};
use chess5d_engine::Limits;
use chess5d_rules::{Move, Position};
use std::fmt;
use std::time::{Duration, Instant};

/// The outcome of one step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// What the step checks.
    pub name: &'static str,
    /// `Ok(detail)` or `Err(what went wrong)`.
    pub result: Result<String, String>,
}

/// The result of [`check_engine`]: the steps run, stopping at the first failure.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The engine's `id name`.
    pub engine: String,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

impl Report {
    /// Whether every step passed.
    pub fn passed(&self) -> bool {
        self.steps.iter().all(|s| s.result.is_ok())
    }

    /// The first failing step.
    pub fn first_failure(&self) -> Option<&Step> {
        self.steps.iter().find(|s| s.result.is_err())
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "5DUCI compliance of '{}':", self.engine)?;
        for s in &self.steps {
            match &s.result {
                Ok(d) => writeln!(f, "  ok    {}: {d}", s.name)?,
                Err(e) => writeln!(f, "  FAIL  {}: {e}", s.name)?,
            }
        }
        write!(f, "{}", if self.passed() { "passed" } else { "failed" })
    }
}

fn quick() -> Limits {
    Limits::movetime(Duration::from_millis(200))
}

const STEP_TIMEOUT: Duration = Duration::from_secs(10);

fn action_text(a: &[Move]) -> String {
    crate::text::format_action(a)
}

fn ask(e: &mut EngineProcess, start: StartPos, actions: Vec<Vec<Move>>, limits: &Limits) -> Result<String, String> {
    let game = GameState { start, actions };
    let mut pos = game.start.position().map_err(|e| e.to_string())?;
    for a in &game.actions {
        for m in a {
            pos.play(m).map_err(|e| e.to_string())?;
        }
        pos.submit().map_err(|e| e.to_string())?;
    }
    e.is_ready(STEP_TIMEOUT).map_err(|e| e.to_string())?;
    match e.go(&game, &pos, limits, STEP_TIMEOUT).map_err(|e| e.to_string())? {
        EngineAnswer::Action(a) => Ok(format!("bestmove {}", action_text(&a))),
        EngineAnswer::NoMove => Err("nobestmove in a position with legal actions".into()),
    }
}

/// Starts `command` and checks, in order: the handshake, `isready`, options, `position startpos`
/// with `go`, a position with moves, a `fen` position, an even-timeline position, `stop` during
/// `go infinite` with `isready` during the search, and `quit` ... `bye`. Stops at the first
/// failure.
pub fn check_engine(command: &str) -> Report {
    let mut report = Report::default();
    let mut engine = match EngineProcess::spawn(command) {
        Ok(e) => e,
        Err(e) => {
            report.steps.push(Step {
                name: "start",
                result: Err(e.to_string()),
            });
            return report;
        }
    };
    type StepFn = Box<dyn Fn(&mut EngineProcess) -> Result<String, String>>;
    let steps: Vec<(&'static str, StepFn)> = vec![
        (
            "handshake",
            Box::new(|e| {
                e.send("5duci").map_err(|e| e.to_string())?;
                e.wait_for("5duciok", STEP_TIMEOUT).map_err(|e| e.to_string())?;
                Ok("5duciok".into())
            }),
        ),
        (
            "isready",
            Box::new(|e| {
                e.is_ready(STEP_TIMEOUT)
                    .map(|_| "readyok".into())
                    .map_err(|e| e.to_string())
            }),
        ),
        (
            "options",
            Box::new(|e| {
                e.set_option("Hash", "8").map_err(|e| e.to_string())?;
                e.send("setoption name NoSuchOption value 1")
                    .map_err(|e| e.to_string())?;
                e.new_game(STEP_TIMEOUT).map_err(|e| e.to_string())?;
                Ok("setoption and 5ducinewgame accepted".into())
            }),
        ),
        (
            "position startpos + go",
            Box::new(move |e| ask(e, StartPos::StartPos, vec![], &quick())),
        ),
        (
            "position with moves + go",
            Box::new(move |e| {
                let start = StartPos::StartPos;
                let mut pos = start.position().map_err(|e| e.to_string())?;
                let mut actions = Vec::new();
                for text in ["(0T1)e2(0T1)e4", "(0T1)e7(0T1)e5"] {
                    let mv = crate::text::parse_move(text, &pos).map_err(|e| e.to_string())?;
                    pos.play(&mv).map_err(|e| e.to_string())?;
                    pos.submit().map_err(|e| e.to_string())?;
                    actions.push(vec![mv]);
                }
                ask(e, start, actions, &quick())
            }),
        ),
        (
            "fen position + go",
            Box::new(move |e| {
                let setup = parse_fen_boards("[4k/5/5/5/K1R2:0:1:w]", None, None).map_err(|e| e.to_string())?;
                ask(e, StartPos::Fen(setup), vec![], &quick())
            }),
        ),
        (
            "even timelines + go",
            Box::new(move |e| {
                let start = StartPos::Variant("Standard - Two Timelines".into());
                let setup = start.position().map_err(|e| e.to_string())?.to_setup();
                ask(e, StartPos::Fen(setup), vec![], &quick())
            }),
        ),
        (
            "stop during go infinite, isready during search",
            Box::new(|e| {
                let pos = Position::standard();
                let game = GameState {
                    start: StartPos::Variant("Standard".into()),
                    actions: vec![],
                };
                e.send(&game.command(&[])).map_err(|e| e.to_string())?;
                e.send("go infinite").map_err(|e| e.to_string())?;
                std::thread::sleep(Duration::from_millis(100));
                let t = Instant::now();
                e.is_ready(Duration::from_secs(1))
                    .map_err(|err| format!("isready during search: {err}"))?;
                let ready_ms = t.elapsed().as_millis();
                let line = e.stop(Duration::from_secs(2)).map_err(|err| format!("stop: {err}"))?;
                let mut p = pos.clone();
                for tok in line.split_whitespace().skip(1) {
                    let mv = crate::text::parse_move(tok, &p).map_err(|e| e.to_string())?;
                    p.play(&mv).map_err(|e| e.to_string())?;
                }
                p.submit().map_err(|e| format!("'{line}': {e}"))?;
                Ok(format!("readyok after {ready_ms} ms, then {line}"))
            }),
        ),
    ];
    for (name, f) in steps {
        let result = f(&mut engine);
        let failed = result.is_err();
        if name == "handshake" {
            report.engine = engine.id().name.clone();
        }
        report.steps.push(Step { name, result });
        if failed {
            return report;
        }
    }
    let bye = engine.quit(Duration::from_secs(2));
    report.steps.push(Step {
        name: "quit",
        result: if bye {
            Ok("bye".into())
        } else {
            Err("no 'bye' after quit".into())
        },
    });
    report
}
