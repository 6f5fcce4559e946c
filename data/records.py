#!/usr/bin/env python3
"""Large data records kept in this repository's git objects, out of the tree.

Each folder under data/ that has a MANIFEST.tsv (data/ladder/, data/solved/, ...) lists its
records there, one row each, tab-separated:

    name  size  sha256  commit  path  [signature  command  section ...]

`name` is the file's name once fetched, `size` and `sha256` are of the record itself,
`commit` is a commit of this repository whose tree holds the record at `path` (a path ending
in `.xz` is xz-compressed there and decompressed on fetch). Further columns are free text
(for the ladder: the engine's bench signature, the command, the LADDER.md section). Lines
starting with `#` are comments.

Commands (FOLDER defaults to every data/*/ with a MANIFEST.tsv):

    python3 data/records.py fetch  [FOLDER...]   extract every record to FOLDER/records/, verified
    python3 data/records.py verify [FOLDER...]   check the fetched files against the manifest
    python3 data/records.py check  [FOLDER...]   extract and verify in memory, write nothing (CI)
    python3 data/records.py add FOLDER FILE... [--branch B] [--signature S] [--command C]
                                                 [--section T]
        commit the files, xz-compressed, on the orphan branch B (default: ladder-data for
        data/ladder, FOLDERNAME-data otherwise) without touching the work tree or the index,
        copy them to FOLDER/records/ and append their rows to FOLDER/MANIFEST.tsv; then commit
        the manifest and push the branch (git push origin B)
    python3 data/records.py selftest             the script's own test, in a scratch repository

A clone needs the full history of main (not --depth) and, for rows that name a commit of a
data branch, that branch: git fetch origin ladder-data:ladder-data.
"""

import argparse
import hashlib
import lzma
import os
import shutil
import subprocess
import sys
import tempfile

HEADER = "# name\tsize\tsha256\tcommit\tpath\tsignature\tcommand\tsection"


class Fail(Exception):
    """A record that cannot be fetched or does not match its manifest."""


def git(root, *args, data=None, env=None, check=True):
    run = subprocess.run(
        ["git", "-C", root, *args],
        input=data,
        capture_output=True,
        env=None if env is None else {**os.environ, **env},
    )
    if check and run.returncode != 0:
        raise Fail(f"git {' '.join(args)}: {run.stderr.decode(errors='replace').strip()}")
    return run


def repo_root(start):
    return git(start, "rev-parse", "--show-toplevel").stdout.decode().strip()


def folders(root, names):
    if names:
        out = []
        for n in names:
            d = os.path.join(root, n) if not os.path.isabs(n) else n
            if not os.path.isfile(os.path.join(d, "MANIFEST.tsv")):
                raise Fail(f"{n}: no MANIFEST.tsv there")
            out.append(os.path.normpath(d))
        return out
    data = os.path.join(root, "data")
    return sorted(
        os.path.join(data, d)
        for d in os.listdir(data)
        if os.path.isfile(os.path.join(data, d, "MANIFEST.tsv"))
    )


def read_manifest(folder):
    path = os.path.join(folder, "MANIFEST.tsv")
    rows = []
    seen = set()
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            where = f"{path}:{n}"
            if len(cols) < 5:
                raise Fail(f"{where}: {len(cols)} columns, want at least 5 (name size sha256 commit path)")
            name, size, sha, commit, blob_path = cols[:5]
            if not name or "/" in name or name in (".", ".."):
                raise Fail(f"{where}: bad name {name!r}")
            if name in seen:
                raise Fail(f"{where}: {name} listed twice")
            seen.add(name)
            if not size.isdigit():
                raise Fail(f"{where}: size {size!r} is not a number")
            if len(sha) != 64 or any(c not in "0123456789abcdef" for c in sha):
                raise Fail(f"{where}: sha256 {sha!r} is not 64 lowercase hex digits")
            if len(commit) != 40 or any(c not in "0123456789abcdef" for c in commit):
                raise Fail(f"{where}: commit {commit!r} is not a full 40-digit hash")
            rows.append({"name": name, "size": int(size), "sha256": sha, "commit": commit,
                         "path": blob_path, "where": where})
    return rows


def extract(root, row):
    """The record's bytes, from the commit named in its row, checked against the row."""
    commit, where = row["commit"], row["where"]
    if git(root, "cat-file", "-e", f"{commit}^{{commit}}", check=False).returncode != 0:
        shallow = git(root, "rev-parse", "--is-shallow-repository").stdout.decode().strip()
        hint = ("this clone is shallow: git fetch --unshallow" if shallow == "true" else
                "fetch the branch that holds it: git fetch origin ladder-data:ladder-data "
                "(or the folder's data branch)")
        raise Fail(f"{where}: {row['name']}: commit {commit} is not in this clone; {hint}")
    blob = git(root, "cat-file", "blob", f"{commit}:{row['path']}", check=False)
    if blob.returncode != 0:
        raise Fail(f"{where}: {row['name']}: commit {commit} has no file {row['path']}")
    data = blob.stdout
    if row["path"].endswith(".xz"):
        try:
            data = lzma.decompress(data)
        except lzma.LZMAError as e:
            raise Fail(f"{where}: {row['name']}: {row['path']} does not decompress: {e}") from e
    check_bytes(row, data, f"{commit}:{row['path']}")
    return data


def check_bytes(row, data, source):
    if len(data) != row["size"]:
        raise Fail(f"{row['where']}: {row['name']}: {source} has {len(data)} bytes, the manifest says {row['size']}")
    sha = hashlib.sha256(data).hexdigest()
    if sha != row["sha256"]:
        raise Fail(f"{row['where']}: {row['name']}: {source} has sha256 {sha}, the manifest says {row['sha256']}")


def cmd_fetch(root, names):
    total = 0
    for folder in folders(root, names):
        out = os.path.join(folder, "records")
        os.makedirs(out, exist_ok=True)
        rows = read_manifest(folder)
        fetched = 0
        for row in rows:
            dest = os.path.join(out, row["name"])
            if os.path.isfile(dest):
                try:
                    with open(dest, "rb") as f:
                        check_bytes(row, f.read(), dest)
                    continue
                except Fail:
                    pass
            data = extract(root, row)
            tmp = dest + ".part"
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, dest)
            fetched += 1
        total += len(rows)
        print(f"{os.path.relpath(out, root)}: {len(rows)} records ({fetched} fetched, {len(rows) - fetched} already there), verified")
    return total


def cmd_verify(root, names):
    bad = 0
    for folder in folders(root, names):
        rows = read_manifest(folder)
        for row in rows:
            dest = os.path.join(folder, "records", row["name"])
            try:
                if not os.path.isfile(dest):
                    raise Fail(f"{row['where']}: {row['name']}: not fetched ({os.path.relpath(dest, root)} missing): python3 data/records.py fetch")
                with open(dest, "rb") as f:
                    check_bytes(row, f.read(), dest)
            except Fail as e:
                print(e, file=sys.stderr)
                bad += 1
        print(f"{os.path.relpath(folder, root)}: {len(rows)} records, {bad} bad")
    if bad:
        raise Fail(f"{bad} records do not match their manifest")


def cmd_check(root, names):
    shallow = git(root, "rev-parse", "--is-shallow-repository").stdout.decode().strip()
    if shallow == "true":
        raise Fail("this clone is shallow: the records live in main's history; git fetch --unshallow")
    count = 0
    size = 0
    for folder in folders(root, names):
        rows = read_manifest(folder)
        for row in rows:
            size += len(extract(root, row))
        count += len(rows)
        print(f"{os.path.relpath(folder, root)}: {len(rows)} records extracted from git and verified")
    print(f"{count} records, {size} bytes, every size and sha256 as in the manifests")


def cmd_add(root, folder, files, branch, extra):
    folder = os.path.normpath(os.path.join(root, folder))
    rel = os.path.relpath(folder, root)
    manifest = os.path.join(folder, "MANIFEST.tsv")
    os.makedirs(folder, exist_ok=True)
    rows = read_manifest(folder) if os.path.isfile(manifest) else []
    known = {r["name"] for r in rows}
    branch = branch or f"{os.path.basename(folder)}-data"
    ref = f"refs/heads/{branch}"
    parent = git(root, "rev-parse", "--verify", "-q", ref, check=False).stdout.decode().strip()
    entries = []
    for path in files:
        name = os.path.basename(path)
        if name in known:
            raise Fail(f"{name} is already in {rel}/MANIFEST.tsv (give the new record a new name)")
        with open(path, "rb") as f:
            data = f.read()
        blob = git(root, "hash-object", "-w", "--stdin", data=lzma.compress(data, preset=9)).stdout.decode().strip()
        entries.append((name, data, blob, f"{rel}/{name}.xz"))
        known.add(name)
    with tempfile.TemporaryDirectory() as tmp:
        env = {"GIT_INDEX_FILE": os.path.join(tmp, "index")}
        if parent:
            git(root, "read-tree", parent, env=env)
        for _, _, blob, blob_path in entries:
            git(root, "update-index", "--add", "--cacheinfo", f"100644,{blob},{blob_path}", env=env)
        tree = git(root, "write-tree", env=env).stdout.decode().strip()
    message = f"{rel}: " + ", ".join(e[0] for e in entries)
    args = ["commit-tree", tree, "-m", message] + (["-p", parent] if parent else [])
    commit = git(root, *args).stdout.decode().strip()
    git(root, "update-ref", ref, commit, parent or "0" * 40)
    lines = []
    for name, data, _, blob_path in entries:
        lines.append("\t".join([name, str(len(data)), hashlib.sha256(data).hexdigest(), commit, blob_path,
                                extra.signature or "-", extra.command or "-", extra.section or "-"]))
        os.makedirs(os.path.join(folder, "records"), exist_ok=True)
        with open(os.path.join(folder, "records", name), "wb") as f:
            f.write(data)
    new = not os.path.isfile(manifest)
    with open(manifest, "a", encoding="utf-8") as f:
        if new:
            f.write(HEADER + "\n")
        f.write("\n".join(lines) + "\n")
    print(f"{len(entries)} records committed on {branch} as {commit[:12]}, rows added to {rel}/MANIFEST.tsv")
    print(f"now: git add {rel}/MANIFEST.tsv && git commit, and git push origin {branch}")


def cmd_selftest():
    """Add, fetch, verify, check in a scratch repository, and every failure it must report."""
    script = os.path.abspath(__file__)
    with tempfile.TemporaryDirectory() as tmp:
        repo = os.path.join(tmp, "repo")
        os.makedirs(os.path.join(repo, "data", "demo"))
        env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
               "GIT_COMMITTER_EMAIL": "t@t"}
        os.environ.update(env)
        git(repo, "init", "-q")
        with open(os.path.join(repo, "data", "demo", "README.md"), "w") as f:
            f.write("demo\n")
        git(repo, "add", ".")
        git(repo, "commit", "-q", "-m", "start")
        head = git(repo, "rev-parse", "HEAD").stdout.decode().strip()
        rec = os.path.join(tmp, "games.5dpgn")
        with open(rec, "wb") as f:
            f.write(b"[Board \"Standard\"]\n\n1. e4 / e5\n" * 100)

        def run(*args, ok=True, want=None):
            p = subprocess.run([sys.executable, script, *args], cwd=repo, capture_output=True, text=True)
            if (p.returncode == 0) != ok or (want and want not in p.stderr + p.stdout):
                raise Fail(f"selftest: records.py {' '.join(args)}: exit {p.returncode}, want "
                           f"{'success' if ok else 'failure'}{' saying ' + repr(want) if want else ''}:\n{p.stdout}{p.stderr}")
            return p

        run("add", "data/demo", rec, "--signature", "150323", "--command", "chess5d match ...")
        # the work tree and the index are untouched (only the manifest and records/ are new)
        assert git(repo, "diff", "--cached", "--quiet", check=False).returncode == 0
        assert git(repo, "rev-parse", "HEAD").stdout.decode().strip() == head
        orphan = git(repo, "rev-list", "demo-data").stdout.decode().split()
        assert len(orphan) == 1, "the data branch is an orphan: one commit, no parent"
        run("add", "data/demo", rec, ok=False, want="already in")
        shutil.rmtree(os.path.join(repo, "data", "demo", "records"))
        run("verify", ok=False, want="not fetched")
        run("fetch")
        run("verify")
        run("check")
        with open(os.path.join(repo, "data", "demo", "records", "games.5dpgn"), "ab") as f:
            f.write(b"x")
        run("verify", ok=False, want="bytes, the manifest says")
        run("fetch")
        run("verify")
        # a manifest row whose sha256 is wrong, whose commit is unknown, whose blob is missing
        manifest = os.path.join(repo, "data", "demo", "MANIFEST.tsv")
        good = open(manifest).read()
        row = good.splitlines()[1].split("\t")
        for i, value, want in [(2, "0" * 64, "has sha256"), (3, "1" * 40, "is not in this clone"),
                               (4, "data/demo/none.xz", "has no file"), (1, "12x", "not a number")]:
            bad = row.copy()
            bad[i] = value
            with open(manifest, "w") as f:
                f.write(good.splitlines()[0] + "\n" + "\t".join(bad) + "\n")
            run("check", ok=False, want=want)
        with open(manifest, "w") as f:
            f.write(good)
        # a second record on the same branch: a child commit, both rows still fetch
        rec2 = os.path.join(tmp, "more.txt")
        with open(rec2, "w") as f:
            f.write("Score of new vs old: 1 - 0 - 0\n")
        run("add", "data/demo", rec2)
        assert len(git(repo, "rev-list", "demo-data").stdout.decode().split()) == 2
        run("check")
        # a shallow clone fails clearly
        git(repo, "add", "data/demo/MANIFEST.tsv")
        git(repo, "commit", "-q", "-m", "manifest")
        git(repo, "commit", "-q", "--allow-empty", "-m", "later")
        shallow = os.path.join(tmp, "shallow")
        subprocess.run(["git", "clone", "-q", "--depth", "1", "--single-branch", "file://" + repo, shallow], check=True)
        p = subprocess.run([sys.executable, script, "check"], cwd=shallow, capture_output=True, text=True)
        if p.returncode == 0 or "shallow" not in p.stderr:
            raise Fail(f"selftest: a shallow clone must fail saying so:\n{p.stdout}{p.stderr}")
        # a full clone without the data branch names the branch to fetch
        full = os.path.join(tmp, "full")
        subprocess.run(["git", "clone", "-q", "--single-branch", "file://" + repo, full], check=True)
        p = subprocess.run([sys.executable, script, "check"], cwd=full, capture_output=True, text=True)
        if p.returncode == 0 or "git fetch origin" not in p.stderr:
            raise Fail(f"selftest: a clone without the data branch must say what to fetch:\n{p.stdout}{p.stderr}")
        subprocess.run(["git", "-C", full, "fetch", "-q", "origin", "demo-data:demo-data"], check=True)
        p = subprocess.run([sys.executable, script, "check"], cwd=full, capture_output=True, text=True)
        if p.returncode != 0:
            raise Fail(f"selftest: after fetching the data branch the check passes:\n{p.stdout}{p.stderr}")
    print("records.py selftest: ok (add, fetch, verify, check; tampered file, wrong sha256, unknown commit, "
          "missing blob, bad size, shallow clone, missing data branch all fail)")


def main(argv):
    p = argparse.ArgumentParser(prog="records.py", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("fetch", "verify", "check"):
        s = sub.add_parser(name)
        s.add_argument("folders", nargs="*", metavar="FOLDER")
    a = sub.add_parser("add")
    a.add_argument("folder", metavar="FOLDER")
    a.add_argument("files", nargs="+", metavar="FILE")
    a.add_argument("--branch")
    a.add_argument("--signature")
    a.add_argument("--command")
    a.add_argument("--section")
    sub.add_parser("selftest")
    args = p.parse_args(argv)
    try:
        if args.cmd == "selftest":
            cmd_selftest()
            return 0
        root = repo_root(os.getcwd())
        if args.cmd == "fetch":
            cmd_fetch(root, args.folders)
        elif args.cmd == "verify":
            cmd_verify(root, args.folders)
        elif args.cmd == "check":
            cmd_check(root, args.folders)
        elif args.cmd == "add":
            cmd_add(root, args.folder, args.files, args.branch, args)
    except (Fail, OSError) as e:
        print(f"records.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
