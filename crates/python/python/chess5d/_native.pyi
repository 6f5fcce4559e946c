"""Type stubs of the extension module (the `chess5d` package re-exports everything)."""

import os
from typing import IO, Any, AnyStr, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, TypedDict, Union, final

__all__ = [
    "Game",
    "ActionIter",
    "LegalMoves",
    "GameReader",
    "read_games",
    "Engine",
    "UciEngine",
    "SearchResult",
    "Chess5dError",
    "ParseError",
    "IllegalMoveError",
    "SetupError",
    "BudgetExhaustedError",
    "EngineError",
    "VARIANTS",
    "DEFAULT_BUDGET",
    "WHITE",
    "BLACK",
]

VARIANTS: List[str]
"""The official variants' `Board` header names, in the game's menu order."""

DEFAULT_BUDGET: int
"""The default search budget, in candidate actions tested."""

WHITE: bool
"""`True`: python-chess's colour, a value of `Game.turn`."""

BLACK: bool
"""`False`: python-chess's colour, a value of `Game.turn`."""

class Chess5dError(Exception):
    """Base class of every error raised by chess5d."""

class ParseError(Chess5dError, ValueError):
    """Text that is not well formed."""

    line: int
    """Line, from 1."""
    column: int
    """Column, from 1, in characters."""
    expected: str
    """What the reader expected there."""
    found: str
    """What it found (empty at the end of the input)."""

class IllegalMoveError(Chess5dError, ValueError):
    """A move or action the rules refuse, or that matches no move, or several."""

    action: int
    """The number of the action it belongs to (the first action is 1)."""
    text: str
    """The move (or, for submit errors, the action) as written."""
    line: int
    """Where the move is written in a record (1 for a single move)."""
    column: int

class SetupError(Chess5dError, ValueError):
    """A start position that is not valid."""

class BudgetExhaustedError(Chess5dError):
    """A search ran out of budget before it could prove its answer."""

class EngineError(Chess5dError):
    """An engine process that crashed, timed out, or broke the 5DUCI protocol."""

class _Board(TypedDict):
    """One board of `Game.positions`."""

    timeline: int
    """Internal index: with `-0`/`+0`, `+0` is 0 and `-0` is -1."""
    label: str
    """The timeline as notation writes it (`0`, `+1`, `-0`...)."""
    turn: int
    color: str
    """`"white"` or `"black"`: whose move the board is."""
    latest: bool
    """Whether it is the last board of its timeline."""
    active: bool
    """Whether its timeline is active."""
    fen: str
    """The placement in 5DFEN (`*` on unmoved pawns, kings and rooks)."""
    pieces: dict[str, str]
    """Square name to 5DFEN letter (upper case: White)."""

@final
class ActionIter(Iterator[List[str]]):
    """The legal actions of a position, lazily (see `Game.actions`)."""

    def __iter__(self) -> "ActionIter": ...
    def __next__(self) -> List[str]: ...

@final
class LegalMoves:
    """The legal actions of a game, a live view (see `Game.legal_moves`)."""

    def __iter__(self) -> ActionIter: ...
    def __len__(self) -> int: ...
    def count(self) -> int: ...
    def __bool__(self) -> bool: ...
    def __contains__(self, key: object, /) -> bool: ...

@final
class GameReader(Iterator["Game"]):
    """The games of a file of several, one at a time (see `read_games`)."""

    def __iter__(self) -> "GameReader": ...
    def __next__(self) -> "Game": ...

def read_games(source: Union[str, bytes, bytearray, "os.PathLike[str]", IO[AnyStr]]) -> GameReader:
    """The games of a text, a path or a file object, one at a time. A game that cannot be read
    raises its error, with a `game` attribute; `next()` then goes on with the next game."""

@final
class Game:
    """A game of 5D chess: a start position, the actions submitted, and the moves of the
    action being built. Moves are in any notation chess5d reads; returned moves are in the long
    form (`(0T1)e2(0T1)e4`)."""

    budget: int
    """The search budget of the verdicts, in candidate actions tested."""

    def __new__(cls, variant: str = "Standard") -> "Game": ...
    @staticmethod
    def from_pgn(text: str) -> "Game": ...
    @staticmethod
    def from_fen(text: str) -> "Game": ...
    def move(self, text: str) -> str: ...
    def play(self, moves: Union[str, Sequence[str]]) -> None: ...
    def moves(self, present_only: bool = True) -> List[str]: ...
    def undo(self) -> str: ...
    def undo_action(self) -> List[str]: ...
    def submit(self) -> None: ...
    def pass_(self) -> None: ...
    @property
    def submittable(self) -> bool: ...
    def actions(self, limit: Optional[int] = None, budget: Optional[int] = None) -> ActionIter: ...
    def count_actions(self, cap: int = 1000, budget: Optional[int] = None) -> Tuple[int, str]:
        """`(count, bound)`, bound `"exact"`, `"at_least"` or `"unknown"`."""
    @property
    def in_check(self) -> bool: ...
    @property
    def is_checkmate(self) -> bool: ...
    @property
    def is_stalemate(self) -> bool: ...
    def outcome(self, budget: Optional[int] = None) -> str:
        """`"ongoing"`, `"checkmate"`, `"stalemate"` or `"unknown"`."""
    def checks(self) -> List[str]: ...
    @property
    def hash(self) -> str: ...
    def to_pgn(self) -> str:
        """5DPGN: `headers`, the actions, and the result when the game is decided."""
    def review(
        self,
        movetime: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        threads: Optional[int] = None,
        variations: bool = False,
        progress: Optional[Callable[[int, int], Optional[bool]]] = None,
    ) -> Dict[str, Any]:
        """A computer review (as `chess5d review`): `actions` (each with `played`, `before`,
        `after`, `best`, `line`, `class`, `accuracy`...), `white`/`black` accuracies, `pgn` (the
        game with lichess's `{[%eval 0.35]}` comments and `?!`/`?`/`??`). `progress(searched,
        positions)` after each position; returning False stops the review."""
    def to_fen(self) -> str: ...
    def copy(self) -> "Game": ...
    def __copy__(self) -> "Game": ...
    def __deepcopy__(self, memo: object) -> "Game": ...
    @property
    def positions(self) -> List[_Board]: ...
    @property
    def to_move(self) -> str: ...
    @property
    def present(self) -> int: ...
    @property
    def timelines(self) -> int: ...
    @property
    def pending_moves(self) -> List[str]: ...
    @property
    def history(self) -> List[List[str]]: ...
    @property
    def headers(self) -> Dict[str, str]:
        """What `to_pgn()` writes, a new dict: assign a mapping to change the record's own."""
    @headers.setter
    def headers(self, headers: Mapping[str, str]) -> None: ...
    def __eq__(self, value: object, /) -> bool:
        """Same start, same submitted actions, same moves of the current action."""
    def __ne__(self, value: object, /) -> bool: ...
    __hash__: None  # type: ignore[assignment]
    def __reduce__(self) -> Tuple[type, Tuple[()], Tuple[str, List[str], int]]: ...
    def __setstate__(self, state: Tuple[str, List[str], int]) -> None: ...
    @property
    def turn(self) -> bool:
        """`WHITE` (`True`) or `BLACK` (`False`)."""
    def push(self, action: Union[str, Sequence[str]]) -> None: ...
    def pop(self) -> List[str]: ...
    @property
    def legal_moves(self) -> LegalMoves: ...
    def is_game_over(self) -> bool: ...
    def result(self) -> str:
        """`"1-0"`, `"0-1"`, `"1/2-1/2"` or `"*"`."""

@final
class SearchResult:
    """What a search found."""

    action: Optional[List[str]]
    """The action to play (for `Game.play`), or None when the side to move has none."""
    score: Optional[str]
    """`"cp 35"` or `"mate -2"`, from the side to move's view."""
    cp: Optional[int]
    mate: Optional[int]
    depth: int
    nodes: int
    time: float
    """Seconds."""
    pv: List[List[str]]
    """The principal variation, one action per ply (for a 5DUCI engine: its last `info` line's)."""
    @property
    def line(self) -> List[List[str]]:
        """The same as `pv`."""

@final
class Engine:
    """The chess5d engine, in this process; options by their 5DUCI names."""

    def __new__(cls, options: Optional[Mapping[str, object]] = None) -> "Engine": ...
    @staticmethod
    def option_specs() -> List[str]: ...
    def set_option(self, name: str, value: object) -> None: ...
    def new_game(self) -> None: ...
    def search(self, game: Game, movetime: Optional[float] = None, depth: Optional[int] = None) -> SearchResult:
        """`movetime` in seconds, `depth` in actions; one second when neither is given."""

@final
class UciEngine:
    """A 5DUCI engine program (started with `sh -c command`)."""

    def __new__(cls, command: str, timeout: float = 10.0) -> "UciEngine": ...
    @property
    def name(self) -> str: ...
    @property
    def author(self) -> str: ...
    @property
    def options(self) -> List[str]: ...
    def set_option(self, name: str, value: object) -> None: ...
    def new_game(self, timeout: float = 10.0) -> None: ...
    def search(
        self,
        game: Game,
        movetime: Optional[float] = None,
        depth: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> SearchResult: ...
    def quit(self, timeout: float = 2.0) -> bool: ...
    def __enter__(self) -> "UciEngine": ...
    def __exit__(self, *args: object) -> bool: ...
