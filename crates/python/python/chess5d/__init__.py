"""5D Chess With Multiverse Time Travel: the chess5d rules, notations, engine and 5DUCI client.

The verbs are those of the 5d-chess-js library under Python names::

    import chess5d
    g = chess5d.Game()
    g.move("1w. 1:e2:e3"); g.submit()
    g.move("1b. 1:f7:f6"); g.submit()
    g.move("2w. 2:Qd1:e2"); g.submit()
    g.move("2b. 2:Nb8:c6"); g.submit()
    g.move("3w. 3:Qe2:h5"); g.submit()
    print(g)                 # the multiverse, as `chess5d show` draws it
    print(g.is_checkmate)    # True

python-chess's names work too: ``g.push("e4")``, ``g.pop()``, ``g.legal_moves``, ``g.turn``,
``g.is_game_over()``, ``g.result()``; ``chess5d.read_games(file)`` reads the games of a file of
several.

Errors are subclasses of ``Chess5dError`` carrying the libraries' own messages; those about bad
input (``ParseError``, ``IllegalMoveError``, ``SetupError``) are ``ValueError``s too.
"""

from ._native import (
    BLACK,
    DEFAULT_BUDGET,
    VARIANTS,
    WHITE,
    ActionIter,
    BudgetExhaustedError,
    Chess5dError,
    Engine,
    EngineError,
    Game,
    GameReader,
    IllegalMoveError,
    LegalMoves,
    ParseError,
    SearchResult,
    SetupError,
    UciEngine,
    read_games,
)

__all__ = [
    "BLACK",
    "DEFAULT_BUDGET",
    "VARIANTS",
    "WHITE",
    "ActionIter",
    "BudgetExhaustedError",
    "Chess5dError",
    "Engine",
    "EngineError",
    "Game",
    "GameReader",
    "IllegalMoveError",
    "LegalMoves",
    "ParseError",
    "SearchResult",
    "SetupError",
    "UciEngine",
    "read_games",
]
