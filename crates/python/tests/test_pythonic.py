"""The package as a python-chess user expects it (issue 17, point 5): files of several games,
a hint to submit, results in the exports, headers, equality, pickling, ValueErrors and the
python-chess names."""

import copy
import io
import pickle
import re

import pytest

import chess5d
from conftest import HERE, SEED_MATE

MULTI = HERE.parent.parent / "notation" / "tests" / "data" / "multi"


def seed_mate_game():
    g = chess5d.Game()
    for m in SEED_MATE:
        g.move(m)
        g.submit()
    return g


def header_lines(pgn):
    """The `[Name "Value"]` lines of a 5DPGN text, as (name, value) pairs."""
    return re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$', pgn, re.M)


# --- Files of several games -------------------------------------------------------------------


def test_read_games_reads_every_game_of_a_match_file():
    text = (MULTI / "match.5dpgn").read_text(encoding="utf-8")
    games = list(chess5d.read_games(text))
    assert len(games) == 7
    assert [g.headers["Round"] for g in games] == ["1", "2", "3", "4", "1", "2", "1"]
    assert all(isinstance(g, chess5d.Game) for g in games)
    # Each game is the one a single-game read gives.
    first = text.split("\n\n[Event")[0]
    assert games[0] == chess5d.Game.from_pgn(first)
    assert games[0].headers["Result"] == "0-1" and games[0].result() == "0-1"


def test_read_games_takes_a_text_file_a_binary_file_or_a_path():
    path = MULTI / "match.5dpgn"
    expected = [g.to_pgn() for g in chess5d.read_games(path.read_text(encoding="utf-8"))]
    with open(path, encoding="utf-8") as f:
        assert [g.to_pgn() for g in chess5d.read_games(f)] == expected
    with open(path, "rb") as f:
        assert [g.to_pgn() for g in chess5d.read_games(f)] == expected
    assert [g.to_pgn() for g in chess5d.read_games(path)] == expected
    assert [g.to_pgn() for g in chess5d.read_games(path.read_bytes())] == expected
    # A stream is read lazily: the first game comes before the stream is read to its end.
    stream = io.StringIO(path.read_text(encoding="utf-8") * 50)
    games = chess5d.read_games(stream)
    next(games)
    assert 0 < stream.tell() < len(stream.getvalue()) // 2
    assert len(list(games)) == 7 * 50 - 1


def test_read_games_names_the_game_that_fails_and_goes_on():
    games = chess5d.read_games((MULTI / "three-one-broken.5dpgn").read_text(encoding="utf-8"))
    assert iter(games) is games
    first = next(games)
    assert first.is_checkmate and first.headers["Round"] == "1"
    with pytest.raises(chess5d.IllegalMoveError) as e:
        next(games)
    assert str(e.value) == (
        "game 2 (line 12): action 3, 'Ke3' at line 17, column 4: no legal move matches: no white king can move to e3"
    )
    assert e.value.game == 2 and e.value.line == 17
    third = next(games)
    assert third.headers["Round"] == "3" and third.timelines == 2
    with pytest.raises(StopIteration):
        next(games)


def test_from_pgn_of_several_games_points_to_read_games():
    with pytest.raises(chess5d.ParseError) as e:
        chess5d.Game.from_pgn((MULTI / "match.5dpgn").read_text(encoding="utf-8"))
    assert str(e.value).endswith("(the text holds 7 games: chess5d.read_games reads them one by one)")
    assert e.value.line == 26


def test_read_games_of_nothing_is_no_game():
    assert list(chess5d.read_games("")) == []
    assert list(chess5d.read_games(io.StringIO(" \n\n"))) == []


# --- A hint to submit -------------------------------------------------------------------------


def test_a_move_of_the_other_side_says_to_submit_first():
    g = chess5d.Game()
    g.move("e4")
    with pytest.raises(chess5d.IllegalMoveError) as e:
        g.move("e5")
    msg = str(e.value)
    assert msg.startswith("action 1, 'e5' at line 1, column 1: no legal move matches: no white pawn can move to e5")
    assert "white's action is complete: submit it first (submit()); then 'e5' is a move of black's" in msg
    assert g.pending_moves == ["(0T1)e2(0T1)e4"]
    # The alexbay prefix names the other side: the same hint.
    with pytest.raises(chess5d.IllegalMoveError, match=r"submit it first \(submit\(\)\)"):
        g.move("1b. 1:e7:e5")


def test_a_move_that_fits_no_side_mentions_submit_once_the_action_is_complete():
    g = chess5d.Game()
    g.move("e4")
    with pytest.raises(chess5d.IllegalMoveError) as e:
        g.move("Ke3")
    assert str(e.value).endswith("(white's action is complete: submit() hands the turn to black)")
    # Before any move, or while a board is still to play, no hint.
    with pytest.raises(chess5d.IllegalMoveError) as e:
        chess5d.Game().move("e5")
    assert "submit" not in str(e.value)


# --- Results ----------------------------------------------------------------------------------


def test_to_pgn_of_a_mated_game_writes_the_result():
    g = seed_mate_game()
    pgn = g.to_pgn()
    assert ("Result", "1-0") in header_lines(pgn)
    assert pgn.splitlines()[-2:] == ["3. Qh5#", "1-0"]
    assert g.result() == "1-0"
    # Read back, the same.
    assert chess5d.Game.from_pgn(pgn).to_pgn() == pgn


def test_black_mates_and_stalemate_results():
    # White to move and mated: its king on a1, Black's queen on b2 guarded by its king (5x5).
    g = chess5d.Game.from_fen('[Board "custom"]\n[Size "5x5"]\n[5/5/2k2/1q3/K4:0:1:w]\n')
    assert g.is_checkmate
    assert g.result() == "0-1"
    assert ("Result", "0-1") in header_lines(g.to_pgn()) and g.to_pgn().endswith("\n0-1\n")
    assert chess5d.Game.from_pgn(g.to_pgn()) == g
    # The same mate, played by Black.
    g = chess5d.Game.from_fen('[Board "custom"]\n[Size "5x5"]\n[5/1q3/2k2/5/K4:0:1:b]\n')
    assert g.result() == "*"
    g.push("Qb2")
    assert g.result() == "0-1" and g.headers["Result"] == "0-1"
    assert g.to_pgn().splitlines()[-2:] == ["1b. Qb2#", "0-1"]
    # Black to move and stalemated: its king on a5, White's queen on b3 (5x5).
    stale = chess5d.Game.from_fen('[Board "custom"]\n[Size "5x5"]\n[k4/5/1Q3/5/4K:0:1:b]\n')
    assert stale.is_stalemate
    assert stale.result() == "1/2-1/2" and stale.is_game_over()
    assert stale.headers["Result"] == "1/2-1/2"
    assert stale.to_pgn().endswith("\n1/2-1/2\n")


def test_an_ongoing_game_writes_no_result():
    g = chess5d.Game()
    g.play("e4")
    assert g.result() == "*" and not g.is_game_over()
    assert "Result" not in g.headers
    assert "Result" not in g.to_pgn()


# --- Headers ----------------------------------------------------------------------------------


def test_headers_are_what_to_pgn_writes():
    g = chess5d.Game()
    assert g.headers == {"Board": "Standard", "Size": "8x8"}
    assert list(g.headers.items()) == header_lines(g.to_pgn())
    tz = chess5d.Game("turn_zero")
    assert tz.headers["Board"] == "Standard - Turn Zero"
    mate = seed_mate_game()
    assert list(mate.headers.items()) == header_lines(mate.to_pgn())
    assert mate.headers["Result"] == "1-0"
    for loaded in chess5d.read_games(MULTI / "match.5dpgn"):
        assert list(loaded.headers.items()) == header_lines(loaded.to_pgn())
    custom = chess5d.Game.from_fen('[Board "custom"]\n[Size "5x5"]\n[4k/5/4K/5/R4:0:1:w]\n')
    assert custom.headers == {"Board": "custom", "Size": "5x5"}


def test_headers_can_be_set():
    g = chess5d.Game()
    g.headers = {**g.headers, "Event": "club night", "White": "Ann"}
    assert g.headers == {"Board": "Standard", "Size": "8x8", "Event": "club night", "White": "Ann"}
    assert '[Event "club night"]\n[White "Ann"]\n' in g.to_pgn()
    # The start headers describe the start position: they cannot say something else.
    with pytest.raises(chess5d.SetupError, match="'Board' header"):
        g.headers = {"Board": "Standard - Turn Zero"}
    g.headers = {}
    assert g.headers == {"Board": "Standard", "Size": "8x8"}


# --- Equality ---------------------------------------------------------------------------------


def test_equality_is_same_start_same_actions_same_current_moves():
    g = seed_mate_game()
    assert g == g.copy() and not (g != g.copy())
    assert g == copy.deepcopy(g)
    assert g == chess5d.Game.from_pgn(g.to_pgn())
    h = g.copy()
    h.undo_action()
    assert g != h
    # Headers are not compared: a record of the same game with other headers is equal.
    named = g.copy()
    named.headers = {"Event": "elsewhere"}
    assert named == g
    # The moves of the current action are.
    a, b = chess5d.Game(), chess5d.Game()
    a.move("e4")
    assert a != b
    b.move("e4")
    assert a == b
    # Another start: not equal.
    assert chess5d.Game() != chess5d.Game("turn_zero")
    assert chess5d.Game() != "a game"


def test_a_game_is_unhashable():
    with pytest.raises(TypeError, match="unhashable"):
        hash(chess5d.Game())
    with pytest.raises(TypeError):
        {chess5d.Game()}


# --- Pickle -----------------------------------------------------------------------------------


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_a_game_pickles(protocol):
    g = chess5d.Game.from_pgn('[Board "Standard"]\n[Event "pickled"]\n\n1. e4 / e5\n2. Nf3 / (0T2)Nb8>>(0T1)b6~\n')
    g.budget = 1234
    g.move("(0T3)d2(0T3)d3")
    back = pickle.loads(pickle.dumps(g, protocol=protocol))
    assert back == g and back is not g
    assert back.pending_moves == g.pending_moves
    assert back.headers == g.headers and back.budget == 1234
    assert back.to_pgn() == g.to_pgn() and back.hash == g.hash
    mate = pickle.loads(pickle.dumps(seed_mate_game(), protocol=protocol))
    assert mate.is_checkmate and mate.result() == "1-0"
    custom = chess5d.Game.from_fen('[Board "custom"]\n[Size "5x5"]\n[4k/5/4K/5/R4:0:1:w]\n')
    assert pickle.loads(pickle.dumps(custom, protocol=protocol)) == custom


# --- ValueError -------------------------------------------------------------------------------


def test_errors_on_bad_input_are_value_errors():
    for cls in (chess5d.ParseError, chess5d.IllegalMoveError, chess5d.SetupError):
        assert issubclass(cls, ValueError) and issubclass(cls, chess5d.Chess5dError)
    with pytest.raises(ValueError):
        chess5d.Game().move("(0T1)e2(0T1)z9")
    with pytest.raises(ValueError):
        chess5d.Game().move("e5")
    with pytest.raises(ValueError):
        chess5d.Game("Chess960")
    with pytest.raises(ValueError):
        chess5d.Game.from_fen('[Board "custom"]\n[Size "5x5"]\n[k4/5/5/5/R3K:0:1:w]\n')
    # The errors keep their attributes.
    with pytest.raises(ValueError) as e:
        chess5d.Game().move("(0T1)e2(0T1)z9")
    assert (e.value.line, e.value.column) == (1, 13)
    # A search out of budget or a broken engine is no bad value.
    assert not issubclass(chess5d.BudgetExhaustedError, ValueError)
    assert not issubclass(chess5d.EngineError, ValueError)


# --- The python-chess names -------------------------------------------------------------------


def test_the_python_chess_loop_plays_a_game():
    g = chess5d.Game()
    assert g.turn == chess5d.WHITE and chess5d.WHITE is True and chess5d.BLACK is False
    g.push("e4")
    assert g.turn == chess5d.BLACK and g.to_move == "black"
    g.push(["e5"])
    assert g.turn == chess5d.WHITE
    assert g.pop() == ["(0T1)e7(0T1)e5"]
    assert g.turn == chess5d.BLACK and g.history == [["(0T1)e2(0T1)e4"]]
    g.pop()
    with pytest.raises(chess5d.Chess5dError, match="no action to undo"):
        g.pop()
    # The seed mate, as python-chess's loop writes it.
    g = chess5d.Game()
    for m in SEED_MATE:
        assert not g.is_game_over()
        assert g.result() == "*"
        g.push(m)
    assert g.is_game_over() and g.result() == "1-0"
    assert not g.legal_moves and len(g.legal_moves) == 0 and list(g.legal_moves) == []


def test_legal_moves_are_the_legal_actions():
    g = chess5d.Game()
    moves = g.legal_moves
    actions = list(moves)
    assert actions == list(g.actions())
    assert len(moves) == len(actions) == 20
    assert bool(moves)
    assert ["(0T1)e2(0T1)e4"] in moves and "e4" in moves and "(0T1)e2(0T1)e4" in moves
    assert ["(0T1)e2(0T1)e5"] not in moves and "e5" not in moves and "nonsense" not in moves
    assert g.pending_moves == [] and g.history == []
    for action in actions:
        h = g.copy()
        h.push(action)
        assert h.turn == chess5d.BLACK
    # Out of budget, the count is refused rather than guessed.
    g.budget = 1
    with pytest.raises(chess5d.BudgetExhaustedError):
        len(g.legal_moves)


def test_the_seed_verbs_are_still_there():
    g = chess5d.Game()
    for name in ("move", "submit", "undo", "undo_action", "play", "moves", "actions", "pass_", "outcome"):
        assert callable(getattr(g, name)), name
