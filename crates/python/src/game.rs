//! `chess5d.Game`: a game with the verbs of the 5d-chess-js library under Python names, and
//! `chess5d.ActionIter`, the lazy iterator over legal actions.

use crate::errors::{self, BudgetExhaustedError, Chess5dError, SetupError};
use crate::parse::{move_of, MoveTextError};
use chess5d_notation::{Format, LoadedGame, Reason};
use chess5d_rules::{ActionCount, Board, BoardId, Budget, Game as RulesGame, LegalActions, Move, Outcome, Position};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

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
    loaded: LoadedGame,
    budget: u64,
}

impl Game {
    fn of(loaded: LoadedGame) -> Game {
        Game {
            loaded,
            budget: Budget::DEFAULT.tests,
        }
    }

    /// The position, moves of the current action included.
    pub fn position(&self) -> &Position {
        self.loaded.game.position()
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        self.loaded.game.start()
    }

    /// The submitted actions.
    pub fn submitted(&self) -> &[chess5d_rules::Action] {
        self.loaded.game.actions()
    }

    fn even(&self) -> bool {
        self.position().even()
    }

    fn game(&mut self) -> &mut RulesGame {
        &mut self.loaded.game
    }

    /// The number of the action being built (the first action is 1).
    fn action_number(&self) -> usize {
        self.loaded.game.actions().len() + 1
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

    fn submit_error(&self, py: Python<'_>, e: chess5d_rules::SubmitError) -> PyErr {
        let text = long_all(&self.loaded.game.pending_moves(), self.even()).join(" ");
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
    /// ``IllegalMoveError`` or ``SetupError``.
    #[staticmethod]
    fn from_pgn(py: Python<'_>, text: &str) -> PyResult<Game> {
        chess5d_notation::load(text)
            .map(Game::of)
            .map_err(|e| errors::notation_error(py, &e))
    }

    /// A game starting from a position: 5DFEN boards (``[<pieces>:<L>:<T>:<w|b>]``), with or
    /// without 5DPGN headers (``[Size "5x5"]``, ``[Promotions "Q,N"]``), as ``to_fen()`` writes.
    /// A text with moves starts the new game after them.
    #[staticmethod]
    fn from_fen(py: Python<'_>, text: &str) -> PyResult<Game> {
        let loaded = chess5d_notation::load(text).map_err(|e| errors::notation_error(py, &e))?;
        let mut start = loaded.game.position().clone();
        start.undo_action_moves();
        Ok(Game::of(LoadedGame::new(Format::Fen, start)))
    }

    /// Plays one move of the current action, written in any notation chess5d reads. Returns
    /// the move in long form. Raises ``ParseError`` or ``IllegalMoveError``.
    #[pyo3(name = "move")]
    fn play_move(&mut self, py: Python<'_>, text: &str) -> PyResult<String> {
        let number = self.action_number();
        let mv = move_of(text, self.position()).map_err(|e| match e {
            MoveTextError::Parse(p) => errors::parse_error(py, &p),
            MoveTextError::Resolve(r) => errors::refused(py, number, text.trim(), r),
        })?;
        let played = self
            .game()
            .make_move(&mv)
            .map_err(|e| errors::refused(py, number, text.trim(), Reason::Illegal(e)))?;
        Ok(long(&played, self.even()))
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
        let before = self.loaded.game.pending_moves().len();
        let result = texts
            .iter()
            .try_for_each(|t| self.play_move(py, t).map(|_| ()))
            .and_then(|()| self.submit(py));
        if result.is_err() {
            while self.loaded.game.pending_moves().len() > before {
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

    /// The game as canonical 5DPGN (the submitted actions; a record has no unfinished action).
    fn to_pgn(&self) -> String {
        chess5d_notation::write_5dpgn(&self.loaded)
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
        long_all(&self.loaded.game.pending_moves(), self.even())
    }

    /// The submitted actions, each a list of moves in long form.
    #[getter]
    fn history(&self) -> Vec<Vec<String>> {
        let even = self.even();
        self.loaded
            .game
            .actions()
            .iter()
            .map(|a| long_all(&a.moves, even))
            .collect()
    }

    /// The record's headers (name, value), as read or as the game was created.
    #[getter]
    fn headers(&self) -> Vec<(String, String)> {
        self.loaded.headers.clone()
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
