//! A compliance checker: walks an engine through 5DUCI step by step.

use crate::client::{EngineAnswer, EngineProcess, GameState};
use crate::extensions::Extensions;
use crate::text::{parse_fen_boards, Go, StartPos};
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
    /// The engine's `id name` (empty if it sent none, as the draft's engine does).
    pub engine: String,
    /// The extensions it announced; the steps for the others are skipped, not failed.
    pub extensions: Extensions,
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
        let name = if self.engine.is_empty() {
            "(no id name)"
        } else {
            &self.engine
        };
        writeln!(f, "5DUCI compliance of '{name}':")?;
        for s in &self.steps {
            match &s.result {
                Ok(d) => writeln!(f, "  ok    {}: {d}", s.name)?,
                Err(e) => writeln!(f, "  FAIL  {}: {e}", s.name)?,
            }
        }
        writeln!(f, "extensions: {}", self.extensions)?;
        write!(f, "{}", if self.passed() { "passed" } else { "failed" })
    }
}

fn quick() -> Go {
    Go::movetime(Duration::from_millis(200))
}

const STEP_TIMEOUT: Duration = Duration::from_secs(10);

/// The detail of an extension step for an engine that does not announce the extension.
const NOT_ANNOUNCED: &str = "not announced, skipped";

fn action_text(a: &[Move]) -> String {
    crate::text::format_action(a)
}

fn ask(e: &mut EngineProcess, start: StartPos, actions: Vec<Vec<Move>>, limits: &Go) -> Result<String, String> {
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

/// Starts `command` and checks, in order: the handshake (reading the extensions the engine
/// announces), `isready`, options, `position startpos` with `go`, a position with moves, a
/// `fen` position, an even-timeline position, a promotion in the moves, `stop` during a search
/// with `isready` during it (answered at once if the engine announced `readyok`, at the end of
/// the search otherwise), one step per extension (skipped when not announced: an engine that
/// speaks the draft alone passes), and `quit` ... `bye`. Stops at the first failure.
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
                e.set_extensions(Extensions::from_options(&e.id().options));
                Ok(format!("5duciok; extensions: {}", e.extensions()))
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
            "promotion written as the draft writes it",
            Box::new(move |e| {
                let setup = parse_fen_boards("[4k/P4/5/5/K4:0:1:w]", None, None).map_err(|e| e.to_string())?;
                let start = StartPos::Fen(setup);
                let pos = start.position().map_err(|e| e.to_string())?;
                let mv = crate::text::parse_move("(0T1)a4(0T1)a5Q", &pos).map_err(|e| e.to_string())?;
                ask(e, start, vec![vec![mv]], &quick())
            }),
        ),
        (
            "stop during a search, isready during the search",
            Box::new(|e| {
                let ext = e.extensions();
                let game = GameState {
                    start: StartPos::Variant("Standard".into()),
                    actions: vec![],
                };
                let position = game.command_for(&[], &ext).map_err(|e| e.to_string())?;
                e.send(&position).map_err(|e| e.to_string())?;
                // The draft's bare `go` searches until `stop`, as `go infinite` does.
                e.send(if ext.infinite { "go infinite" } else { "go" })
                    .map_err(|e| e.to_string())?;
                std::thread::sleep(Duration::from_millis(100));
                let t = Instant::now();
                let ready = if ext.readyok {
                    // Announced: `readyok` at once, during the search.
                    e.is_ready(Duration::from_secs(1))
                        .map_err(|err| format!("isready during search (readyok announced): {err}"))?;
                    format!("readyok after {} ms", t.elapsed().as_millis())
                } else {
                    // The draft: `readyok` may wait until the search ends.
                    e.send_isready().map_err(|e| e.to_string())?;
                    "readyok deferred (the draft)".to_string()
                };
                let line = e.stop(Duration::from_secs(2)).map_err(|err| format!("stop: {err}"))?;
                e.is_ready(Duration::from_secs(2))
                    .map_err(|err| format!("isready after stop: {err}"))?;
                let mut p = Position::standard();
                for tok in line.split_whitespace().skip(1) {
                    let mv = crate::text::parse_move(tok, &p).map_err(|e| e.to_string())?;
                    p.play(&mv).map_err(|e| e.to_string())?;
                }
                p.submit().map_err(|e| format!("'{line}': {e}"))?;
                Ok(format!("{ready}, then {line}"))
            }),
        ),
        (
            "extension variant",
            Box::new(|e| {
                if !e.extensions().variant {
                    return Ok(NOT_ANNOUNCED.into());
                }
                ask(
                    e,
                    StartPos::Variant("Standard - Two Timelines".into()),
                    vec![],
                    &quick(),
                )
            }),
        ),
        (
            "extension clock",
            Box::new(|e| {
                if !e.extensions().clock {
                    return Ok(NOT_ANNOUNCED.into());
                }
                let clock = Duration::from_millis(1000);
                let limits = Go {
                    wtime: Some(clock),
                    btime: Some(clock),
                    winc: Some(Duration::ZERO),
                    binc: Some(Duration::ZERO),
                    ..Go::default()
                };
                let t = Instant::now();
                let best = ask(e, StartPos::StartPos, vec![], &limits)?;
                let took = t.elapsed();
                if took > clock {
                    return Err(format!(
                        "{} ms on a clock of {} ms",
                        took.as_millis(),
                        clock.as_millis()
                    ));
                }
                Ok(format!("{best} in {} ms of a 1000 ms clock", took.as_millis()))
            }),
        ),
        (
            "extension nodes, info",
            Box::new(|e| {
                let ext = e.extensions();
                if !ext.nodes {
                    return Ok(NOT_ANNOUNCED.into());
                }
                let limits = Go {
                    nodes: Some(200),
                    ..Go::default()
                };
                let best = ask(e, StartPos::StartPos, vec![], &limits)?;
                if ext.info && !e.last_info.as_deref().is_some_and(|i| i.contains(" score ")) {
                    return Err(format!("info announced, but no 'info ... score' line before '{best}'"));
                }
                Ok(best)
            }),
        ),
    ];
    for (name, f) in steps {
        let result = f(&mut engine);
        let failed = result.is_err();
        if name == "handshake" {
            report.engine = engine.id().name.clone();
            report.extensions = engine.extensions();
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
