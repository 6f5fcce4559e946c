"""Game.review(): the computer review of chess5d_engine::review, as `chess5d review` makes it."""

import pytest

import chess5d

SCHOLAR = '[Board "Standard"]\n[Result "1-0"]\n\n1. e4 / e5\n2. Qh5 / Nc6\n3. Bc4 / Nf6\n4. Qxf7#\n1-0\n'


def test_a_review_classes_the_blunder_and_writes_lichess_comments():
    g = chess5d.Game.from_pgn(SCHOLAR)
    seen = []
    r = g.review(depth=3, progress=lambda searched, positions: seen.append((searched, positions)))
    assert seen[-1] == (8, 8) and len(seen) == 8
    assert len(r["actions"]) == r["total"] == 7 and not r["cancelled"]
    nf6 = r["actions"][5]
    assert nf6["played"] == "Nf6" and nf6["player"] == "black" and nf6["turn"] == 3
    assert nf6["class"] == "blunder" and nf6["after"] == {"mate": 1}
    assert nf6["best"] and nf6["line"].startswith("3b. ")
    assert r["actions"][6]["after"] == {"checkmate": "white"}
    assert r["white"]["accuracy"] > r["black"]["accuracy"] and r["black"]["blunders"] == 1
    assert "Nf6?? {[%eval #1]}" in r["pgn"]
    # The annotated record reads back, comments and all.
    back = chess5d.Game.from_pgn(r["pgn"])
    assert back.to_pgn().count("[%eval") == 6


def test_a_review_stops_when_progress_says_so_or_raises():
    g = chess5d.Game.from_pgn(SCHOLAR)
    r = g.review(depth=2, progress=lambda s, n: s < 3)
    assert r["cancelled"] and len(r["actions"]) == 2

    def boom(s, n):
        raise KeyError("stop")

    with pytest.raises(KeyError):
        g.review(depth=2, progress=boom)
    with pytest.raises(ValueError):
        g.review(movetime=-1)
    # Variations: the engine's lines become 5DPGN variations.
    assert "(/ " in g.review(depth=3, variations=True)["pgn"]
