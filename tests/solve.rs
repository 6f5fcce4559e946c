//! `chess5d solve`: the answers on the corpus's games (`tests/data/solve/expected.tsv`), proof
//! files that `solve --check` accepts, and refused input.

use crate::cli::chess5d;
use std::process::Command;

fn data(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/solve/{name}", env!("CARGO_MANIFEST_DIR"))).expect("fixture")
}

/// A temporary file name of this test run.
fn temp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("chess5d-solve-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().into_owned()
}

/// The game of `file`, at its end or one action before, as a 5DFEN block.
fn position(file: &str, at: &str) -> String {
    let mut game = chess5d_notation::load(&data(file))
        .expect("the fixture loads")
        .into_game();
    match at {
        "end" => {}
        "before" => {
            game.undo_action().expect("an action to take back");
        }
        other => panic!("expected.tsv: 'at' is 'end' or 'before', not '{other}'"),
    }
    chess5d_notation::write_5dfen(game.position())
}

#[test]
fn the_corpus_games_ending_in_mate_are_wins_in_one_with_proofs_that_hold() {
    let table = data("expected.tsv");
    let mut rows = 0;
    for row in table.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let [file, at, max, answer] = row.split('\t').collect::<Vec<_>>()[..] else {
            panic!("expected.tsv: four columns in '{row}'");
        };
        let proof = temp(&format!("{file}-{at}.proof"));
        let (ok, out, err) = chess5d(
            &["solve", "--max-actions", max, "--proof", &proof, "-"],
            &position(file, at),
        );
        assert!(ok, "{file}: {err}");
        assert_eq!(out.lines().next(), Some(answer), "{file} ({at}): {out}");
        assert!(out.contains("\nnodes ") && out.contains("\ntable "), "{out}");
        let (ok, out, err) = chess5d(&["solve", "--check", &proof], "");
        assert!(ok, "{file}: {err}");
        assert_eq!(out, format!("proof holds: {answer}\n"));
        rows += 1;
    }
    assert_eq!(rows, 9);
}

const SCHOLAR: &str = "[Board \"Standard\"]\n\n1. e4 / e5\n2. Qh5 / Nc6\n3. Bc4 / Nf6\n";

#[test]
fn solve_reads_a_pipe_and_writes_a_proof_that_check_reads_from_one() {
    let proof = temp("scholar.proof");
    let (ok, out, err) = chess5d(&["solve", "--proof", &proof, "-"], SCHOLAR);
    assert!(ok, "{err}");
    assert!(out.starts_with("win in 1 for white\nnodes "), "{out}");
    assert!(out.contains(&format!("written {proof}")), "{out}");
    let text = std::fs::read_to_string(&proof).unwrap();
    assert!(
        text.starts_with("chess5d proof 1\nclaim win in 1 for white\n[Board \"custom\"]\n"),
        "{text}"
    );
    assert!(text.contains("tree\n(0T4)h5(0T4)f7\nend\n"), "{text}");
    let (ok, out, _) = chess5d(&["solve", "--check", "-"], &text);
    assert!(ok);
    assert_eq!(out, "proof holds: win in 1 for white\n");
    // A wrong mating move is caught at its line.
    let broken = text.replace("(0T4)h5(0T4)f7", "(0T4)h5(0T4)g6");
    let (ok, _, err) = chess5d(&["solve", "--check", "-"], &broken);
    assert!(!ok);
    let line = broken.lines().position(|l| l == "(0T4)h5(0T4)g6").unwrap() + 1;
    assert!(err.contains(&format!("proof breaks at line {line}: ")), "{err}");
}

#[test]
fn solve_answers_for_a_variant_and_unknown_when_the_budget_is_spent() {
    let (ok, out, err) = chess5d(
        &["solve", "--variant", "Focused - Just Kings", "--max-actions", "2"],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.starts_with("no win for white within 2 actions\n"), "{out}");
    assert!(out.contains("\ndisproof "), "{out}");
    let proof = temp("unknown.proof");
    // A mate in 2 (rook tactics 2) needs more than one node.
    let rooks = "[Size \"6x6\"]\n[Board \"custom\"]\n[6/5k/6/6/1R4/KR4:0:1:w]\n\n1. Re2 / Kf4\n";
    let (ok, out, _) = chess5d(&["solve", "--nodes", "1", "--proof", &proof, "-"], rooks);
    assert!(ok);
    assert!(
        out.starts_with("unknown\n") && out.contains("no proof written"),
        "{out}"
    );
    assert!(!std::path::Path::new(&proof).exists());
}

/// `--threads 2` (the root split) gives the serial solver's answers, with proofs (and
/// disproofs) that `--check` accepts: a win in 2 (Timeline Fragments), a bound (Just Kings), a
/// mate in 2 on one board (rook tactics 2).
#[test]
fn solve_with_two_threads_answers_as_one_with_proofs_that_hold() {
    let rooks = "[Size \"6x6\"]\n[Board \"custom\"]\n[6/5k/6/6/1R4/KR4:0:1:w]\n\n1. Re2 / Kf4\n";
    let cases: [(&[&str], &str, &str); 3] = [
        (
            &["--variant", "Misc - Timeline Fragments", "--max-actions", "2"],
            "",
            "win in 2 for white",
        ),
        (
            &["--variant", "Focused - Just Kings", "--max-actions", "3"],
            "",
            "no win for white within 3 actions",
        ),
        (&["--max-actions", "2", "-"], rooks, "win in 2 for white"),
    ];
    for (i, (args, input, answer)) in cases.into_iter().enumerate() {
        for threads in ["1", "2"] {
            let proof = temp(&format!("threads-{i}-{threads}.proof"));
            let mut all = vec!["solve", "--threads", threads, "--proof", &proof];
            all.extend_from_slice(args);
            let (ok, out, err) = chess5d(&all, input);
            assert!(ok, "{args:?}: {err}");
            assert_eq!(out.lines().next(), Some(answer), "{args:?} --threads {threads}: {out}");
            let (ok, out, err) = chess5d(&["solve", "--check", &proof], "");
            assert!(ok, "{args:?} --threads {threads}: {err}");
            assert_eq!(out, format!("proof holds: {answer}\n"));
        }
    }
}

#[test]
fn solve_refuses_bad_input_clearly() {
    let (ok, out, err) = chess5d(&["solve", "--variant", "Nope"], "");
    assert!(!ok && out.is_empty() && err.contains("unknown variant 'Nope'"), "{err}");
    let (ok, _, err) = chess5d(&["solve", "-"], "1. Ke9\n");
    assert!(!ok && err.contains("line 1"), "{err}");
    let (ok, _, err) = chess5d(&["solve", "--check", "-"], "not a proof\n");
    assert!(!ok && err.contains("proof breaks at line 1: not a proof file"), "{err}");
    let (ok, _, err) = chess5d(&["solve", "--nodes", "0", "-"], SCHOLAR);
    assert!(!ok && err.contains("--nodes"), "{err}");
    let (ok, _, err) = chess5d(&["solve", "--variant", "Standard", "-"], SCHOLAR);
    assert!(!ok && err.contains("cannot be used with"), "{err}");
    let (ok, _, err) = chess5d(&["solve", "--proof", "/no/such/dir/p.txt", "-"], SCHOLAR);
    assert!(!ok && err.contains("/no/such/dir/p.txt"), "{err}");
    let (ok, out, _) = chess5d(&["solve", "--help"], "");
    assert!(
        ok && out.contains("Usage: chess5d solve") && out.contains("--max-actions"),
        "{out}"
    );
}

#[test]
fn the_solved_variants_proofs_hold() {
    // data/solved/MANIFEST.tsv lists the proof files of crates/solve/README.md's table, kept out
    // of the tree in git's objects (data/records.py): each is read from the commit its row
    // names (or from data/solved/records/ once fetched), must have the manifest's size and must
    // check.
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = format!("{root}/data/solved");
    let manifest = std::fs::read_to_string(format!("{dir}/MANIFEST.tsv")).expect("the manifest");
    let scratch = std::env::temp_dir().join(format!("chess5d-solved-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let mut checked = 0;
    for row in manifest.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = row.split('\t').collect();
        let [name, size, _sha, commit, path, ..] = cols[..] else {
            panic!("MANIFEST.tsv: at least five columns in '{row}'");
        };
        let fetched = format!("{dir}/records/{name}");
        let text = match std::fs::read_to_string(&fetched) {
            Ok(t) => t,
            Err(_) => {
                let out = Command::new("git")
                    .args(["-C", root, "show", &format!("{commit}:{path}")])
                    .output()
                    .expect("git, to read the records out of the tree");
                assert!(
                    out.status.success(),
                    "{name}: not in git's objects ({}); fetch the records (python3 data/records.py fetch data/solved)",
                    String::from_utf8_lossy(&out.stderr)
                );
                String::from_utf8(out.stdout).expect("a proof file is text")
            }
        };
        assert_eq!(text.len().to_string(), size, "{name}: its size in the manifest");
        let file = scratch.join(name);
        std::fs::write(&file, &text).unwrap();
        let (ok, out, err) = chess5d(&["solve", "--check", file.to_str().unwrap()], "");
        assert!(ok, "{name}: {err}");
        let claim = text.lines().nth(1).unwrap().trim_start_matches("claim ");
        assert_eq!(out, format!("proof holds: {claim}\n"));
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(checked >= 20, "{checked} proof files checked");
}
