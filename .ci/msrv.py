#!/usr/bin/env python3
"""Checks the workspace's `rust-version` against what the lock file needs.

The minimum Rust to build is the highest `rust-version` among the packages a build compiles
(normal and build dependencies of the workspace, as Cargo.lock resolves them); the tests also
compile the dev-dependencies. Our own code is held to `rust-version` by clippy's
`incompatible_msrv` lint (it reads the same field). Fails when a dependency needs more than the
workspace says, or when the workspace says more than any dependency needs (a stale claim).
"""
import json
import subprocess
import sys


def version(v):
    parts = [int(x) for x in v.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def main():
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--locked"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    packages = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    members = set(meta["workspace_members"])

    def reach(kinds):
        seen, stack = set(), list(members)
        while stack:
            node = nodes[stack.pop()]
            for dep in node["deps"]:
                dep_kinds = {k["kind"] for k in dep["dep_kinds"]}
                # Dev-dependencies count only for the workspace's own packages.
                usable = dep_kinds & kinds if node["id"] in members else dep_kinds & {None, "build"}
                if usable and dep["pkg"] not in seen:
                    seen.add(dep["pkg"])
                    stack.append(dep["pkg"])
        return seen

    def highest(ids):
        found = [(version(packages[i]["rust_version"]), packages[i]["name"]) for i in ids if packages[i].get("rust_version")]
        return max(found) if found else ((0,), "none")

    stated = {packages[m].get("rust_version") for m in members}
    if len(stated) != 1 or None in stated:
        sys.exit(f"every workspace package must inherit one rust-version; found {sorted(map(str, stated))}")
    stated = version(stated.pop())
    build, build_by = highest(reach({None, "build"}))
    tests, tests_by = highest(reach({None, "build", "dev"}))
    show = lambda v: ".".join(map(str, v[:2] if v[2] == 0 else v))
    print(f"rust-version {show(stated)}; a build needs {show(build)} ({build_by}), the tests {show(tests)} ({tests_by})")
    if build > stated:
        sys.exit(f"error: {build_by} needs Rust {show(build)}, more than the workspace's rust-version {show(stated)}")
    if build < stated:
        sys.exit(f"error: rust-version says {show(stated)}, but nothing needs more than {show(build)}: lower it (or say why)")


main()
