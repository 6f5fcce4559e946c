"""The public oracle files of the rules crate, through the binding: what 5d-chess-js says
(moves, check, mate, stalemate), and what the Rust library itself says through
`chess5d analyze` (moves, action counts, outcomes) on every position."""

import json
import re
import subprocess

import pytest

import chess5d
from conftest import oracle_games, record_text

CAP = 200

# Records whose present moves include castling with a rook two squares away (the king lands on
# the rook's square: a rule of variant positions that 5d-chess-js does not have); the rules
# crate's oracle test counts the same 37.
TWO_AWAY_RECORDS = 37

SAME_BOARD = re.compile(r"^\(([-+]?\d+)T(\d+)\)([a-z]\d+)\(([-+]?\d+)T(\d+)\)([a-z]\d+)$")


def castles_two_away(g, move):
    """A king moving onto its own rook: the only move that lands on a piece of its own side."""
    m = SAME_BOARD.match(move)
    if not m or (m[1], m[2]) != (m[4], m[5]):
        return False
    board = next(
        b
        for b in g.positions
        # The long form names timelines by their labels (`-0` is not `0`).
        if b["label"].lstrip("+") == m[1].lstrip("+") and b["turn"] == int(m[2]) and b["color"] == g.to_move
    )
    piece, target = board["pieces"].get(m[3], ""), board["pieces"].get(m[6], "")
    return piece in ("K", "k") and target != "" and target.isupper() == piece.isupper()


def test_the_oracle_agrees(records):
    """Check agrees everywhere. Moves and verdicts agree except on the few positions where the
    rules crate's oracle test shows 5d-chess-js to be wrong (ten, in its README); the binding
    must agree with the Rust library there too, which the next tests check on every position."""
    disagree = set()
    verdicts = 0
    two_away = 0
    for rec in records:
        g = chess5d.Game.from_pgn(record_text(rec))
        assert g.to_move == rec["toMove"], rec["id"]
        assert g.timelines == rec["timelines"], rec["id"]
        assert g.in_check == rec["inCheck"], rec["id"]
        moves = g.moves()
        theirs = [m for m in moves if not castles_two_away(g, m)]
        two_away += len(theirs) != len(moves)
        if len(theirs) != rec["moveCount"]:
            disagree.add(rec["id"])
        for timed_out, ours, theirs in (
            ("checkmateTimedOut", g.is_checkmate, rec["inCheckmate"]),
            ("stalemateTimedOut", g.is_stalemate, rec["inStalemate"]),
        ):
            if not rec[timed_out]:
                verdicts += 1
                if ours != theirs:
                    disagree.add(rec["id"])
    assert verdicts > 2000
    assert two_away == TWO_AWAY_RECORDS
    assert len(disagree) <= 10, sorted(disagree)


def test_moves_replayed_one_by_one_reach_the_same_positions(records):
    """move() and submit() on the oracle's histories give the positions from_pgn reads."""
    for rec in records[::5]:
        whole = chess5d.Game.from_pgn(record_text(rec))
        g = chess5d.Game.from_pgn(record_text(rec, history=[]))
        for action in rec["history"]:
            for m in action:
                g.move(m)
            g.submit()
        assert g.hash == whole.hash, rec["id"]
        assert g.history == whole.history, rec["id"]


def test_counts_and_outcomes_match_the_rust_library(records, chess5d_bin):
    """Per game, `chess5d analyze --all-positions --json` gives the library's answers at every
    ply; the binding must give the same on the oracle's positions."""
    compared = 0
    for game_id, recs in sorted(oracle_games(records).items()):
        last = max(recs, key=lambda r: len(r["history"]))
        cli = subprocess.run(
            [chess5d_bin, "analyze", "--all-positions", "--json", "--moves", "present", "--count-actions", str(CAP), "-"],
            input=record_text(last),
            capture_output=True,
            text=True,
        )
        assert cli.returncode == 0, cli.stderr
        by_ply = {obj["ply"]: obj for obj in map(json.loads, cli.stdout.splitlines())}
        for rec in recs:
            want = by_ply[len(rec["history"])]
            g = chess5d.Game.from_pgn(record_text(rec))
            assert g.count_actions(cap=CAP) == (want["legal_actions"], want["legal_actions_bound"]), rec["id"]
            assert g.outcome() == want["outcome"], rec["id"]
            assert g.in_check == want["in_check"], rec["id"]
            assert len(g.moves()) == len(want["moves"]), rec["id"]
            compared += 1
    assert compared == len(records)


@pytest.mark.parametrize("rec_index", [0, 100, 400, 900])
def test_lazy_actions_count_as_count_actions(records, rec_index):
    rec = records[rec_index]
    g = chess5d.Game.from_pgn(record_text(rec))
    n, bound = g.count_actions(cap=60)
    assert len(list(g.actions(limit=60))) == n
    assert bound in ("exact", "at_least")
