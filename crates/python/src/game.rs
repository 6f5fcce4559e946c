//! `chess5d.Game`: a game with the verbs of the 5d-chess-js library under Python names, and
//! `chess5d.ActionIter`, the lazy iterator over legal actions.

use crate::errors::{self, BudgetExhaustedError, Chess5dError, SetupError};
use crate::parse::{move_of, MoveTextError};
use chess5d_notation::{start, Format, LoadedGame, Reason};
use chess5d_rules::{
    ActionCount, Board, BoardId, Budget, Color, Convention, Game as RulesGame, LegalActions, Move, Outcome, Position,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyType};
use std::borrow::Cow;

/// The long form of a move, labels as the game writes them (`(0T1)e2(0T1)e4`).
pub fn long(m: &Move, even: bool) -> String {
    m.long(even)
}

/// The long forms of the moves of an action.
pub fn long_all(moves: &[Move], even: bool) -> Vec<String> {
    moves.iter().map(|m| long(m, even)).collect()
}

/// A game of 5D chess: a start position, the actions submitted, and the moves of the action
/// being built.
///
/// Moves are played one by one with ``move()`` and handed over with ``submit()``, as in
/// 5d-chess-js. ``move()`` reads any notation chess5d reads for a single move: 5DPGN (``Nf3``,
/// ``(0T2)Nb1>>(0T1)b3``), the long form (``(0T1)e2(0T1)e4``), 5d-chess-js (``1w. 1:e2:e3``) and
/// the seed GUI's coordinates (``(5,2,1,0)(5,4,1,0)``).
///
/// Verdicts (``is_checkmate``, ``outcome()``...) are proven by an exhaustive search, limited by
/// ``budget`` (candidate actions tested): when it runs out the answer is ``"unknown"``, or
/// ``BudgetExhaustedError`` for the yes/no properties, never a guess.
#[pyclass(module = "chess5d")]
#[derive(Clone, Debug)]
pub struct Game {
    /// The game being played: start, submitted actions, moves of the action being built.
    game: RulesGame,
    /// The record it was read from: headers, result and every line read. Its lines are written
    /// back (variations included) while the game's submitted actions are still its main line.
    record: LoadedGame,
    budget: u64,
}

impl Game {
    /// A game of a record read, with the default budget.
    pub fn of(loaded: LoadedGame) -> Game {
        Game {
            game: loaded.game().clone(),
            record: loaded,
            budget: Budget::DEFAULT.tests,
        }
    }

    /// The position, moves of the current action included.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        self.game.start()
    }

    /// The submitted actions.
    pub fn submitted(&self) -> &[chess5d_rules::Action] {
        self.game.actions()
    }

    fn even(&self) -> bool {
        self.position().even()
    }

    /// The record of the submitted actions: the one read while its main line is still the
    /// game's (so its variations and comments are kept), else the game's actions with the
    /// record's headers and result.
    fn record(&self) -> Cow<'_, LoadedGame> {
        let same = self.record.start().hash() == self.game.start().hash()
            && self.record.game().actions() == self.game.actions();
        if same {
            return Cow::Borrowed(&self.record);
        }
        let mut record = LoadedGame::of_game(self.record.format, self.game.clone());
        record.headers = self.record.headers.clone();
        record.result = self.record.result.clone();
        Cow::Owned(record)
    }

    fn game(&mut self) -> &mut RulesGame {
        &mut self.game
    }

    /// The number of the action being built (the first action is 1).
    fn action_number(&self) -> usize {
        self.game.actions().len() + 1
    }

    /// The outcome with a budget (the game's own when `None`), the GIL released meanwhile.
    fn outcome_with(&self, py: Python<'_>, budget: Option<u64>) -> Outcome {
        let budget = Budget::tests(budget.unwrap_or(self.budget));
        let pos = self.position();
        py.detach(|| pos.outcome(budget))
    }

    /// The outcome, or `BudgetExhaustedError` when the search could not decide.
    fn proven_outcome(&self, py: Python<'_>) -> PyResult<Outcome> {
        match self.outcome_with(py, None) {
            Outcome::Unknown => Err(BudgetExhaustedError::new_err(format!(
                "the search for a legal action ran out of budget ({} candidate tests); raise Game.budget",
                self.budget
            ))),
            o => Ok(o),
        }
    }

    /// `reason` (why `text` is no move of the side to move), with a word on submitting when
    /// the side to move's action is complete: most often `text` is the other side's move.
    fn with_submit_hint(&self, text: &str, reason: Reason) -> Reason {
        let pos = self.position();
        if pos.can_submit().is_err() {
            return reason;
        }
        let (side, other) = (pos.to_move(), pos.to_move().other());
        let mut after = pos.clone();
        let fits = after.submit().is_ok() && move_of(text, &after).is_ok_and(|mv| after.play(&mv).is_ok());
        Reason::WrongSide(if fits {
            format!("{reason}; {side}'s action is complete: submit it first (submit()); then '{text}' is a move of {other}'s")
        } else {
            format!("{reason} ({side}'s action is complete: submit() hands the turn to {other})")
        })
    }

    /// The position after the submitted actions (the moves of the current one taken back).
    fn submitted_position(&self) -> Cow<'_, Position> {
        let pos = self.position();
        if pos.action_len() == 0 {
            Cow::Borrowed(pos)
        } else {
            let mut pos = pos.clone();
            pos.undo_action_moves();
            Cow::Owned(pos)
        }
    }

    /// The result of the game as submitted, as the rules decide it within the budget:
    /// `1-0`/`0-1` (checkmate), `1/2-1/2` (stalemate), `*` (the side to move can play), or
    /// `None` when the search ran out of budget.
    fn verdict(&self, py: Python<'_>) -> Option<&'static str> {
        let pos = self.submitted_position();
        let pos: &Position = &pos;
        let budget = Budget::tests(self.budget);
        match py.detach(|| pos.outcome(budget)) {
            Outcome::Checkmate if pos.to_move() == Color::White => Some("0-1"),
            Outcome::Checkmate => Some("1-0"),
            Outcome::Stalemate => Some("1/2-1/2"),
            Outcome::Ongoing(_) => Some("*"),
            Outcome::Unknown => None,
        }
    }

    /// `verdict` when it ends the game.
    fn decided(verdict: Option<&'static str>) -> Option<&'static str> {
        verdict.filter(|r| *r != "*")
    }

    /// The headers `to_pgn` writes after those of the start position (which it writes from
    /// the start position itself): the record's own, with `Result` set when the rules decide
    /// the game.
    fn record_headers(&self, verdict: Option<&'static str>) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .record
            .headers
            .iter()
            .filter(|(k, _)| !start::is_start_header(k))
            .cloned()
            .collect();
        if let Some(r) = Game::decided(verdict) {
            match out.iter_mut().find(|(k, _)| k.eq_ignore_ascii_case("Result")) {
                Some(h) => h.1 = r.to_string(),
                None => out.push(("Result".to_string(), r.to_string())),
            }
        }
        out
    }

    /// Every header `to_pgn` writes, in its order.
    fn written_headers(&self, py: Python<'_>) -> Vec<(String, String)> {
        let (mut all, _) = start::headers_for(self.start());
        all.extend(self.record_headers(self.verdict(py)));
        all
    }

    /// The outcome of the game as submitted, `BudgetExhaustedError` if the search cannot decide.
    fn proven_verdict(&self, py: Python<'_>) -> PyResult<&'static str> {
        self.verdict(py).ok_or_else(|| {
            BudgetExhaustedError::new_err(format!(
                "the search for a legal action ran out of budget ({} candidate tests); raise Game.budget",
                self.budget
            ))
        })
    }

    fn submit_error(&self, py: Python<'_>, e: chess5d_rules::SubmitError) -> PyErr {
        let text = long_all(&self.game.pending_moves(), self.even()).join(" ");
        errors::refused(py, self.action_number(), &text, Reason::Submit(e))
    }
}

/// A board as plain data.
fn board_data<'py>(py: Python<'py>, pos: &Position, id: BoardId, board: &Board) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("timeline", id.l)?;
    d.set_item("label", pos.timeline_label(id.l))?;
    d.set_item("turn", id.turn())?;
    d.set_item("color", id.color().name())?;
    d.set_item("latest", pos.timeline_end(id.l) == Some(id.t))?;
    d.set_item("active", pos.is_active(id.l))?;
    d.set_item("fen", board.fen(pos.size()))?;
    let pieces = PyDict::new(py);
    for (sq, p) in board.pieces() {
        pieces.set_item(sq.to_string(), p.fen_char().to_string())?;
    }
    d.set_item("pieces", pieces)?;
    Ok(d)
}

#[pymethods]
impl Game {
    /// A new game from an official variant's start, by name or alias, loosely: ``"Standard"``,
    /// ``"Standard - Turn Zero"``, ``"turn_zero"``, ``"Misc - Timeline Invasion"``... (see
    /// ``chess5d.VARIANTS``).
    #[new]
    #[pyo3(signature = (variant = "Standard"))]
    fn new(variant: &str) -> PyResult<Game> {
        let v = chess5d_rules::Variant::by_name(variant).ok_or_else(|| {
            SetupError::new_err(format!(
                "unknown variant '{variant}' (chess5d.VARIANTS lists the official ones)"
            ))
        })?;
        Ok(Game::of(LoadedGame::new(Format::Pgn, v.position())))
    }

    /// A game read from a record in any notation chess5d reads: 5DPGN (and the 5d-chess-js
    /// export), 5d-chess-js/alexbay actions, the long form, the seed GUI's coordinates,
    /// 5d-chess-js JSON. Raises ``ParseError`` (with ``line`` and ``column``),
    /// ``IllegalMoveError`` or ``SetupError``. One game: ``chess5d.read_games`` reads a file
    /// of several (and the error here says so when the text holds several).
    #[staticmethod]
    fn from_pgn(py: Python<'_>, text: &str) -> PyResult<Game> {
        chess5d_notation::load(text).map(Game::of).map_err(|e| {
            let err = errors::notation_error(py, &e);
            match chess5d_notation::Games::new(text.as_bytes()).count() {
                n if n > 1 => errors::with_note(
                    py,
                    err,
                    &format!(" (the text holds {n} games: chess5d.read_games reads them one by one)"),
                ),
                _ => err,
            }
        })
    }

    /// A game starting from a position: 5DFEN boards (``[<pieces>:<L>:<T>:<w|b>]``), with or
    /// without 5DPGN headers (``[Size "5x5"]``, ``[Promotions "Q,N"]``), as ``to_fen()`` writes.
    /// A text with moves starts the new game after them.
    #[staticmethod]
    fn from_fen(py: Python<'_>, text: &str) -> PyResult<Game> {
        let loaded = chess5d_notation::load(text).map_err(|e| errors::notation_error(py, &e))?;
        let mut start = loaded.game().position().clone();
        start.undo_action_moves();
        Ok(Game::of(LoadedGame::new(Format::Fen, start)))
    }

    /// Plays one move of the current action, written in any notation chess5d reads. Returns
    /// the move in long form. Raises ``ParseError`` or ``IllegalMoveError`` (which says to
    /// ``submit()`` first when the action is complete, as after ``move("e4")``, ``move("e5")``).
    #[pyo3(name = "move")]
    fn play_move(&mut self, py: Python<'_>, text: &str) -> PyResult<String> {
        let number = self.action_number();
        let text = text.trim();
        let refused = |g: &Game, reason: Reason| errors::refused(py, number, text, g.with_submit_hint(text, reason));
        let mv = match move_of(text, self.position()) {
            Ok(mv) => mv,
            Err(MoveTextError::Parse(p)) => return Err(errors::parse_error(py, &p)),
            Err(MoveTextError::Resolve(r)) => return Err(refused(self, r)),
        };
        match self.game().make_move(&mv) {
            Ok(played) => Ok(long(&played, self.even())),
            Err(e) => Err(refused(self, Reason::Illegal(e))),
        }
    }

    /// Plays a whole action (moves in any notation, as a list, or one string with the moves
    /// separated by ``;`` or new lines) and submits it; on any error the game is left as it was.
    fn play(&mut self, py: Python<'_>, moves: &Bound<'_, PyAny>) -> PyResult<()> {
        let texts: Vec<String> = if let Ok(s) = moves.extract::<String>() {
            s.split([';', '\n'])
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(String::from)
                .collect()
        } else {
            moves.extract()?
        };
        let before = self.game.pending_moves().len();
        let result = texts
            .iter()
            .try_for_each(|t| self.play_move(py, t).map(|_| ()))
            .and_then(|()| self.submit(py));
        if result.is_err() {
            while self.game.pending_moves().len() > before {
                self.game().undo_move();
            }
        }
        result
    }

    /// The moves the side to move can start now, in long form: from the boards it must play
    /// (``present_only=True``, what 5d-chess-js lists) or from every board it may play. These
    /// are single moves; whether they fit into a legal action is what ``actions()`` answers.
    #[pyo3(signature = (present_only = true))]
    fn moves(&self, present_only: bool) -> Vec<String> {
        let pos = self.position();
        let moves = if present_only {
            pos.present_moves()
        } else {
            pos.playable_moves()
        };
        long_all(&moves, pos.even())
    }

    /// Takes back the last move of the current action and returns it (long form). Raises
    /// ``Chess5dError`` when the action has no move yet (see ``undo_action()``).
    fn undo(&mut self) -> PyResult<String> {
        let even = self.even();
        self.game()
            .undo_move()
            .map(|m| long(&m, even))
            .ok_or_else(|| Chess5dError::new_err("no move of the current action to undo"))
    }

    /// Takes back the last submitted action (and any move of the current one) and returns its
    /// moves. Raises ``Chess5dError`` at the start of the game.
    fn undo_action(&mut self) -> PyResult<Vec<String>> {
        let even = self.even();
        self.game()
            .undo_action()
            .map(|a| long_all(&a.moves, even))
            .ok_or_else(|| Chess5dError::new_err("no action to undo: the game is at its start"))
    }

    /// Submits the current action: the other player is to move. Raises ``IllegalMoveError``
    /// when it cannot be submitted (a present board still to play, a royal piece left
    /// capturable, no move at all).
    fn submit(&mut self, py: Python<'_>) -> PyResult<()> {
        match self.game().submit() {
            Ok(()) => Ok(()),
            Err(e) => Err(self.submit_error(py, e)),
        }
    }

    /// Whether ``submit()`` would succeed now.
    #[getter]
    fn submittable(&self) -> bool {
        self.position().can_submit().is_ok()
    }

    /// Ends the action without playing the boards left: 5d-chess-js's ``pass()`` submits an
    /// empty action, which the game's rules never allow, so here it is legal only where the
    /// rules allow it, once every board in the present is played (and then it is ``submit()``).
    /// Raises ``IllegalMoveError`` with the rules' reason otherwise.
    fn pass_(&mut self, py: Python<'_>) -> PyResult<()> {
        self.submit(py)
    }

    /// The legal actions (each a list of moves in long form), lazily, each once, at most
    /// ``limit`` of them. The search behind it is limited by ``budget`` candidate tests (the
    /// game's ``budget`` by default); iterating past an exhausted budget raises
    /// ``BudgetExhaustedError`` rather than ending as if there were no more.
    #[pyo3(signature = (limit = None, budget = None))]
    fn actions(&self, limit: Option<u64>, budget: Option<u64>) -> ActionIter {
        let budget = Budget::tests(budget.unwrap_or(self.budget));
        ActionIter {
            inner: self.position().legal_actions(budget),
            left: limit,
            even: self.even(),
            budget: budget.tests,
        }
    }

    /// Counts the legal actions up to ``cap``. Returns ``(count, bound)``: bound ``"exact"``,
    /// ``"at_least"`` (the cap was reached) or ``"unknown"`` (the budget ran out after
    /// ``count``).
    #[pyo3(signature = (cap = 1000, budget = None))]
    fn count_actions(&self, py: Python<'_>, cap: u64, budget: Option<u64>) -> (u64, &'static str) {
        let budget = Budget::tests(budget.unwrap_or(self.budget));
        let pos = self.position();
        match py.detach(|| pos.count_actions(cap, budget)) {
            ActionCount::Exact(n) => (n, "exact"),
            ActionCount::AtLeast(n) => (n, "at_least"),
            ActionCount::Unknown(n) => (n, "unknown"),
        }
    }

    /// Whether the side to move is in check: could the opponent capture a royal piece if the
    /// side to move passed on every board it must play?
    #[getter]
    fn in_check(&self) -> bool {
        self.position().in_check()
    }

    /// Whether the side to move is checkmated (proven; ``BudgetExhaustedError`` if the search
    /// cannot decide within ``budget``).
    #[getter]
    fn is_checkmate(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.proven_outcome(py)? == Outcome::Checkmate)
    }

    /// Whether the side to move is stalemated (proven, as ``is_checkmate``).
    #[getter]
    fn is_stalemate(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.proven_outcome(py)? == Outcome::Stalemate)
    }

    /// ``"ongoing"``, ``"checkmate"``, ``"stalemate"``, or ``"unknown"`` when the search ran
    /// out of ``budget`` candidate tests (the game's ``budget`` by default) before deciding.
    #[pyo3(signature = (budget = None))]
    fn outcome(&self, py: Python<'_>, budget: Option<u64>) -> &'static str {
        self.outcome_with(py, budget).name()
    }

    /// The search budget of the verdicts, in candidate actions tested (like 5d-chess-js's
    /// writable ``checkmateTimeout``, but counted in work, so answers do not depend on the
    /// machine).
    #[getter]
    fn get_budget(&self) -> u64 {
        self.budget
    }

    #[setter]
    fn set_budget(&mut self, budget: u64) {
        self.budget = budget;
    }

    /// The opponent's moves that would capture a royal piece of the side to move if it passed
    /// on every board it must play (what makes ``in_check`` true), in long form.
    fn checks(&self) -> PyResult<Vec<String>> {
        let pos = self.position();
        let found = pos.checks_after_pass();
        Ok(long_all(&found, pos.even()))
    }

    /// The MD5 hash of the position's 5DFEN (every board), as 5d-chess-js's ``hash``.
    #[getter]
    fn hash(&self) -> String {
        chess5d_notation::full_state_hash(self.position())
    }

    /// The game as canonical 5DPGN (the submitted actions; a record has no unfinished action):
    /// the ``headers``, the actions, then the result: ``1-0`` or ``0-1`` when the game ended in
    /// checkmate, ``1/2-1/2`` in stalemate (in the ``Result`` header too), otherwise the
    /// record's own if it has one (a resignation, an adjudication).
    fn to_pgn(&self, py: Python<'_>) -> String {
        let verdict = self.verdict(py);
        let mut record = self.record().into_owned();
        record.headers = self.record_headers(verdict);
        if let Some(r) = Game::decided(verdict) {
            record.result = Some(r.to_string());
        }
        chess5d_notation::write_5dpgn(&record)
    }

    /// A computer review of the game (its submitted actions), as ``chess5d review`` makes it:
    /// every position searched for ``movetime`` seconds and/or to ``depth`` actions and/or
    /// ``nodes`` nodes (by default depth 4, at most 1.2 s), the GIL released meanwhile.
    /// Returns a dict: ``actions`` (per action: ``played``, the evaluations ``before`` and
    /// ``after`` from White's view, ``{"cp": 35}`` or ``{"mate": -2}``..., ``best`` and
    /// ``line`` in 5DPGN when the engine preferred another action, ``class``: ``None``,
    /// ``"inaccuracy"``, ``"mistake"`` or ``"blunder"``, ``accuracy``...), ``white`` and
    /// ``black`` (``accuracy`` and counts), ``cancelled``, and ``pgn``: the game as 5DPGN with
    /// lichess's comments (``{[%eval 0.35]}``, ``?!``/``?``/``??``; the engine's lines as
    /// variations if ``variations``). ``progress(searched, positions)`` is called after each
    /// position; returning ``False`` stops the review (the actions reviewed so far are
    /// returned, ``cancelled`` true), and an exception it raises (Ctrl-C too) stops it and is
    /// raised. ``threads``: the engine's Threads option (a parallel search), every core by
    /// default.
    #[pyo3(signature = (movetime = None, depth = None, nodes = None, threads = None, variations = false, progress = None))]
    #[allow(clippy::too_many_arguments)]
    fn review(
        &self,
        py: Python<'_>,
        movetime: Option<f64>,
        depth: Option<u32>,
        nodes: Option<u64>,
        threads: Option<u32>,
        variations: bool,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        use chess5d_engine::review::{annotate, ReviewOptions, Reviewer};
        let mut options = ReviewOptions::default();
        if movetime.is_some() || depth.is_some() || nodes.is_some() {
            options.limits.movetime = movetime
                .map(|s| {
                    std::time::Duration::try_from_secs_f64(s)
                        .ok()
                        .filter(|d| !d.is_zero())
                        .ok_or_else(|| {
                            PyValueError::new_err(format!("movetime must be a number of seconds > 0, not {s}"))
                        })
                })
                .transpose()?;
            options.limits.depth = depth;
            options.limits.nodes = nodes;
        }
        if depth == Some(0) {
            return Err(PyValueError::new_err("depth must be 1 or more"));
        }
        let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u32));
        options.engine = chess5d_engine::uci::engine_options(&[("Threads".to_string(), threads.to_string())])
            .map_err(PyValueError::new_err)?;
        let mut reviewer = Reviewer::new(options);
        let cancel = reviewer.canceller();
        let record = self.record();
        let loaded = record.as_ref();
        let mut failure: Option<PyErr> = None;
        let review = py.detach(|| {
            reviewer.review(loaded, &mut |p| {
                let Some(f) = &progress else { return };
                if failure.is_some() {
                    return;
                }
                Python::attach(|py| {
                    let answer = py.check_signals().and_then(|()| f.call1(py, (p.searched, p.positions)));
                    match answer {
                        Ok(v) if v.bind(py).is(&*pyo3::types::PyBool::new(py, false)) => cancel.cancel(),
                        Ok(_) => {}
                        Err(e) => {
                            failure = Some(e);
                            cancel.cancel();
                        }
                    }
                });
            })
        });
        if let Some(e) = failure {
            return Err(e);
        }
        let mut json = review.json();
        json["pgn"] = chess5d_notation::write_5dpgn(&annotate(loaded, &review, variations)).into();
        py.import("json")?
            .call_method1("loads", (json.to_string(),))
            .map(Bound::unbind)
    }

    /// The current position (every board, moves of the current action included) as 5DFEN
    /// lines under a custom-board 5DPGN header, which ``Game.from_fen`` reads back.
    fn to_fen(&self) -> String {
        chess5d_notation::write_5dfen(self.position())
    }

    /// An independent copy of the game.
    fn copy(&self) -> Game {
        self.clone()
    }

    fn __copy__(&self) -> Game {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.clone()
    }

    /// Every board as plain data, in 5DFEN order: dicts with ``timeline`` (the internal index:
    /// in games with ``-0``/``+0``, ``+0`` is 0 and ``-0`` is -1), ``label`` (as notation writes
    /// it), ``turn``, ``color``, ``latest`` (last board of its timeline), ``active``, ``fen`` and
    /// ``pieces`` (square name to 5DFEN letter, upper case for White).
    #[getter]
    fn positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let pos = self.position();
        let list = PyList::empty(py);
        for (id, board) in pos.boards() {
            list.append(board_data(py, pos, id, board)?)?;
        }
        Ok(list)
    }

    /// ``"white"`` or ``"black"``: the player whose action is being built.
    #[getter]
    fn to_move(&self) -> &'static str {
        self.position().to_move().name()
    }

    /// The present, as a turn number.
    #[getter]
    fn present(&self) -> i32 {
        self.position().present_turn()
    }

    /// The number of timelines.
    #[getter]
    fn timelines(&self) -> usize {
        self.position().timeline_count()
    }

    /// The moves of the current action so far, in long form.
    #[getter]
    fn pending_moves(&self) -> Vec<String> {
        long_all(&self.game.pending_moves(), self.even())
    }

    /// The submitted actions, each a list of moves in long form.
    #[getter]
    fn history(&self) -> Vec<Vec<String>> {
        let even = self.even();
        self.game.actions().iter().map(|a| long_all(&a.moves, even)).collect()
    }

    /// The headers ``to_pgn()`` writes, in its order, as a new dict: ``Board`` and ``Size`` (and
    /// ``Promotions``), written from the start position, then the record's own, with ``Result``
    /// when the game ended in checkmate or stalemate. Assign a mapping to change them.
    #[getter]
    fn get_headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.written_headers(py) {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// Replaces the record's headers (``Event``, ``White``, ``Result``...). The start position's
    /// (``Board``, ``Size``, ``Promotions``) are written from it: they may be given only with
    /// the values ``headers`` shows (``SetupError`` otherwise).
    #[setter]
    fn set_headers(&mut self, headers: &Bound<'_, PyAny>) -> PyResult<()> {
        let pairs: Vec<(String, String)> = match headers.cast::<PyDict>() {
            Ok(d) => d.items().extract()?,
            Err(_) => headers
                .call_method0("items")?
                .try_iter()?
                .map(|p| p?.extract())
                .collect::<PyResult<_>>()?,
        };
        let (written, _) = start::headers_for(self.start());
        let mut own = Vec::new();
        for (name, value) in pairs {
            if start::is_start_header(&name) {
                let expected = start::header(&written, &name);
                if expected != Some(value.as_str()) {
                    return Err(SetupError::new_err(format!(
                        "the '{name}' header is written from the start position ({}); it cannot be set to '{value}'",
                        expected.map_or_else(|| "not at all".to_string(), |e| format!("'{e}'"))
                    )));
                }
            } else {
                own.push((name, value));
            }
        }
        self.record.headers = own;
        self.record.result = None;
        Ok(())
    }

    /// Games are equal when they have the same start position, the same submitted actions and
    /// the same moves in the action being built. Headers, variations and ``budget`` are not
    /// compared. A game is mutable, so it is not hashable (hash its ``to_pgn()`` or ``hash``).
    fn __eq__(&self, other: PyRef<'_, Game>) -> bool {
        self.submitted() == other.submitted()
            && self.game.pending_moves() == other.game.pending_moves()
            && chess5d_notation::write_5dfen(self.start()) == chess5d_notation::write_5dfen(other.start())
    }

    fn __ne__(&self, other: PyRef<'_, Game>) -> bool {
        !self.__eq__(other)
    }

    /// Pickling: the game is rebuilt as ``Game()`` and then given its state, ``(to_pgn(),
    /// pending_moves, budget)``.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
    ) -> (Bound<'py, PyType>, (), (String, Vec<String>, u64)) {
        let g = slf.borrow();
        (py.get_type::<Game>(), (), (g.to_pgn(py), g.pending_moves(), g.budget))
    }

    /// Sets the state ``__reduce__`` gives.
    fn __setstate__(&mut self, py: Python<'_>, state: (String, Vec<String>, u64)) -> PyResult<()> {
        let (pgn, pending, budget) = state;
        let mut g = Game::from_pgn(py, &pgn)?;
        for m in &pending {
            g.play_move(py, m)?;
        }
        g.budget = budget;
        *self = g;
        Ok(())
    }

    /// python-chess's name: ``chess5d.WHITE`` (``True``) or ``chess5d.BLACK`` (``False``), the
    /// player whose action is being built (``to_move`` says it as a word; the turn number is
    /// ``present``).
    #[getter]
    fn turn(&self) -> bool {
        self.position().to_move() == Color::White
    }

    /// python-chess's name for ``play()``: a python-chess move is a player's whole turn, here
    /// an action (moves in any notation, a list or one string, ``"e4"`` for a one-move action),
    /// played and submitted.
    fn push(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        self.play(py, action)
    }

    /// python-chess's name for ``undo_action()``: takes back the last submitted action (and
    /// any move of the current one) and returns its moves.
    fn pop(&mut self) -> PyResult<Vec<String>> {
        self.undo_action()
    }

    /// The legal actions, as python-chess's ``legal_moves``: a live view of the game that can
    /// be iterated (as ``actions()``), counted (``len``, ``count()``), tested (``bool``, and
    /// ``action in game.legal_moves`` for an action in any notation, list or string).
    #[getter]
    fn legal_moves(slf: &Bound<'_, Self>) -> LegalMoves {
        LegalMoves {
            game: slf.clone().unbind(),
        }
    }

    /// Whether the game as submitted is over: checkmate or stalemate (proven, as
    /// ``is_checkmate``; the moves of the current action aside).
    fn is_game_over(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.proven_verdict(py)? != "*")
    }

    /// The result of the game as submitted, as python-chess writes it: ``"1-0"`` or ``"0-1"``
    /// (checkmate), ``"1/2-1/2"`` (stalemate), ``"*"`` (not over). Proven, as ``is_checkmate``.
    fn result(&self, py: Python<'_>) -> PyResult<&'static str> {
        self.proven_verdict(py)
    }

    /// The multiverse drawn as ``chess5d show`` draws it.
    fn __repr__(&self) -> String {
        chess5d_notation::diagram(self.position())
    }

    fn __str__(&self) -> String {
        self.__repr__()
    }
}

/// The legal actions of a position, lazily (see ``Game.actions``).
#[pyclass(module = "chess5d")]
#[derive(Debug)]
pub struct ActionIter {
    inner: LegalActions,
    left: Option<u64>,
    even: bool,
    budget: u64,
}

#[pymethods]
impl ActionIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Vec<String>>> {
        if self.left == Some(0) {
            return Ok(None);
        }
        let inner = &mut self.inner;
        match py.detach(|| inner.next()) {
            Some(action) => {
                self.left = self.left.map(|n| n - 1);
                Ok(Some(long_all(&action, self.even)))
            }
            None if self.inner.exhausted() => Err(BudgetExhaustedError::new_err(format!(
                "the search for legal actions ran out of budget ({} candidate tests)",
                self.budget
            ))),
            None => Ok(None),
        }
    }
}

/// The legal actions of a game, a live view (see ``Game.legal_moves``).
#[pyclass(module = "chess5d", frozen)]
#[derive(Debug)]
pub struct LegalMoves {
    game: Py<Game>,
}

#[pymethods]
impl LegalMoves {
    fn __iter__(&self, py: Python<'_>) -> ActionIter {
        self.game.borrow(py).actions(None, None)
    }

    /// The number of legal actions (each resulting position once, as iteration yields them);
    /// ``BudgetExhaustedError`` when the search cannot finish within the game's ``budget``.
    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        let g = self.game.borrow(py);
        let (pos, budget) = (g.position(), Budget::tests(g.budget));
        match py.detach(|| pos.count_actions_by(u64::MAX, budget, Convention::DistinctPositions)) {
            ActionCount::Exact(n) | ActionCount::AtLeast(n) => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
            ActionCount::Unknown(n) => Err(BudgetExhaustedError::new_err(format!(
                "the search for legal actions ran out of budget ({} candidate tests) after {n} actions",
                g.budget
            ))),
        }
    }

    /// python-chess's ``count()``: ``len()``.
    fn count(&self, py: Python<'_>) -> PyResult<usize> {
        self.__len__(py)
    }

    /// Whether there is a legal action (proven, as ``Game.is_checkmate``).
    fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(matches!(self.game.borrow(py).proven_outcome(py)?, Outcome::Ongoing(_)))
    }

    /// Whether ``action`` (moves in any notation, a list or one string) is a legal action.
    fn __contains__(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        let mut g = self.game.borrow(py).clone();
        match g.play(py, action) {
            Ok(()) => Ok(true),
            Err(e) if e.is_instance_of::<Chess5dError>(py) => Ok(false),
            Err(e) => Err(e),
        }
    }
}
