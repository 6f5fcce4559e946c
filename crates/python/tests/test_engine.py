"""The in-process engine and the 5DUCI client."""

import threading
import time

import pytest

import chess5d
from conftest import SEED_MATE

ROOK_MATE = '[Board "custom"]\n[Size "5x5"]\n[4k/5/4K/5/R4:0:1:w]\n'


def test_the_engine_finds_a_mate_in_one():
    g = chess5d.Game.from_fen(ROOK_MATE)
    r = chess5d.Engine({"Seed": 1}).search(g, depth=2)
    assert r.action == ["(0T1)a1(0T1)a5"]
    assert r.score == "mate 1" and r.mate == 1 and r.cp is None
    assert r.depth >= 1 and r.nodes > 0 and r.time >= 0
    assert r.pv[0] == r.action and r.line == r.pv
    g.play(r.action)
    assert g.is_checkmate


@pytest.mark.parametrize("bot", ["alphabeta", "greedy", "random"])
def test_every_bot_plays_a_legal_action(bot):
    g = chess5d.Game()
    engine = chess5d.Engine({"Bot": bot, "Seed": 3})
    for _ in range(4):
        r = engine.search(g, movetime=0.05)
        assert r.action
        g.play(r.action)
    assert len(g.history) == 4


def test_movetime_bounds_the_search():
    g = chess5d.Game()
    started = time.monotonic()
    r = chess5d.Engine().search(g, movetime=0.3)
    assert time.monotonic() - started < 2.0
    assert r.action and r.score.split()[0] in ("cp", "mate")


def test_no_action_when_mated_and_no_search_mid_action():
    g = chess5d.Game()
    for m in SEED_MATE:
        g.play([m])
    r = chess5d.Engine().search(g, depth=1)
    assert r.action is None
    h = chess5d.Game()
    h.move("e4")
    with pytest.raises(chess5d.Chess5dError, match="not submitted yet"):
        chess5d.Engine().search(h, depth=1)


def test_options_and_specs():
    specs = chess5d.Engine.option_specs()
    assert any(s.startswith("option name Bot type combo") for s in specs)
    e = chess5d.Engine()
    e.set_option("Bot", "greedy")
    assert repr(e) == "Engine(Bot=greedy)"
    e.new_game()
    with pytest.raises(ValueError):
        e.set_option("Hash", 0)


def test_the_search_releases_the_gil():
    """A thread counting while the engine thinks keeps counting: the search does not hold the
    GIL (if it did, the longest pause would be the whole search)."""
    g = chess5d.Game()
    engine = chess5d.Engine()
    search = threading.Thread(target=engine.search, args=(g,), kwargs={"movetime": 0.8})
    longest, ticks = 0.0, 0
    search.start()
    last = time.monotonic()
    while search.is_alive():
        now = time.monotonic()
        longest = max(longest, now - last)
        last = now
        ticks += 1
    search.join()
    assert ticks > 1000
    assert longest < 0.4, "the main thread stood still for %.2f s" % longest


def test_a_5duci_engine_program(chess5d_bin):
    with chess5d.UciEngine("%s engine" % chess5d_bin) as e:
        assert e.name.startswith("chess5d")
        assert any("name Bot" in o for o in e.options)
        e.set_option("Seed", 5)
        e.new_game()
        g = chess5d.Game()
        for _ in range(3):
            r = e.search(g, depth=1)
            assert r.action and r.depth >= 1
            g.play(r.action)
        # A custom start travels as 5DFEN boards.
        h = chess5d.Game.from_fen(ROOK_MATE)
        r = e.search(h, depth=2)
        assert r.action == ["(0T1)a1(0T1)a5"] and r.mate == 1
        assert r.pv[0] == r.action and r.line == r.pv
        mated = chess5d.Game()
        for m in SEED_MATE:
            mated.play([m])
        assert e.search(mated, depth=1).action is None
    with pytest.raises(chess5d.EngineError, match="the engine has quit"):
        e.name


def test_a_broken_engine_is_an_engine_error():
    with pytest.raises(chess5d.EngineError, match="engine crashed"):
        chess5d.UciEngine("echo bye >&2; exit 3")
    with pytest.raises(chess5d.EngineError, match="timed out"):
        chess5d.UciEngine("cat", timeout=0.3)


def _running(pid):
    """Whether a process runs (a zombie, ended but not yet reaped, has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")


def test_a_timed_out_engine_is_ended_with_everything_it_started(tmp_path):
    # An engine that never answers `go`, run by a shell that forks it (`; :`): the timeout
    # ends the engine itself, not only the shell.
    pid_file = tmp_path / "engine.pid"
    script = (
        f"echo $$ > {pid_file}; while read l; do case $l in "
        "5duci) echo 5duciok;; isready) echo readyok;; esac; done"
    )
    e = chess5d.UciEngine(f"sh -c '{script}' ; :", timeout=5.0)
    pid = int(pid_file.read_text())
    assert _running(pid)
    with pytest.raises(chess5d.EngineError, match="timed out"):
        e.search(chess5d.Game(), movetime=0.05, timeout=0.5)
    deadline = time.monotonic() + 5
    while _running(pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not _running(pid), f"the engine {pid} survived its timeout"
    with pytest.raises(chess5d.EngineError, match="the engine has quit"):
        e.name
