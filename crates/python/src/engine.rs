//! `chess5d.Engine` (the engine of `chess5d-engine`, in-process) and `chess5d.UciEngine` (any
//! program speaking 5DUCI, through `chess5d_protocol::EngineProcess`). Both search with the GIL
//! released, so other Python threads run meanwhile.

use crate::errors::{self, Chess5dError};
use crate::game::{long_all, Game};
use chess5d_engine::Score;
use chess5d_protocol::{EngineAnswer, EngineProcess, GameState, Go, StartPos};
use chess5d_rules::Position;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Mutex;
use std::time::Duration;

/// What a search found.
#[pyclass(module = "chess5d", get_all)]
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The action to play (moves in long form, for ``Game.play``), or ``None`` when the side
    /// to move has no legal action.
    action: Option<Vec<String>>,
    /// The score in 5DUCI form, ``"cp 35"`` or ``"mate -2"``, from the side to move's view
    /// (``None`` when an external engine gave none).
    score: Option<String>,
    /// Centipawns, when the score is not a mate.
    cp: Option<i32>,
    /// Mate in this many of the side to move's actions (negative: it gets mated).
    mate: Option<i32>,
    /// The last depth searched completely (0 when unknown).
    depth: u32,
    /// Nodes searched (0 when unknown).
    nodes: u64,
    /// Seconds spent.
    time: f64,
    /// The principal variation, one action (list of long-form moves) per ply.
    pv: Vec<Vec<String>>,
}

#[pymethods]
impl SearchResult {
    /// The principal variation (the same as ``pv``): the line the engine expects.
    #[getter]
    fn line(&self) -> Vec<Vec<String>> {
        self.pv.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "SearchResult(action={:?}, score={:?}, depth={}, nodes={})",
            self.action, self.score, self.depth, self.nodes
        )
    }
}

/// A duration in seconds, checked.
fn seconds(name: &str, s: f64) -> PyResult<Duration> {
    Duration::try_from_secs_f64(s)
        .map_err(|_| PyValueError::new_err(format!("{name} must be a number of seconds >= 0, not {s}")))
}

/// The search limits as `go` gives them: `movetime` in seconds, `depth` in actions; neither
/// means one second (for the built-in engine, [`Limits::from`] them).
fn limits(movetime: Option<f64>, depth: Option<u32>) -> PyResult<Go> {
    let movetime = movetime.map(|s| seconds("movetime", s)).transpose()?;
    Ok(Go {
        movetime,
        depth,
        ..Go::default()
    })
}

/// The position a search starts from: the game's, between two actions.
fn searchable(game: &Game) -> PyResult<Position> {
    let pos = game.position();
    if pos.action_len() > 0 {
        return Err(Chess5dError::new_err(
            "the current action has moves not submitted yet: submit() or undo() them before searching",
        ));
    }
    Ok(pos.clone())
}

/// The engine of chess5d (alpha-beta over legal actions), in this process.
///
/// ``options`` are its 5DUCI options by name (``Hash``, ``Threads``, ``Bot``: ``alphabeta``,
/// ``greedy`` or ``random``, ``ActionCap``, ``NodeBudget``, ``Seed``, ``MoveOverhead``), e.g.
/// ``Engine({"Bot": "greedy", "Seed": 7})``. The transposition table is kept from search to
/// search; ``new_game()`` clears it.
#[pyclass(module = "chess5d")]
#[derive(Debug)]
pub struct Engine {
    engine: chess5d_engine::Engine,
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (options = None))]
    fn new(options: Option<&Bound<'_, PyDict>>) -> PyResult<Engine> {
        let mut engine = chess5d_engine::Engine::default();
        for (name, value) in options.into_iter().flat_map(|d| d.iter()) {
            let name: String = name.extract()?;
            let value = value.str()?.to_string();
            engine
                .set_option(&name, &value)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
        }
        Ok(Engine { engine })
    }

    /// The options (name and type) as 5DUCI announces them.
    #[staticmethod]
    fn option_specs() -> Vec<String> {
        chess5d_engine::Engine::option_specs()
            .iter()
            .map(|s| s.uci_line())
            .collect()
    }

    /// Sets one option by its 5DUCI name; raises ``ValueError`` for an unknown option or value.
    fn set_option(&mut self, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let value = value.str()?.to_string();
        self.engine
            .set_option(name, &value)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// Forgets what earlier searches learnt.
    fn new_game(&mut self) {
        self.engine.new_game();
    }

    /// Searches the game's position for ``movetime`` seconds and/or to ``depth`` actions (one
    /// second when neither is given) and returns a ``SearchResult``. The GIL is released
    /// during the search.
    #[pyo3(signature = (game, movetime = None, depth = None))]
    fn search(
        &mut self,
        py: Python<'_>,
        game: PyRef<'_, Game>,
        movetime: Option<f64>,
        depth: Option<u32>,
    ) -> PyResult<SearchResult> {
        let limits = limits(movetime, depth)?;
        let pos = searchable(&game)?;
        drop(game);
        let engine = &mut self.engine;
        let r = py.detach(|| engine.search(&pos, &limits, &mut |_| {}));
        let even = pos.even();
        let (cp, mate) = match r.score {
            Score::Cp(c) => (Some(c), None),
            Score::Mate(n) => (None, Some(n)),
        };
        Ok(SearchResult {
            action: r.best.map(|a| long_all(&a, even)),
            score: Some(r.score.to_string()),
            cp,
            mate,
            depth: r.depth,
            nodes: r.nodes,
            time: r.time.as_secs_f64(),
            pv: r.pv.iter().map(|a| long_all(a, even)).collect(),
        })
    }

    fn __repr__(&self) -> String {
        format!("Engine(Bot={})", self.engine.options().bot.name())
    }
}

/// Reads `score cp N` / `score mate N`, `depth N` and `nodes N` from a 5DUCI `info` line.
fn info_fields(info: &str) -> (Option<i32>, Option<i32>, u32, u64) {
    let toks: Vec<&str> = info.split_whitespace().collect();
    let after = |key: &str| toks.iter().position(|t| *t == key).and_then(|i| toks.get(i + 1));
    let (mut cp, mut mate) = (None, None);
    if let Some(i) = toks.iter().position(|t| *t == "score") {
        match (toks.get(i + 1), toks.get(i + 2).and_then(|v| v.parse().ok())) {
            (Some(&"cp"), Some(v)) => cp = Some(v),
            (Some(&"mate"), Some(v)) => mate = Some(v),
            _ => {}
        }
    }
    let depth = after("depth").and_then(|v| v.parse().ok()).unwrap_or(0);
    let nodes = after("nodes").and_then(|v| v.parse().ok()).unwrap_or(0);
    (cp, mate, depth, nodes)
}

/// The principal variation of a 5DUCI `info` line (`pv` moves in the protocol's form, actions
/// separated by `submit`), read against `pos` and written in long form; it stops at the first
/// move that does not fit (the line is informational: the answer itself is checked).
fn info_pv(info: &str, pos: &Position) -> Vec<Vec<String>> {
    let Some((_, pv)) = info.split_once(" pv ") else {
        return Vec::new();
    };
    let mut work = pos.clone();
    let mut line = Vec::new();
    let mut action = Vec::new();
    for tok in pv.split_whitespace() {
        if tok == "submit" {
            if work.submit().is_err() {
                break;
            }
            line.push(long_all(&std::mem::take(&mut action), pos.even()));
            continue;
        }
        match chess5d_protocol::parse_move(tok, &work).map(|m| work.play(&m)) {
            Ok(Ok(m)) => action.push(m),
            _ => return line,
        }
    }
    if !action.is_empty() && work.submit().is_ok() {
        line.push(long_all(&action, pos.even()));
    }
    line
}

fn engine_error(e: chess5d_protocol::EngineError) -> PyErr {
    errors::EngineError::new_err(e.to_string())
}

/// A 5DUCI engine program, started with ``sh -c command`` and driven over its standard input
/// and output; every answer is checked against the rules (an illegal action, a crash, a
/// timeout or a protocol error raises ``EngineError``). Use it as a context manager, or call
/// ``quit()``; the process is killed when the object goes away.
#[pyclass(module = "chess5d")]
#[derive(Debug)]
pub struct UciEngine {
    process: Mutex<Option<EngineProcess>>,
}

impl UciEngine {
    fn with<T>(&self, f: impl FnOnce(&mut EngineProcess) -> PyResult<T>) -> PyResult<T> {
        let mut guard = self.process.lock().unwrap_or_else(|e| e.into_inner());
        match guard.as_mut() {
            Some(p) => f(p),
            None => Err(errors::EngineError::new_err("the engine has quit")),
        }
    }
}

#[pymethods]
impl UciEngine {
    /// Starts ``command`` and does the handshake (``5duci``, ``isready``) within ``timeout``
    /// seconds.
    #[new]
    #[pyo3(signature = (command, timeout = 10.0))]
    fn new(py: Python<'_>, command: &str, timeout: f64) -> PyResult<UciEngine> {
        let timeout = seconds("timeout", timeout)?;
        let process = py
            .detach(|| EngineProcess::start(command, timeout))
            .map_err(engine_error)?;
        Ok(UciEngine {
            process: Mutex::new(Some(process)),
        })
    }

    /// The engine's ``id name``.
    #[getter]
    fn name(&self) -> PyResult<String> {
        self.with(|p| Ok(p.id().name.clone()))
    }

    /// The engine's ``id author``.
    #[getter]
    fn author(&self) -> PyResult<String> {
        self.with(|p| Ok(p.id().author.clone()))
    }

    /// The ``option`` lines of the handshake.
    #[getter]
    fn options(&self) -> PyResult<Vec<String>> {
        self.with(|p| Ok(p.id().options.clone()))
    }

    /// Sends ``setoption name <name> value <value>``.
    fn set_option(&self, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let value = value.str()?.to_string();
        self.with(|p| p.set_option(name, &value).map_err(engine_error))
    }

    /// Sends ``5ducinewgame`` and waits for ``readyok``.
    #[pyo3(signature = (timeout = 10.0))]
    fn new_game(&self, py: Python<'_>, timeout: f64) -> PyResult<()> {
        let timeout = seconds("timeout", timeout)?;
        self.with(|p| py.detach(|| p.new_game(timeout)).map_err(engine_error))
    }

    /// Sends the game and ``go`` (``movetime`` in seconds, ``depth`` in actions; one second when
    /// neither is given), waits at most ``timeout`` seconds (default: the move time plus ten
    /// seconds, or a minute) and returns the checked answer. The GIL is released meanwhile.
    #[pyo3(signature = (game, movetime = None, depth = None, timeout = None))]
    fn search(
        &self,
        py: Python<'_>,
        game: PyRef<'_, Game>,
        movetime: Option<f64>,
        depth: Option<u32>,
        timeout: Option<f64>,
    ) -> PyResult<SearchResult> {
        let limits = limits(movetime, depth)?;
        let pos = searchable(&game)?;
        let start = game.start().clone();
        let actions: Vec<Vec<_>> = game.submitted().iter().map(|a| a.moves.clone()).collect();
        drop(game);
        let start = match chess5d_notation::start::variant_of(&start) {
            Some(v) => StartPos::Variant(v.name.to_string()),
            None => StartPos::Fen(start.to_setup()),
        };
        let state = GameState { start, actions };
        let wait = match timeout {
            Some(t) => t,
            None => movetime.map_or(60.0, |m| m + 10.0),
        };
        let wait = seconds("timeout", wait)?;
        let even = pos.even();
        let began = std::time::Instant::now();
        let (answer, info) = self
            .with(|p| match py.detach(|| p.go(&state, &pos, &limits, wait)) {
                Ok(answer) => Ok(Ok((answer, p.last_info.clone()))),
                Err(e) => Ok(Err(e)),
            })?
            .map_err(|e| {
                // An engine that did not answer in time is in no state to go on: it is ended with
                // everything it started (its process group), and later calls say it has quit.
                if matches!(e, chess5d_protocol::EngineError::Timeout { .. }) {
                    drop(self.process.lock().unwrap_or_else(|e| e.into_inner()).take());
                }
                engine_error(e)
            })?;
        let (cp, mate, depth, nodes) = info.as_deref().map_or((None, None, 0, 0), info_fields);
        let score = match (cp, mate) {
            (Some(c), _) => Some(format!("cp {c}")),
            (None, Some(m)) => Some(format!("mate {m}")),
            _ => None,
        };
        Ok(SearchResult {
            action: match answer {
                EngineAnswer::Action(moves) => Some(long_all(&moves, even)),
                EngineAnswer::NoMove => None,
            },
            score,
            cp,
            mate,
            depth,
            nodes,
            time: began.elapsed().as_secs_f64(),
            pv: info.as_deref().map_or_else(Vec::new, |i| info_pv(i, &pos)),
        })
    }

    /// Sends ``quit`` and waits up to ``timeout`` seconds for the process to end (it is killed
    /// after that). Returns whether the engine said ``bye``. Later calls raise ``EngineError``.
    #[pyo3(signature = (timeout = 2.0))]
    fn quit(&self, py: Python<'_>, timeout: f64) -> PyResult<bool> {
        let timeout = seconds("timeout", timeout)?;
        let process = self.process.lock().unwrap_or_else(|e| e.into_inner()).take();
        match process {
            Some(p) => Ok(py.detach(|| p.quit(timeout))),
            None => Ok(false),
        }
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, pyo3::types::PyTuple>) -> PyResult<bool> {
        self.quit(py, 2.0)?;
        Ok(false)
    }
}
