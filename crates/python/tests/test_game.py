"""The Game verbs, one by one, on positions whose answers are known."""

import copy

import pytest

import chess5d
from conftest import SEED_MATE, oracle_records, record_text

# White mates in one on a 5x5 board: the rook goes to the back rank.
ROOK_MATE = '[Board "custom"]\n[Size "5x5"]\n[4k/5/4K/5/R4:0:1:w]\n'


def seed_mate_game():
    g = chess5d.Game()
    for m in SEED_MATE:
        g.move(m)
        g.submit()
    return g


def many_timelines():
    """The oracle position with the most timelines (several boards to play)."""
    rec = max(oracle_records(), key=lambda r: (r["presentTimelines"], r["id"]))
    assert rec["presentTimelines"] >= 3
    return chess5d.Game.from_pgn(record_text(rec)), rec


def test_the_seed_three_action_checkmate():
    g = seed_mate_game()
    assert g.is_checkmate is True
    assert g.in_check is True
    assert g.is_stalemate is False
    assert g.outcome() == "checkmate"
    assert g.count_actions() == (0, "exact")
    assert list(g.actions()) == []
    assert g.to_move == "black"
    assert g.history == [
        ["(0T1)e2(0T1)e3"],
        ["(0T1)f7(0T1)f6"],
        ["(0T2)d1(0T2)e2"],
        ["(0T2)b8(0T2)c6"],
        ["(0T3)e2(0T3)h5"],
    ]
    assert g.to_pgn().splitlines()[-2:] == ["3. Qh5#", "1-0"]


def test_new_game_and_variants():
    g = chess5d.Game()
    assert g.to_move == "white" and g.present == 1 and g.timelines == 1
    assert len(g.moves()) == 20
    assert chess5d.Game("standard").hash == g.hash
    tz = chess5d.Game("Standard - Turn Zero")
    assert tz.hash == chess5d.Game("turn_zero").hash != g.hash
    assert "Standard - Turn Zero" in chess5d.VARIANTS
    for name in chess5d.VARIANTS:
        assert chess5d.Game(name).outcome() == "ongoing", name
    with pytest.raises(chess5d.SetupError, match="unknown variant 'Chess960'"):
        chess5d.Game("Chess960")


@pytest.mark.parametrize(
    "text",
    ["e4", "(0T1)e2(0T1)e4", "(0T1)e2>(0T1)e4", "(0T1)e2e4", "1w. 1:e2:e4", "1:e2:e4", "(5,2,1,0)(5,4,1,0)"],
)
def test_move_reads_every_notation(text):
    g = chess5d.Game()
    assert g.move(text) == "(0T1)e2(0T1)e4"
    assert g.pending_moves == ["(0T1)e2(0T1)e4"]
    g.submit()
    assert g.to_move == "black"


def test_move_in_a_multiverse_with_jumps():
    g = chess5d.Game.from_pgn('[Board "Standard"]\n\n1. e4 / e5\n2. Nf3 / (0T2)Nb8>>(0T1)b6~\n')
    assert g.timelines == 2 and g.to_move == "white" and g.present == 2
    assert not g.submittable
    # The board of timeline 0 is ahead of the present: playing it is optional...
    g.move("(0T3)d2(0T3)d3")
    with pytest.raises(chess5d.IllegalMoveError, match=r"board \(-1T2\) is in the present and still needs a move"):
        g.submit()
    # ...the new timeline's board is in the present: it must be played.
    assert g.move("(-1T2)Nb1(-1T2)c3") == "(-1T2)b1(-1T2)c3"
    assert g.submittable
    g.submit()
    assert g.to_move == "black" and g.timelines == 2


def test_moves_present_only_or_every_playable_board():
    g, rec = many_timelines()
    present = g.moves()
    playable = g.moves(present_only=False)
    assert len(present) == rec["moveCount"]
    assert set(present) <= set(playable)


def test_undo_and_undo_action():
    g = chess5d.Game()
    with pytest.raises(chess5d.Chess5dError, match="no move of the current action to undo"):
        g.undo()
    with pytest.raises(chess5d.Chess5dError, match="no action to undo"):
        g.undo_action()
    start = g.hash
    g.move("Nf3")
    assert g.hash != start
    assert g.undo() == "(0T1)g1(0T1)f3"
    assert g.hash == start and g.pending_moves == []
    g.move("Nf3")
    g.submit()
    g.move("d5")
    assert g.undo_action() == ["(0T1)g1(0T1)f3"]
    assert g.hash == start and g.to_move == "white" and g.history == []


def test_submit_and_pass_errors_name_the_reason():
    g = chess5d.Game()
    with pytest.raises(chess5d.IllegalMoveError) as e:
        g.submit()
    assert str(e.value) == "action 1, '' at line 1, column 1: cannot submit the action: an action needs at least one move"
    assert e.value.action == 1
    with pytest.raises(chess5d.IllegalMoveError, match="an action needs at least one move"):
        g.pass_()
    g.move("f3")
    g.pass_()
    g.play(["e6"])
    g.play(["Kf2"])
    g.play(["Qh4"])
    assert g.in_check
    g.move("a3")
    assert not g.submittable
    with pytest.raises(chess5d.IllegalMoveError, match=r"the royal piece on \(0T3\)f2 could be captured from \(0T3\)h4"):
        g.submit()


def test_play_is_all_or_nothing():
    g = chess5d.Game()
    g.play(["e4"])
    g.play("e5")
    assert len(g.history) == 2
    h = g.hash
    with pytest.raises(chess5d.IllegalMoveError):
        g.play(["Nf3", "Nf6"])  # Nf6 is Black's move: no white knight reaches f6
    assert g.hash == h and g.pending_moves == []


def test_actions_are_lazy_limited_and_playable():
    g = chess5d.Game()
    all_actions = list(g.actions())
    assert len(all_actions) == 20 and len({tuple(a) for a in all_actions}) == 20
    assert len(list(g.actions(limit=5))) == 5
    it = g.actions(limit=2)
    assert iter(it) is it
    first = next(it)
    h = g.copy()
    h.play(first)
    assert h.to_move == "black"


def test_actions_in_a_multiverse_match_the_count():
    g, _ = many_timelines()
    n, bound = g.count_actions(cap=50)
    assert bound in ("exact", "at_least")
    got = list(g.actions(limit=50))
    assert len(got) == n
    for action in got[:5]:
        h = g.copy()
        h.play(action)
        assert h.to_move != g.to_move


def test_count_actions_cap_and_budget():
    g = chess5d.Game()
    assert g.count_actions() == (20, "exact")
    assert g.count_actions(cap=20) == (20, "at_least")
    assert g.count_actions(cap=5) == (5, "at_least")
    big, _ = many_timelines()
    assert big.count_actions(cap=10, budget=0) == (0, "unknown")


def test_outcome_is_unknown_when_the_budget_runs_out():
    g, _ = many_timelines()
    assert g.outcome() == "ongoing"
    assert g.outcome(budget=0) == "unknown"
    g.budget = 0
    assert g.budget == 0
    with pytest.raises(chess5d.BudgetExhaustedError, match="ran out of budget"):
        g.is_checkmate
    with pytest.raises(chess5d.BudgetExhaustedError):
        g.is_stalemate
    with pytest.raises(chess5d.BudgetExhaustedError):
        list(g.actions())
    g.budget = chess5d.DEFAULT_BUDGET
    assert g.is_checkmate is False


def test_checks_list_the_captures_of_the_king():
    assert chess5d.Game().checks() == []
    g = seed_mate_game()
    checks = g.checks()
    # The queen takes the king on the board in the present, and through time on turn 1.
    assert "(0T4)h5(0T4)e8" in checks
    assert all(c.startswith("(0T4)h5") for c in checks)


def test_hash_is_the_5dfen_md5_and_follows_the_position():
    a, b = chess5d.Game(), chess5d.Game()
    assert len(a.hash) == 32 and int(a.hash, 16) >= 0
    assert a.hash == b.hash
    a.move("e4")
    assert a.hash != b.hash


def test_pgn_and_fen_round_trips():
    g = chess5d.Game.from_pgn('[Board "Standard"]\n\n1. e4 / e5\n2. Nf3 / (0T2)Nb8>>(0T1)b6~\n')
    again = chess5d.Game.from_pgn(g.to_pgn())
    assert again.hash == g.hash and again.history == g.history
    fen = g.to_fen()
    assert fen.startswith('[Board "custom"]')
    from_fen = chess5d.Game.from_fen(fen)
    assert from_fen.hash == g.hash and from_fen.history == [] and from_fen.to_move == g.to_move
    small = chess5d.Game.from_fen(ROOK_MATE)
    assert small.positions[0]["pieces"] == {"e5": "k", "e3": "K", "a1": "R"}


def test_copy_is_independent():
    g = chess5d.Game()
    for h in (g.copy(), copy.copy(g), copy.deepcopy(g)):
        h.move("e4")
        assert g.pending_moves == [] and h.pending_moves == ["(0T1)e2(0T1)e4"]


def test_positions_are_plain_data():
    g = chess5d.Game()
    (board,) = g.positions
    assert board["timeline"] == 0 and board["label"] == "0" and board["turn"] == 1
    assert board["color"] == "white" and board["latest"] and board["active"]
    assert len(board["pieces"]) == 32 and board["pieces"]["e1"] == "K" and board["pieces"]["d8"] == "q"
    g = chess5d.Game.from_pgn('[Board "Standard"]\n\n1. e4 / e5\n2. Nf3 / (0T2)Nb8>>(0T1)b6~\n')
    boards = g.positions
    assert {b["timeline"] for b in boards} == {0, -1}
    assert [(b["turn"], b["color"]) for b in boards if b["timeline"] == -1] == [(2, "white")]
    assert sum(b["latest"] for b in boards) == 2


def test_repr_draws_the_multiverse():
    g = seed_mate_game()
    text = repr(g)
    assert str(g) == text
    lines = text.splitlines()
    assert lines[0] == "black to move, present T3, 1 timeline(s)"
    assert lines[2].split() == ["L0", "T1w", "T1b", "T2w", "T2b", "T3w", "T3b*"]
    # The last board: the queen on h5, the white queen gone from d1.
    assert lines[6].split()[-1] == ".......Q"
    assert lines[10].split()[-1] == "RNB.KBNR"
    assert lines[-1] == "* playable board, ~ inactive timeline"
    g2 = chess5d.Game.from_pgn('[Board "Standard"]\n\n1. e4 / e5\n2. Nf3 / (0T2)Nb8>>(0T1)b6~\n')
    assert "L-1" in repr(g2) and "T1b*" not in repr(g2)
