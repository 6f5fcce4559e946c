//! The solver against positions whose answers are known, and the checker against proofs that
//! hold and proofs that were broken on purpose.

use chess5d_rules::{Position, Variant};
use chess5d_solve::{check, solve, write_proof, Config, Report, Verdict};

fn position(text: &str) -> Position {
    chess5d_notation::load(text).expect("loads").game().position().clone()
}

fn data(name: &str) -> Position {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    position(&std::fs::read_to_string(path).expect("fixture"))
}

fn run(pos: &Position, max_actions: u32) -> Report {
    let config = Config {
        max_actions,
        nodes: 200_000,
        ..Config::default()
    };
    solve(pos, &config, None)
}

const SCHOLAR: &str = "[Board \"Standard\"]\n\n1. e4 / e5\n2. Qh5 / Nc6\n3. Bc4 / Nf6\n";

#[test]
fn finds_a_mate_in_one_and_its_proof_holds() {
    let pos = position(SCHOLAR);
    let report = run(&pos, 2);
    assert_eq!(report.headline(&pos), "win in 1 for white");
    let Verdict::Win { proof, .. } = &report.verdict else {
        panic!()
    };
    assert_eq!(proof.children.len(), 1);
    assert_eq!(proof.children[0].action, "(0T4)h5(0T4)f7");
    let text = write_proof(&pos, &report).unwrap();
    assert_eq!(check::check(&text).unwrap(), "win in 1 for white");
}

#[test]
fn finds_the_puzzles_mates_at_their_length() {
    let pos = data("rook-tactics-1.5dpgn");
    let report = run(&pos, 3);
    assert_eq!(report.headline(&pos), "win in 1 for white");
    let pos = data("rook-tactics-2.5dpgn");
    // Not within one action, then within two: the win reported is the shortest.
    let report = run(&pos, 1);
    assert_eq!(report.headline(&pos), "no win for white within 1 actions");
    let text = write_proof(&pos, &report).unwrap();
    assert_eq!(check::check(&text).unwrap(), "no win for white within 1 actions");
    let report = run(&pos, 3);
    assert_eq!(report.headline(&pos), "win in 2 for white");
    let text = write_proof(&pos, &report).unwrap();
    assert_eq!(check::check(&text).unwrap(), "win in 2 for white");
}

#[test]
fn no_win_in_a_bare_kings_position_with_its_disproof() {
    let pos = Variant::by_name("Focused - Just Kings").unwrap().position();
    let report = run(&pos, 2);
    assert_eq!(report.headline(&pos), "no win for white within 2 actions");
    let text = write_proof(&pos, &report).unwrap();
    assert_eq!(check::check(&text).unwrap(), "no win for white within 2 actions");
}

#[test]
fn a_spent_budget_answers_unknown() {
    let pos = data("rook-tactics-2.5dpgn");
    let config = Config {
        max_actions: 2,
        nodes: 3,
        ..Config::default()
    };
    let report = solve(&pos, &config, None);
    assert_eq!(report.verdict, Verdict::Unknown);
    assert_eq!(report.headline(&pos), "unknown");
    assert!(write_proof(&pos, &report).is_none());
}

/// The proof of rook tactics 2 (win in 2), as lines.
fn mate_in_two_proof() -> Vec<String> {
    let pos = data("rook-tactics-2.5dpgn");
    let report = run(&pos, 2);
    write_proof(&pos, &report)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn a_proof_with_a_defence_removed_breaks_where_it_is_missing() {
    let lines = mate_in_two_proof();
    let tree = lines.iter().position(|l| l == "tree").unwrap();
    // The defences are the lines indented once; drop the second one and its answer.
    let defences: Vec<usize> = (tree..lines.len())
        .filter(|&i| lines[i].starts_with("  ") && !lines[i].starts_with("    "))
        .collect();
    assert!(defences.len() >= 2, "{lines:?}");
    let (at, answer) = (defences[1], defences[1] + 1);
    assert!(lines[answer].starts_with("    "));
    let removed = lines[at].trim().to_string();
    let broken: Vec<&String> = lines
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != at && i != answer)
        .map(|(_, l)| l)
        .collect();
    let text = broken.iter().map(|l| format!("{l}\n")).collect::<String>();
    let err = check::check(&text).unwrap_err();
    // It breaks at the attacker's action, whose defence is not answered.
    assert_eq!(err.line, tree + 2, "{err}");
    assert!(
        err.reason.contains(&removed) && err.reason.contains("not answered"),
        "{err}"
    );
}

#[test]
fn a_proof_with_a_wrong_move_breaks_at_that_move() {
    let lines = mate_in_two_proof();
    let tree = lines.iter().position(|l| l == "tree").unwrap();
    // The first answer of the attacker to a defence (depth 2) replaced by a king move that
    // is not legal (on a board of the past).
    let at = (tree..lines.len()).find(|&i| lines[i].starts_with("    ")).unwrap();
    let mut broken = lines.clone();
    broken[at] = "    (0T1)a1(0T1)a2".to_string();
    let text = broken.iter().map(|l| format!("{l}\n")).collect::<String>();
    let err = check::check(&text).unwrap_err();
    assert_eq!(err.line, at + 1, "{err}");
    assert!(err.reason.contains("not a legal action"), "{err}");
    // A legal answer that does not mate: breaks after it.
    let legal = lines[at].clone();
    let pos = data("rook-tactics-2.5dpgn");
    let _ = pos;
    let mut other = lines.clone();
    // Swap the answers of the first two defences: each is legal in neither or mates in neither.
    let answers: Vec<usize> = (tree..lines.len()).filter(|&i| lines[i].starts_with("    ")).collect();
    if let Some(&second) = answers.iter().find(|&&i| lines[i] != legal) {
        other[at] = lines[second].clone();
        let text = other.iter().map(|l| format!("{l}\n")).collect::<String>();
        let err = check::check(&text).unwrap_err();
        assert_eq!(err.line, at + 1, "{err}");
    }
}

#[test]
fn a_wrong_claim_or_a_cut_file_is_refused() {
    let lines = mate_in_two_proof();
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let err = check::check(&text.replace("claim win in 2", "claim win in 1")).unwrap_err();
    // The defences come after the last action the claim allows.
    assert!(err.reason.contains("no attacker action is left"), "{err}");
    assert!(
        lines[err.line - 1].starts_with("  ") && !lines[err.line - 1].starts_with("    "),
        "{err}"
    );
    let err = check::check(&text.replace("for white", "for black")).unwrap_err();
    assert_eq!(err.line, 2, "{err}");
    let cut = &text[..text.len() - 4];
    assert!(check::check(cut).unwrap_err().reason.contains("'end'"));
    assert_eq!(check::check("hello\n").unwrap_err().line, 1);
    let err = check::check(&text.replace("tree\n", "tree\n   \n")).unwrap_err();
    assert!(err.reason.contains("indented"), "{err}");
}
