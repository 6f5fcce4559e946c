//! The client side of 5DUCI: drive an engine process, validate what it says, and turn every
//! misbehaviour into an [`EngineError`] instead of a hang or a panic.

use crate::extensions::Extensions;
use crate::text::{format_move, go_text_for, parse_move_text, Go, ParseError, PositionCommand, StartPos};
use chess5d_rules::{Color, Move, Position, SubmitError};
use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// The `position` command for this game, with `extra` moves of an unfinished action, with
    /// every extension (the start of an official variant as `variant "<name>"`).
    pub fn command(&self, extra: &[Move]) -> String {
        PositionCommand {
            start: self.start.clone(),
            moves: self.move_tokens(extra),
        }
        .to_command()
    }

    /// The `position` command for an engine with these extensions: without `variant`, in the
    /// draft's forms alone (`startpos` or `size .. fen ..`, see [`StartPos::draft_text`]).
    pub fn command_for(&self, extra: &[Move], ext: &Extensions) -> Result<String, ParseError> {
        let mut s = format!("position {}", self.start.command_text_for(ext)?);
        let moves = self.move_tokens(extra);
        if !moves.is_empty() {
            s.push_str(" moves ");
            s.push_str(&moves.join(" "));
        }
        Ok(s)
    }

    fn move_tokens(&self, extra: &[Move]) -> Vec<String> {
        let mut moves = Vec::new();
        for a in &self.actions {
            moves.extend(a.iter().map(format_move));
            moves.push("submit".to_string());
        }
        moves.extend(extra.iter().map(format_move));
        moves
    }
}

const STDERR_LINES: usize = 20;

/// How long `isready` after `5ducinewgame` may stay unanswered before the client sends a second
/// `5ducinewgame`, which wakes the draft's engine when it has lost it.
const NEWGAME_WAKE: Duration = Duration::from_millis(1000);

/// How often a command the engine dropped as busy is sent again.
const RETRIES: usize = 5;

/// The shortest `movetime` the client gives an engine without the clock extension.
const MIN_MOVETIME: Duration = Duration::from_millis(10);

/// The `movetime` of a draft engine when the limits give it nothing it understands (a node
/// count, or no limit at all): without one it would search until `stop`.
pub const FALLBACK_MOVETIME: Duration = Duration::from_millis(1000);

/// The default of [`EngineProcess::movetime_margin`].
pub const DEFAULT_MOVETIME_MARGIN: Duration = Duration::from_millis(250);

/// Whether an `info` line says that the engine dropped a command: the draft's engine answers
/// `info engine is busy, please run 'stop' first` and `info search already running`.
fn is_busy(line: &str) -> bool {
    line.starts_with("info ")
        && !line.starts_with("info string")
        && (line.contains("busy") || line.contains("already running"))
}

/// Whether a line says that the engine could not read the last `position` (the draft's engine
/// then keeps the previous position; ours has none).
fn is_position_error(line: &str) -> bool {
    line.starts_with("info position error") || line.starts_with("info string bad position")
}

/// What the client saw while waiting for `readyok`.
#[derive(Default)]
struct Seen {
    busy: bool,
    position_error: Option<String>,
}

/// A running engine process speaking 5DUCI.
///
/// The client learns the engine's [`Extensions`] in the handshake and speaks the draft's forms
/// alone to an engine that announces none: `startpos`/`fen` starts, `go movetime` derived from
/// its clock, `readyok` awaited before every `position` and `go`, commands dropped as busy sent
/// again (see the crate's `PROTOCOL.md`).
#[derive(Debug)]
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// Set when the engine's stderr has reached its end (the process and its children closed it).
    stderr_done: Arc<AtomicBool>,
    id: EngineId,
    extensions: Extensions,
    /// `isready` sent and not yet answered.
    ready_owed: usize,
    /// A `go` was sent and its `bestmove` has not come.
    searching: bool,
    /// A `bestmove` that came while the client waited for `readyok` (the draft defers
    /// `readyok` until the search ends).
    stashed_best: Option<String>,
    movetime_margin: Duration,
    /// The most an engine without the clock extension took over its `movetime`.
    max_overshoot: Duration,
    /// The last `info` line of the last search.
    pub last_info: Option<String>,
}

impl EngineProcess {
    /// Starts `command` with `sh -c`, without the handshake.
    ///
    /// On Unix the shell and everything it starts form a process group of their own, so that
    /// ending the engine ends the engine itself and not only the shell (dash does not `exec`
    /// a lone command: killing the shell alone would leave a hung engine running), and so that
    /// a Ctrl-C meant for the program driving the engine does not reach the engine.
    pub fn spawn(command: &str) -> Result<EngineProcess, EngineError> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd
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
        let stderr_done = Arc::new(AtomicBool::new(false));
        let done2 = Arc::clone(&stderr_done);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let mut t = tail2.lock().unwrap_or_else(|e| e.into_inner());
                if t.len() == STDERR_LINES {
                    t.pop_front();
                }
                t.push_back(line);
            }
            done2.store(true, Ordering::SeqCst);
        });
        Ok(EngineProcess {
            child,
            stdin,
            lines: rx,
            stderr: tail,
            stderr_done,
            id: EngineId::default(),
            extensions: Extensions::NONE,
            ready_owed: 0,
            searching: false,
            stashed_best: None,
            movetime_margin: DEFAULT_MOVETIME_MARGIN,
            max_overshoot: Duration::ZERO,
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

    /// The extensions the engine announced in the handshake (none before it).
    pub fn extensions(&self) -> Extensions {
        self.extensions
    }

    /// Speaks to the engine as if it had announced these extensions (e.g. the draft alone,
    /// [`Extensions::NONE`], to an engine that announces more).
    pub fn set_extensions(&mut self, ext: Extensions) {
        self.extensions = ext;
    }

    /// What the client keeps in hand when it turns the clock of an engine without the clock
    /// extension into a `movetime`, on top of the most that engine has overshot a `movetime`
    /// so far (the draft's engine checks its clock between iterations and overshoots by up
    /// to 1-2 s in big multiverses).
    pub fn movetime_margin(&self) -> Duration {
        self.movetime_margin
    }

    /// Sets [`EngineProcess::movetime_margin`] (default [`DEFAULT_MOVETIME_MARGIN`]).
    pub fn set_movetime_margin(&mut self, margin: Duration) {
        self.movetime_margin = margin;
    }

    /// The limits as sent to this engine: an engine without the clock extension gets a
    /// `movetime` derived from the clock of `side` (the side to move), and a fixed `movetime`
    /// less the most it has overshot one so far; an engine without `nodes` gets a
    /// [`FALLBACK_MOVETIME`] instead of a node count; `go` alone (the draft's "until `stop`")
    /// is left only for `infinite`.
    pub fn limits_for(&self, limits: &Go, side: Color) -> Go {
        let ext = self.extensions;
        let mut l = limits.clone();
        let fixed = |l: &Go| l.movetime.is_some() || l.depth.is_some();
        if !ext.clock {
            let (time, inc) = match side {
                Color::White => (l.wtime, l.winc),
                Color::Black => (l.btime, l.binc),
            };
            (l.wtime, l.btime, l.winc, l.binc) = (None, None, None, None);
            if let (Some(time), false) = (time, fixed(&l)) {
                l.movetime = Some(self.movetime_from_clock(time, inc.unwrap_or_default()));
            } else if let Some(mt) = l.movetime {
                // A fixed time per action: ask for less by what the engine overshoots.
                l.movetime = Some(mt.saturating_sub(self.max_overshoot).max(MIN_MOVETIME));
            }
        }
        if !ext.nodes {
            l.nodes = None;
        }
        if !l.infinite && !fixed(&l) && l.wtime.is_none() && l.btime.is_none() && l.nodes.is_none() {
            l.movetime = Some(FALLBACK_MOVETIME);
        }
        l
    }

    /// A `movetime` an engine can keep with `time` on its clock and `inc` per action: about a
    /// 25th of the clock plus most of the increment, at most a third of the clock, less the
    /// margin and the largest overshoot seen.
    fn movetime_from_clock(&self, time: Duration, inc: Duration) -> Duration {
        let target = (time / 25 + inc * 3 / 4).min(time / 3);
        target
            .saturating_sub(self.movetime_margin + self.max_overshoot)
            .max(MIN_MOVETIME)
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
        // Its last words may still be in the pipe: wait (briefly: a child of `sh` may hold stderr
        // open) until the reader has seen the end.
        for _ in 0..250 {
            if self.stderr_done.load(Ordering::SeqCst) {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
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

    /// Records an `id` or `option` line.
    fn note(&mut self, line: &str) {
        if let Some(n) = line.strip_prefix("id name ") {
            self.id.name = n.trim().to_string();
        } else if let Some(a) = line.strip_prefix("id author ") {
            self.id.author = a.trim().to_string();
        } else if line.starts_with("option ") {
            self.id.options.push(line.to_string());
        }
    }

    /// Reads lines until one whose first word is `word`; `id` and `option` lines are recorded.
    /// A `bestmove` kept from an earlier wait is returned first when `word` is `bestmove`.
    pub(crate) fn wait_for(&mut self, word: &str, timeout: Duration) -> Result<String, EngineError> {
        if word == "bestmove" {
            if let Some(best) = self.stashed_best.take() {
                return Ok(best);
            }
        }
        let started = Instant::now();
        let deadline = started + timeout;
        loop {
            let line = self.read_line(deadline, started)?;
            let first = line.split_whitespace().next().unwrap_or("");
            if matches!(first, "bestmove" | "nobestmove") {
                self.searching = false;
            }
            if first == word {
                return Ok(line);
            }
            match first {
                "id" | "option" => self.note(&line),
                "readyok" => self.ready_owed = self.ready_owed.saturating_sub(1),
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

    /// Sends `isready` and reads until every `isready` sent is answered. A `bestmove` on the
    /// way (the draft answers `isready` only after a search ends) is kept for [`Self::stop`].
    fn sync(&mut self, deadline: Instant, started: Instant) -> Result<Seen, EngineError> {
        self.send("isready")?;
        self.ready_owed += 1;
        let mut seen = Seen::default();
        while self.ready_owed > 0 {
            let line = self.read_line(deadline, started)?;
            match line.split_whitespace().next().unwrap_or("") {
                "readyok" => self.ready_owed -= 1,
                "bestmove" | "nobestmove" => {
                    self.searching = false;
                    self.stashed_best = Some(line);
                }
                "id" | "option" => self.note(&line),
                "info" if is_busy(&line) => seen.busy = true,
                "info" if is_position_error(&line) => seen.position_error = Some(line),
                "bye" => {
                    return Err(EngineError::Protocol {
                        expected: "readyok".into(),
                        got: line,
                    })
                }
                _ => {}
            }
        }
        Ok(seen)
    }

    /// Sends `isready` without waiting for the answer (the next wait counts it).
    pub(crate) fn send_isready(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        self.ready_owed += 1;
        Ok(())
    }

    /// Ends a search the client started and has not had the answer of (after a timeout, or
    /// one the engine says is running): `stop`, then `isready` ... `readyok`.
    fn stop_search(&mut self, deadline: Instant, started: Instant) -> Result<(), EngineError> {
        if self.searching {
            self.send("stop")?;
            self.sync(deadline, started)?;
            self.searching = false;
        }
        self.stashed_best = None;
        Ok(())
    }

    /// `5duci` ... `5duciok`, then `isready` ... `readyok`. The engine's extensions are read
    /// from its `option` lines.
    pub fn handshake(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("5duci")?;
        self.wait_for("5duciok", timeout)?;
        self.extensions = Extensions::from_options(&self.id.options);
        self.is_ready(timeout)
    }

    /// `isready` ... `readyok`. A late `readyok` (after a search) is accepted; the search's
    /// `bestmove`, if it comes first, is kept for [`Self::stop`].
    pub fn is_ready(&mut self, timeout: Duration) -> Result<(), EngineError> {
        let started = Instant::now();
        self.sync(started + timeout, started).map(|_| ())
    }

    /// `setoption name <name> value <value>`.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `5ducinewgame`, then `isready` ... `readyok`. When that `readyok` does not come within a
    /// second, a second `5ducinewgame` is sent (it wakes the draft's engine, which rarely loses
    /// the first), and if the old `isready` is still not answered, a new one.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        let started = Instant::now();
        let deadline = started + timeout;
        self.stop_search(deadline, started)?;
        self.send("5ducinewgame")?;
        let wake = (started + NEWGAME_WAKE).min(deadline);
        match self.sync(wake, started) {
            Err(EngineError::Timeout { .. }) if Instant::now() < deadline => {}
            other => return other.map(|_| ()),
        }
        self.send("5ducinewgame")?;
        let again = (Instant::now() + NEWGAME_WAKE).min(deadline);
        while self.ready_owed > 0 && Instant::now() < again {
            let line = self.read_line(again, started);
            match line {
                Ok(l) if l.starts_with("readyok") => self.ready_owed -= 1,
                Ok(l) => self.note(&l),
                Err(EngineError::Timeout { .. }) => break,
                Err(e) => return Err(e),
            }
        }
        // The lost `isready` is given up; a new one.
        self.ready_owed = 0;
        self.sync(deadline, started).map(|_| ())
    }

    /// Sends `position` and `go` and returns the `bestmove` or `nobestmove` line. Waits for
    /// `readyok` before each (the draft's engine drops commands while busy), checks that the
    /// position was taken, and sends both again after `info ... busy`/`already running`.
    fn ask(&mut self, position: &str, go: &str, deadline: Instant, started: Instant) -> Result<String, EngineError> {
        for _ in 0..RETRIES {
            self.stop_search(deadline, started)?;
            self.sync(deadline, started)?;
            self.send(position)?;
            let seen = self.sync(deadline, started)?;
            if let Some(line) = seen.position_error {
                return Err(EngineError::Protocol {
                    expected: "the position taken".into(),
                    got: line,
                });
            }
            if seen.busy {
                continue;
            }
            self.stashed_best = None;
            self.send(go)?;
            self.searching = true;
            loop {
                let line = self.read_line(deadline, started)?;
                match line.split_whitespace().next().unwrap_or("") {
                    "bestmove" | "nobestmove" => {
                        self.searching = false;
                        return Ok(line);
                    }
                    "readyok" => self.ready_owed = self.ready_owed.saturating_sub(1),
                    // A search the client did not know of is running, or `go` was dropped:
                    // stop whatever runs and ask again.
                    "info" if is_busy(&line) => break,
                    "info" if is_position_error(&line) => {
                        return Err(EngineError::Protocol {
                            expected: "the position taken".into(),
                            got: line,
                        })
                    }
                    "info" => self.last_info = Some(line),
                    "bye" => {
                        return Err(EngineError::Protocol {
                            expected: "bestmove".into(),
                            got: line,
                        })
                    }
                    _ => {}
                }
            }
        }
        Err(EngineError::Protocol {
            expected: "the engine to take position and go".into(),
            got: format!("busy {RETRIES} times"),
        })
    }

    /// Asks for an action in `game` (whose current position is `pos`) and checks it.
    ///
    /// Accepts both readings of the draft: the whole action in one `bestmove`, or one move per
    /// `go` until `bestmove submit` (the client then sends the position with the moves so far
    /// and asks again). `timeout` bounds the whole exchange. What is sent follows the
    /// engine's extensions (see [`EngineProcess::limits_for`] and [`GameState::command_for`]).
    pub fn go(
        &mut self,
        game: &GameState,
        pos: &Position,
        limits: &Go,
        timeout: Duration,
    ) -> Result<EngineAnswer, EngineError> {
        let started = Instant::now();
        let deadline = started + timeout;
        let ext = self.extensions;
        let sent = self.limits_for(limits, pos.to_move());
        let go = go_text_for(&sent, &ext);
        let mut work = pos.clone();
        let mut played: Vec<Move> = Vec::new();
        self.last_info = None;
        for _round in 0..64 {
            let position = game.command_for(&played, &ext).map_err(|e| EngineError::Protocol {
                expected: "a start that can be sent".into(),
                got: e.to_string(),
            })?;
            let asked = Instant::now();
            let line = self.ask(&position, &go, deadline, started)?;
            if let (false, Some(mt)) = (ext.clock, sent.movetime) {
                self.max_overshoot = self.max_overshoot.max(asked.elapsed().saturating_sub(mt));
            }
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
                Err(SubmitError::MandatoryBoard(_)) if !saw_submit => {
                    // One move per `go`: ask for the next move of the action.
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

    /// Sends `stop` and reads the pending `bestmove` (returned unchecked); one that came
    /// while the client waited for `readyok` is returned without sending `stop`.
    pub fn stop(&mut self, timeout: Duration) -> Result<String, EngineError> {
        if let Some(best) = self.stashed_best.take() {
            return Ok(best);
        }
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
        self.kill();
        said_bye
    }

    /// The process id of the shell that leads the engine's process group.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills the engine's whole process group (the shell, the engine and whatever they
    /// started) and reaps the shell. Harmless when they have ended already.
    fn kill(&mut self) {
        #[cfg(unix)]
        {
            use nix::sys::signal::{killpg, Signal};
            use nix::unistd::Pid;
            // The group outlives its leader while a member runs (a pgid in use is never
            // handed out again), so this reaches stragglers even after the shell has ended.
            if let Ok(pid) = i32::try_from(self.child.id()) {
                let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
            }
        }
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }

    /// Whether the process is still running.
    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
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
