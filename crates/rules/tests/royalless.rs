//! Positions where a side has no royal piece (`tests/data/royalless.txt`): accepted, never in
//! check, stalemated when out of legal actions; a capturable royal piece and a pawn or brawn on
//! its promotion rank are still refused.

use chess5d_rules::{ActionCount, Board, BoardId, Budget, Outcome, Position, Setup, SetupError, Size};

/// One line of the data file.
pub struct Case {
    pub name: String,
    /// `4x4`.
    pub size: String,
    /// The 5DFEN boards, as written in the file.
    pub boards: Vec<String>,
    pub expect: Expect,
}

pub enum Expect {
    Accepted { check: bool, outcome: String, actions: u64 },
    Refused(String),
}

/// The cases of `tests/data/royalless.txt` (the binary's and the server's tests read it too).
pub fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/royalless.txt")).unwrap();
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 4, "{line}");
        let boards = fields[2].split_whitespace().map(str::to_string).collect();
        let expect = match fields[3].strip_prefix("refused: ") {
            Some(why) => Expect::Refused(why.to_string()),
            None => {
                let mut check = None;
                let mut outcome = None;
                let mut actions = None;
                for kv in fields[3].split_whitespace() {
                    match kv.split_once('=').unwrap_or_else(|| panic!("{line}")) {
                        ("check", v) => check = Some(v == "yes"),
                        ("outcome", v) => outcome = Some(v.to_string()),
                        ("actions", v) => actions = Some(v.parse().unwrap()),
                        _ => panic!("{line}"),
                    }
                }
                Expect::Accepted {
                    check: check.unwrap(),
                    outcome: outcome.unwrap(),
                    actions: actions.unwrap(),
                }
            }
        };
        out.push(Case {
            name: fields[0].to_string(),
            size: fields[1].to_string(),
            boards,
            expect,
        });
    }
    out
}

fn setup(case: &Case) -> Setup {
    let (w, h) = case.size.split_once('x').unwrap();
    let size = Size::new(w.parse().unwrap(), h.parse().unwrap()).unwrap();
    let boards = case
        .boards
        .iter()
        .map(|b| {
            let inner = b.strip_prefix('[').and_then(|b| b.strip_suffix(']')).unwrap();
            let f: Vec<&str> = inner.split(':').collect();
            let (l, turn): (i32, i32) = (f[1].parse().unwrap(), f[2].parse().unwrap());
            let t = 2 * turn + i32::from(f[3] == "b");
            let board = Board::from_fen(f[0], size).unwrap_or_else(|e| panic!("{}: {e:?}", case.name));
            (BoardId::new(l, t), board)
        })
        .collect();
    Setup {
        size,
        even: false,
        boards,
        promotions: vec![chess5d_rules::Role::Queen],
    }
}

#[test]
fn positions_without_a_royal_piece() {
    let cases = cases();
    assert!(cases.len() >= 10);
    for case in &cases {
        let name = &case.name;
        let result = Position::from_setup(setup(case));
        match &case.expect {
            Expect::Refused(why) => {
                let e = result.err().unwrap_or_else(|| panic!("{name}: accepted"));
                assert_eq!(e.to_string(), *why, "{name}");
                assert!(matches!(
                    e,
                    SetupError::RoyalCapturable { .. } | SetupError::PawnOnEndRank(..)
                ));
            }
            Expect::Accepted {
                check,
                outcome,
                actions,
            } => {
                let pos = result.unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(pos.in_check(), *check, "{name}");
                assert_eq!(pos.clone().in_check_mut(), *check, "{name}");
                assert_eq!(pos.checking_move().is_some(), *check, "{name}");
                assert_eq!(pos.outcome(Budget::DEFAULT).name(), outcome, "{name}");
                assert_eq!(
                    pos.count_actions(1000, Budget::DEFAULT),
                    ActionCount::Exact(*actions),
                    "{name}"
                );
                // Every action leads to a position whose verdict is proven (two plies deep).
                for action in pos.legal_actions(Budget::DEFAULT) {
                    let mut next = pos.clone();
                    for mv in &action {
                        next.play(mv).unwrap();
                    }
                    next.submit().unwrap_or_else(|e| panic!("{name}: {e}"));
                    let verdict = next.outcome(Budget::DEFAULT);
                    assert_ne!(verdict, Outcome::Unknown, "{name}");
                    if verdict == Outcome::Checkmate {
                        assert!(next.in_check(), "{name}");
                    }
                }
            }
        }
    }
}

/// The side without a royal piece is never in check, even with every piece attacked; the other
/// side still is.
#[test]
fn only_a_royal_piece_can_be_checked() {
    let size = Size::new(4, 4).unwrap();
    // White: a lone rook on a1 attacked by Black's queen; Black: a king on d4 and the queen.
    let white_to_move = Board::from_fen("3k/4/1q2/R3", size).unwrap();
    let pos = Position::from_setup(Setup::single(size, white_to_move)).unwrap();
    assert!(!pos.in_check());
    assert!(matches!(pos.outcome(Budget::DEFAULT), Outcome::Ongoing(_)));
    // Ra4 checks Black's king along the fourth rank (from the board after Black's pass).
    let mut pos = pos;
    let check = pos
        .present_moves()
        .into_iter()
        .find(|m| m.long(false) == "(0T1)a1(0T1)a4")
        .unwrap();
    pos.play(&check).unwrap();
    pos.submit().unwrap();
    assert!(pos.in_check());
    assert_eq!(
        pos.checking_move().map(|(from, _)| pos.coord_name(from)).as_deref(),
        Some("(0T2)a4")
    );
}
