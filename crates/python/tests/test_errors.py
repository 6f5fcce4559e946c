"""Errors: Python exceptions carrying the libraries' messages, with their places."""

import subprocess

import pytest

import chess5d


def test_the_exception_hierarchy():
    for cls in (
        chess5d.ParseError,
        chess5d.IllegalMoveError,
        chess5d.SetupError,
        chess5d.BudgetExhaustedError,
        chess5d.EngineError,
    ):
        assert issubclass(cls, chess5d.Chess5dError)
    assert issubclass(chess5d.Chess5dError, Exception)


def test_a_malformed_move_says_where_and_what():
    g = chess5d.Game()
    with pytest.raises(chess5d.ParseError) as e:
        g.move("(0T1)e2(0T1)z9")
    err = e.value
    assert (err.line, err.column) == (1, 13)
    assert err.expected == "a square like e4" and err.found == "z9"
    assert str(err) == "line 1, column 13: expected a square like e4, found 'z9'"


def test_a_malformed_alexbay_move_counts_columns_from_its_prefix():
    g = chess5d.Game()
    with pytest.raises(chess5d.ParseError) as e:
        g.move("1w. 1:e2:e9")
    assert (e.value.line, e.value.column) == (1, 10)
    with pytest.raises(chess5d.ParseError) as e:
        g.move("(5,2,1)(5,4,1,0)")
    assert e.value.column == 7 and "','" in e.value.expected


@pytest.mark.parametrize(
    "text, message",
    [
        ("e5", "no legal move matches"),
        ("(0T1)e4(0T1)e5", "illegal move: no piece on (0T1)e4"),
        ("(0T1)e7(0T1)e5", "illegal move: the piece on (0T1)e7 belongs to the other player"),
        ("(0T1)e2(0T1)e5", "illegal move: the white pawn on (0T1)e2 cannot move to (0T1)e5"),
        ("1b. 1:e7:e5", "the action is written as black's, but white is to move"),
        ("(0T5)e2(0T5)e4", "illegal move: there is no board (0T5)"),
    ],
)
def test_an_illegal_move_says_why(text, message):
    g = chess5d.Game()
    with pytest.raises(chess5d.IllegalMoveError) as e:
        g.move(text)
    assert str(e.value).startswith("action 1, '%s' at line 1, column 1: %s" % (text, message))
    assert (e.value.line, e.value.column) == (1, 1)
    assert e.value.action == 1 and e.value.text == text
    assert g.pending_moves == []


def test_an_ambiguous_move_lists_the_candidates():
    g = chess5d.Game()
    g.play(["d4"])
    g.play(["d5"])
    g.play(["Nf3"])
    g.play(["Nf6"])
    with pytest.raises(chess5d.IllegalMoveError) as e:
        g.move("Nd2")
    assert "ambiguous, it could be any of (0T3)b1(0T3)d2, (0T3)f3(0T3)d2" in str(e.value)
    assert e.value.action == 5
    assert g.move("Nbd2") == "(0T3)b1(0T3)d2"


BAD_RECORDS = [
    # (text, exception, line, column)
    ('[Board "Standard"]\n\n1. e4 / e5\n2. Nf3 / Nc6\n3. Bb5 / a6 %\n', chess5d.ParseError),
    ('[Board "Standard"]\n\n1. e4 / e5\n2. Ke3 / Nc6\n', chess5d.IllegalMoveError),
    ('[Board "Standard"]\n\n1. e4 / e5\n2. Qh5 / Nc6\n3. Bc4 / Nf6\n4. Qxf7 / Ke7\n', chess5d.IllegalMoveError),
    ('[Board "Nonexistent"]\n\n1. e4\n', chess5d.SetupError),
    ('[Board "custom"]\n[Size "9x9"]\n[k7/8/8/8/8/8/8/K7:0:1:w]\n', chess5d.SetupError),
    ("1w. 1:e2:e4\n1b. 1:e7:e5\n2w. 2:Ke1:e3\n", chess5d.IllegalMoveError),
    ('[Board "Standard"]\n\n1. e4 / e5\n2. Nf3 / (0T2)Nb8>>(0T1)b6~\n3. (0T3)Nf3xe5 / *\n', chess5d.IllegalMoveError),
]


@pytest.mark.parametrize("text, exc", BAD_RECORDS)
def test_record_errors_are_the_command_lines(text, exc, chess5d_bin):
    """Game.from_pgn raises what `chess5d analyze` prints, word for word."""
    with pytest.raises(exc) as e:
        chess5d.Game.from_pgn(text)
    cli = subprocess.run([chess5d_bin, "analyze", "-"], input=text, capture_output=True, text=True)
    assert cli.returncode != 0
    assert cli.stderr.strip() == "chess5d: <stdin>: %s" % e.value
    if exc is chess5d.ParseError:
        assert e.value.line == 5 and e.value.column == 13
        assert str(e.value).startswith("line 5, column 13: expected ")
    if exc is chess5d.IllegalMoveError:
        assert str(e.value).startswith(
            "action %d, '%s' at line %d, column %d: " % (e.value.action, e.value.text, e.value.line, e.value.column)
        )
        assert e.value.line == text[: text.index(e.value.text)].count("\n") + 1


def test_engine_options_are_checked():
    with pytest.raises(ValueError, match="invalid value 'nope' for option 'Bot'"):
        chess5d.Engine({"Bot": "nope"})
    with pytest.raises(ValueError, match="unknown option 'Colour'"):
        chess5d.Engine({"Colour": "white"})
    with pytest.raises(ValueError, match="movetime must be a number of seconds"):
        chess5d.Engine().search(chess5d.Game(), movetime=-1)


def test_an_impossible_position_is_refused_with_the_rule_and_the_place():
    with pytest.raises(chess5d.Chess5dError, match=r"the black king on \(0T1\)a8 can be captured by the side to move: \(0T1\)a1"):
        chess5d.Game.from_fen('[Board "custom"]\n[Size "8x8"]\n[k7/8/8/8/8/8/8/R3K3:0:1:w]\n')
    with pytest.raises(chess5d.Chess5dError, match=r"the white pawn on \(0T1\)a4 stands on the rank where it promotes"):
        chess5d.Game.from_fen('[Size "4x4"]\n[P3/4/4/4:0:1:w]\n')


def test_a_side_without_a_royal_piece_is_accepted():
    # The rules crate's tests/data/royalless.txt: a side without a royal piece is never in
    # check, so it cannot be mated; with no legal action it is stalemated.
    brawns = chess5d.Game.from_fen('[Size "4x4"]\n[w*w*w*w*/4/4/W*W*W*W*:0:1:w]\n')
    assert not brawns.in_check
    assert brawns.count_actions() == (8, "exact")
    assert brawns.outcome() == "ongoing"
    knight = chess5d.Game.from_fen('[Size "5x5"]\n[5/5/2N2/5/5:0:1:w]\n')
    assert knight.count_actions() == (8, "exact")
    knight.play("Nb1")
    assert knight.outcome() == "stalemate" and knight.is_stalemate and not knight.in_check
    assert knight.result() == "1/2-1/2"
    # A side without a king mates one with a king.
    rooks = chess5d.Game.from_fen('[Size "8x8"]\n[k7/7R/8/8/8/8/8/6R1:0:1:w]\n')
    rooks.play("Rg8")
    assert rooks.is_checkmate and rooks.result() == "1-0"
    assert "1. Rg8#" in rooks.to_pgn()
    # The old case: a king for Black only.
    lone_rook = chess5d.Game.from_fen('[Size "8x8"]\n[k7/8/8/8/8/8/8/1R6:0:1:w]\n')
    assert lone_rook.outcome() == "ongoing"
