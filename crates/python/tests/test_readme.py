"""The Python examples of the READMEs, run as they are written."""

import contextlib
import io
import os
import re

from conftest import HERE

READMES = [HERE.parent / "README.md", HERE.parent.parent.parent / "README.md"]


def python_blocks(path):
    text = path.read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.S)


def run(block):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "<README>", "exec"), {})
    return out.getvalue()


def test_every_readme_has_the_seed_mate():
    for path in READMES:
        mates = [b for b in python_blocks(path) if "3w. 3:Qe2:h5" in b]
        assert mates, path
        for block in mates:
            assert run(block).splitlines()[-1] == "True"


def test_every_python_example_runs(chess5d_bin, monkeypatch):
    # The examples start `chess5d engine` by name, as a user with the binary installed would.
    monkeypatch.setenv("PATH", os.path.dirname(os.path.abspath(chess5d_bin)) + os.pathsep + os.environ["PATH"])
    blocks = [b for path in READMES for b in python_blocks(path)]
    assert len(blocks) >= 4
    for block in blocks:
        assert run(block)


def test_the_error_example_prints_what_it_says():
    (block,) = [b for b in python_blocks(READMES[0]) if "ParseError" in b]
    assert run(block) == "1 13 line 1, column 13: expected a square like e4, found 'z9'\n"



def test_the_python_chess_example_prints_what_it_says():
    (block,) = [b for b in python_blocks(READMES[0]) if "g.push(" in b]
    assert run(block).splitlines() == [
        "20 True",
        "True True 1-0",
        "{'Board': 'Standard', 'Size': '8x8', 'Result': '1-0'}",
        "True",
        "1 1-0",
        "2 *",
    ]
