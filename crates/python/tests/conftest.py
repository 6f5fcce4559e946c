"""Shared helpers: the oracle records of the rules crate, and the chess5d binary (the Rust
library's own answers, for differential tests)."""

import collections
import json
import os
import pathlib
import shutil

import pytest

HERE = pathlib.Path(__file__).resolve().parent
ORACLE = HERE.parent.parent / "rules" / "tests" / "data" / "oracle"
ORACLE_FILES = ["public.jsonl", "public-variants.jsonl"]

# The seed library's README: its three-action checkmate (5d-chess-js, "Installation").
SEED_MATE = ["1w. 1:e2:e3", "1b. 1:f7:f6", "2w. 2:Qd1:e2", "2b. 2:Nb8:c6", "3w. 3:Qe2:h5"]


def oracle_records():
    """Every record of the public oracle files (5d-chess-js's answers on 1165 positions)."""
    recs = []
    for name in ORACLE_FILES:
        with open(ORACLE / name, encoding="utf-8") as f:
            recs.extend(json.loads(line) for line in f if line.strip())
    return recs


def record_text(rec, history=None):
    """A record's game as text chess5d reads: 5DPGN headers (and 5DFEN start boards for the
    non-built-in variants), then one action per line in the long form."""
    history = rec["history"] if history is None else history
    if "startFen" in rec:
        promotions = ",".join(rec["promotions"])
        head = '[Board "custom"]\n[Size "%s"]\n[Promotions "%s"]\n' % (rec["size"], promotions)
        head += "\n".join(rec["startFen"]) + "\n"
    else:
        # 5d-chess-js promotes to any piece (its princess variant: a princess, `S` here).
        promotions = "S,R,N,B" if rec["variant"] == "princess" else "Q,R,N,B"
        head = '[Board "%s"]\n[Promotions "%s"]\n' % (rec["variant"], promotions)
    return head + "\n" + "".join(" ".join(action) + "\n" for action in history)


def oracle_games(recs):
    """Records grouped by the game they come from (ids `<game>-a<ply>`)."""
    games = collections.defaultdict(list)
    for r in recs:
        games[r["id"].rsplit("-a", 1)[0]].append(r)
    return games


@pytest.fixture(scope="session")
def records():
    recs = oracle_records()
    assert len(recs) == 1165, "the oracle files changed: %d records" % len(recs)
    return recs


@pytest.fixture(scope="session")
def chess5d_bin():
    """The chess5d binary built from the same sources (CHESS5D_BIN, set by ci.sh)."""
    path = os.environ.get("CHESS5D_BIN")
    if not path:
        repo = HERE.parent.parent.parent
        for profile in ("release", "debug"):
            candidate = repo / "target" / profile / "chess5d"
            if candidate.exists():
                path = str(candidate)
                break
    if not path or not (os.path.exists(path) or shutil.which(path)):
        pytest.fail("the chess5d binary is needed: build it (cargo build -p chess5d) or set CHESS5D_BIN")
    return path
