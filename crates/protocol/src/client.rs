//! The client side of 5DUCI: drive an engine process, validate what it says, and turn every
//! misbehaviour into an [`EngineError`] instead of a hang or a panic.

use crate::text::{format_move, go_text, parse_move_text, PositionCommand, StartPos};
use chess5d_engine::Limits;
use chess5d_rules::{Color, Move, Position, SubmitError};
use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What went wrong with an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process ended (or closed its output) unexpectedly.
    Crashed {
        /// Its exit status, if it exited.
        status: Option<String>,
        /// The last lines it wrote to standard error.
        stderr_tail: String,
    },
    /// No answer in time.
    Timeout {
        /// How long the client waited.
        waited: Duration,
    },
    /// The engine's move or action is not legal.
    IllegalMove {
        /// What it sent.
        text: String,
        /// Why it is illegal.
        reason: String,
    },
    /// A `bestmove` line that cannot be read.
    Unparsable {
        /// The line.
        line: String,
    },
    /// `nobestmove` in a position with a legal action.
    NoBestMove,
    /// An answer out of place.
    Protocol {
        /// What was expected.
        expected: String,
        /// What came.
        got: String,
    },
    /// The process could not be started or written to.
    Io(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Crashed { status, stderr_tail } => {
                write!(f, "engine crashed")?;
                if let Some(s) = status {
                    write!(f, " ({s})")?;
                }
                if !stderr_tail.is_empty() {
                    write!(f, "; stderr: {}", stderr_tail.trim_end())?;
                }
                Ok(())
            }
            EngineError::Timeout { waited } => write!(f, "engine timed out after {} ms", waited.as_millis()),
            EngineError::IllegalMove { text, reason } => write!(f, "illegal move '{text}': {reason}"),
            EngineError::Unparsable { line } => write!(f, "unparsable answer '{line}'"),
            EngineError::NoBestMove => write!(f, "engine answered nobestmove but a legal action exists"),
            EngineError::Protocol { expected, got } => write!(f, "protocol error: expected {expected}, got '{got}'"),
            EngineError::Io(e) => write!(f, "i/o error: {e}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// The answer to `go`, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineAnswer {
    /// A legal action (played and submitted on a copy of the position to check it).
    Action(Vec<Move>),
    /// `nobestmove`: the engine says it has no legal action.
    NoMove,
}

/// What the engine said about itself in the handshake.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineId {
    /// `id name`.
    pub name: String,
    /// `id author`.
    pub author: String,
    /// The `option` lines.
    pub options: Vec<String>,
}

/// A game as the client sends it: the start and the actions played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameState {
    /// Where the game started.
    pub start: StartPos,
    /// The actions played so far.
    pub actions: Vec<Vec<Move>>,
}

impl GameState {
    /// The `position` command for this game, with `extra` moves of an unfinished action.
    pub fn command(&self, extra: &[Move]) -> String {
        let mut moves = Vec::new();
        for a in &self.actions {
            moves.extend(a.iter().map(format_move));
            moves.push("submit".to_string());
        }
        moves.extend(extra.iter().map(format_move));
        PositionCommand {
            start: self.start.clone(),
            moves,
        }
        .to_command()
    }
}

const STDERR_LINES: usize = 20;

/// A running engine process speaking 5DUCI.
#[derive(Debug)]
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    id: EngineId,
    /// The last `info` line of the last search.
    pub last_info: Option<String>,
}

impl EngineProcess {
    /// Starts `command` with `sh -c`, without the handshake.
    pub fn spawn(command: &str) -> Result<EngineProcess, EngineError> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| EngineError::Io(format!("cannot start '{command}': {e}")))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or_else(|| EngineError::Io("no stdout".into()))?;
        let stderr = child.stderr.take().ok_or_else(|| EngineError::Io("no stderr".into()))?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail2 = Arc::clone(&tail);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let mut t = tail2.lock().unwrap_or_else(|e| e.into_inner());
                if t.len() == STDERR_LINES {
                    t.pop_front();
                }
                t.push_back(line);
            }
        });
        Ok(EngineProcess {
            child,
            stdin,
            lines: rx,
            stderr: tail,
            id: EngineId::default(),
            last_info: None,
        })
    }

    /// Starts `command` and does the handshake (`5duci` ... `5duciok`, `isready` ... `readyok`).
    pub fn start(command: &str, timeout: Duration) -> Result<EngineProcess, EngineError> {
        let mut e = EngineProcess::spawn(command)?;
        e.handshake(timeout)?;
        Ok(e)
    }

    /// What the engine said in the handshake.
    pub fn id(&self) -> &EngineId {
        &self.id
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let res = match self.stdin.as_mut() {
            Some(w) => writeln!(w, "{line}").and_then(|_| w.flush()),
            None => return Err(EngineError::Io("engine input closed".into())),
        };
        res.map_err(|_| self.crashed())
    }

    fn crashed(&mut self) -> EngineError {
        // Give the process a moment to finish exiting so that its status is known.
        let mut status = None;
        for _ in 0..50 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(describe_status(s));
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        std::thread::sleep(Duration::from_millis(5));
        let tail = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        EngineError::Crashed {
            status,
            stderr_tail: tail.iter().cloned().collect::<Vec<_>>().join("\n"),
        }
    }

    /// The next line, waiting until `deadline`.
    pub fn read_line(&mut self, deadline: Instant, started: Instant) -> Result<String, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout {
                waited: started.elapsed(),
            }),
            Err(RecvTimeoutError::Disconnected) => Err(self.crashed()),
        }
    }

    /// Reads lines until one whose first word is `word`; `id` and `option` lines are recorded.
    pub(crate) fn wait_for(&mut self, word: &str, timeout: Duration) -> Result<String, EngineError> {
        let started = Instant::now();
        let deadline = started + timeout;
        loop {
            let line = self.read_line(deadline, started)?;
            let first = line.split_whitespace().next().unwrap_or("");
            if first == word {
                return Ok(line);
            }
            match first {
                "id" => {
                    if let Some(n) = line.strip_prefix("id name ") {
                        self.id.name = n.trim().to_string();
                    } else if let Some(a) = line.strip_prefix("id author ") {
                        self.id.author = a.trim().to_string();
                    }
                }
                "option" => self.id.options.push(line.clone()),
                "bestmove" | "nobestmove" | "bye" if word != "bestmove" => {
                    return Err(EngineError::Protocol {
                        expected: word.to_string(),
                        got: line,
                    })
                }
                _ => {}
            }
        }
    }

    /// `5duci` ... `5duciok`, then `isready` ... `readyok`.
    pub fn handshake(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("5duci")?;
        self.wait_for("5duciok", timeout)?;
        self.is_ready(timeout)
    }

    /// `isready` ... `readyok`.
    pub fn is_ready(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        self.wait_for("readyok", timeout).map(|_| ())
    }

    /// `setoption name <name> value <value>`.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `5ducinewgame`, then `isready` ... `readyok`.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("5ducinewgame")?;
        self.is_ready(timeout)
    }

    /// Asks for an action in `game` (whose current position is `pos`) and checks it.
    ///
    /// Accepts both readings of the draft: the whole action in one `bestmove`, or one move per
    /// `go` until `bestmove submit` (the client then sends the position with the moves so far
    /// and asks again). `timeout` bounds the whole exchange.
    pub fn go(
        &mut self,
        game: &GameState,
        pos: &Position,
        limits: &Limits,
        timeout: Duration,
    ) -> Result<EngineAnswer, EngineError> {
        let started = Instant::now();
        let deadline = started + timeout;
        let mut work = pos.clone();
        let mut played: Vec<Move> = Vec::new();
        self.last_info = None;
        for _round in 0..64 {
            self.send(&game.command(&played))?;
            self.send(&go_text(limits))?;
            let line = loop {
                let line = self.read_line(deadline, started)?;
                let first = line.split_whitespace().next().unwrap_or("");
                match first {
                    "bestmove" | "nobestmove" => break line,
                    "info" => self.last_info = Some(line),
                    "bye" => {
                        return Err(EngineError::Protocol {
                            expected: "bestmove".into(),
                            got: line,
                        })
                    }
                    _ => {}
                }
            };
            let toks: Vec<&str> = line.split_whitespace().collect();
            if toks[0] == "nobestmove" || toks.get(1) == Some(&"(none)") {
                if !played.is_empty() {
                    return Err(EngineError::IllegalMove {
                        text: line.clone(),
                        reason: "nobestmove in the middle of an action".into(),
                    });
                }
                return Ok(EngineAnswer::NoMove);
            }
            if toks.len() < 2 {
                return Err(EngineError::Unparsable { line });
            }
            let mut saw_submit = false;
            for tok in &toks[1..] {
                if *tok == "submit" {
                    saw_submit = true;
                    break;
                }
                let mt = parse_move_text(tok, work.to_move() == Color::Black)
                    .map_err(|_| EngineError::Unparsable { line: line.clone() })?;
                let mv = work
                    .find_move(mt.from, mt.to, mt.promotion)
                    .map_err(|e| EngineError::IllegalMove {
                        text: tok.to_string(),
                        reason: e.to_string(),
                    })?;
                work.play(&mv).map_err(|e| EngineError::IllegalMove {
                    text: tok.to_string(),
                    reason: e.to_string(),
                })?;
                played.push(mv);
            }
            match work.can_submit() {
                Ok(()) => {
                    work.submit().map_err(|e| EngineError::IllegalMove {
                        text: line.clone(),
                        reason: e.to_string(),
                    })?;
                    return Ok(EngineAnswer::Action(played));
                }
                Err(SubmitError::MandatoryBoard(b)) if !saw_submit => {
                    // One move per `go`: ask for the next move of the action.
                    let _ = b;
                    continue;
                }
                Err(e) => {
                    return Err(EngineError::IllegalMove {
                        text: line.trim_start_matches("bestmove").trim().to_string(),
                        reason: e.to_string(),
                    })
                }
            }
        }
        Err(EngineError::Protocol {
            expected: "a complete action within 64 answers".into(),
            got: "more moves".into(),
        })
    }

    /// Sends `stop` and reads the pending `bestmove` (returned unchecked).
    pub fn stop(&mut self, timeout: Duration) -> Result<String, EngineError> {
        self.send("stop")?;
        self.wait_for("bestmove", timeout).or_else(|e| match e {
            // `nobestmove` is a valid answer to stop too.
            EngineError::Protocol { got, .. } if got.starts_with("nobestmove") => Ok(got),
            e => Err(e),
        })
    }

    /// `quit`, waits for `bye` and the process' exit (up to `timeout`), then kills it if needed.
    /// Returns whether the engine said `bye`.
    pub fn quit(mut self, timeout: Duration) -> bool {
        let said_bye = self.send("quit").is_ok() && self.wait_for("bye", timeout).is_ok();
        self.stdin = None;
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return said_bye;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        said_bye
    }

    /// Whether the process is still running.
    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

fn describe_status(s: ExitStatus) -> String {
    if let Some(c) = s.code() {
        return format!("exit code {c}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = s.signal() {
            return format!("killed by signal {sig}");
        }
    }
    s.to_string()
}
