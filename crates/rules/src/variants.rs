//! The official variants, by the name of their 5DPGN `Board` header.

use crate::board::Board;
use crate::position::{Position, Setup};
use crate::types::{BoardId, Role, Size};

/// An official starting position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The `Board` header name, e.g. `Standard - Turn Zero`.
    pub name: &'static str,
    /// Other names it is known by (the seed library's short names, misspellings seen in files).
    pub aliases: &'static [&'static str],
    /// Files and ranks.
    pub width: u8,
    /// Ranks.
    pub height: u8,
    /// Whether the variant starts with two timelines `-0` and `+0`.
    pub even: bool,
    /// Starting boards: timeline label, turn, colour to move on it (`'w'`/`'b'`), placement.
    pub boards: &'static [(&'static str, i32, char, &'static str)],
}

const STD: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

macro_rules! v {
    ($name:expr, [$($alias:expr),*], $w:expr, $h:expr, $even:expr, [$(($l:expr, $t:expr, $c:expr, $fen:expr)),+]) => {
        Variant { name: $name, aliases: &[$($alias),*], width: $w, height: $h, even: $even, boards: &[$(($l, $t, $c, $fen)),+] }
    };
}

/// Every official variant, in the order of the game's menu.
pub const VARIANTS: &[Variant] = &[
    v!("Standard", ["standard", "default"], 8, 8, false, [("0", 1, 'w', STD)]),
    v!(
        "Standard - Turn Zero",
        ["turn_zero", "turn zero"],
        8,
        8,
        false,
        [("0", 0, 'b', STD), ("0", 1, 'w', STD)]
    ),
    v!(
        "Standard - Princess",
        ["princess"],
        8,
        8,
        false,
        [("0", 1, 'w', "rnbskbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBSKBNR")]
    ),
    v!(
        "Standard - Two Timelines",
        ["two_timelines", "two timelines"],
        8,
        8,
        true,
        [("-0", 1, 'w', STD), ("+0", 1, 'w', STD)]
    ),
    v!(
        "Standard - Defended Pawn",
        ["defended_pawn", "defended pawn"],
        8,
        8,
        false,
        [("0", 1, 'w', "rqbnkbnr/pppppppp/8/8/8/8/PPPPPPPP/RQBNKBNR")]
    ),
    v!(
        "Standard - Reversed Royalty",
        ["reversed_royalty", "reversed royalty"],
        8,
        8,
        false,
        [("0", 1, 'w', "rnbycbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBYCBNR")]
    ),
    v!(
        "Standard - Half Reflected",
        ["half_reflected", "half reflected"],
        8,
        8,
        false,
        [("0", 1, 'w', "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")]
    ),
    v!(
        "Simple - No Queens",
        [],
        7,
        7,
        false,
        [("0", 1, 'w', "rnbknbr/ppppppp/7/7/7/PPPPPPP/RNBKNBR")]
    ),
    v!(
        "Simple - Knights vs. Bishops",
        [],
        6,
        6,
        false,
        [("0", 1, 'w', "rbqkbr/pppppp/6/6/PPPPPP/RNQKNR")]
    ),
    v!(
        "Simple - No Bishops",
        [],
        6,
        6,
        false,
        [("0", 1, 'w', "rnqknr/pppppp/6/6/PPPPPP/RNQKNR")]
    ),
    v!(
        "Simple - No Knights",
        [],
        6,
        6,
        false,
        [("0", 1, 'w', "rbqkbr/pppppp/6/6/PPPPPP/RBQKBR")]
    ),
    v!(
        "Simple - No Rooks",
        [],
        6,
        6,
        false,
        [("0", 1, 'w', "nbqkbn/pppppp/6/6/PPPPPP/NBQKBN")]
    ),
    v!(
        "Simple - Simple Set",
        [],
        6,
        6,
        false,
        [("0", 1, 'w', "rnbqkr/pppppp/6/6/PPPPPP/RKQBNR")]
    ),
    v!(
        "Small",
        ["Misc - Small"],
        5,
        5,
        false,
        [("0", 1, 'w', "kqbnr/ppppp/5/PPPPP/KQBNR")]
    ),
    v!(
        "Small - Flipped",
        [],
        5,
        5,
        false,
        [("0", 1, 'w', "nbrqk/ppppp/5/PPPPP/KQRBN")]
    ),
    v!(
        "Small - Centered",
        [],
        5,
        5,
        false,
        [("0", 1, 'w', "rnkqr/ppppp/5/PPPPP/RQKNR")]
    ),
    v!(
        "Small - Open",
        [],
        5,
        5,
        false,
        [("0", 1, 'w', "prnbk/3pp/5/PP3/KBNRP")]
    ),
    v!("Very Small", [], 4, 4, false, [("0", 1, 'w', "nbrk/pppp/PPPP/KRBN")]),
    v!("Very Small - Open", [], 4, 4, false, [("0", 1, 'w', "nbrk/3p/P3/KRBN")]),
    v!(
        "Misc - Timeline Invasion",
        [],
        5,
        5,
        true,
        [
            ("-0", 1, 'w', "nbkrb/ppppp/5/5/PPPPP"),
            ("+0", 1, 'w', "ppppp/5/5/PPPPP/NBKRB")
        ]
    ),
    v!(
        "Misc - Timeline Formations",
        [],
        5,
        5,
        true,
        [("-0", 1, 'w', "ppppp/5/5/5/2K2"), ("+0", 1, 'w', "2k2/5/5/5/PPPPP")]
    ),
    v!(
        "Misc - Timeline Tactitian",
        ["Misc - Timeline Tactician"],
        4,
        4,
        true,
        [("-0", 1, 'w', "kbnr/pppp/4/4"), ("+0", 1, 'w', "4/4/PPPP/KBNR")]
    ),
    v!(
        "Misc - Timeline Strategos",
        [],
        5,
        5,
        true,
        [("-0", 1, 'w', "nbkur/ppppp/5/5/5"), ("+0", 1, 'w', "5/5/5/PPPPP/RUKBN")]
    ),
    v!(
        "Misc - Timeline Battlegrounds",
        [],
        5,
        5,
        false,
        [
            ("-1", 1, 'w', "rrkrr/bbqbb/ppppp/5/PPPPP"),
            ("0", 1, 'w', "nnnnn/ppppp/5/PPPPP/NNNNN"),
            ("1", 1, 'w', "ppppp/5/PPPPP/BBQBB/RRKRR")
        ]
    ),
    v!(
        "Misc - Timeline Skirmish",
        [],
        5,
        5,
        true,
        [("-0", 1, 'w', "3rk/3pp/5/BB3/NN3"), ("+0", 1, 'w', "3nn/3bb/5/PP3/KR3")]
    ),
    // Uncertain: an old description starts the -0 board half a turn later.
    v!(
        "Misc - Timeline Fragments",
        [],
        4,
        4,
        true,
        [("-0", 1, 'w', "kppp/4/4/NBRU"), ("+0", 1, 'w', "nbru/4/4/KPPP")]
    ),
    v!(
        "Misc - Timeline Marauders",
        [],
        5,
        5,
        false,
        [
            ("-1", 1, 'w', "wrkrw/1www1/5/5/5"),
            ("0", 1, 'w', "w1w1w/5/5/5/W1W1W"),
            ("1", 1, 'w', "5/5/5/1WWW1/WRKRW")
        ]
    ),
    v!(
        "Misc - King of Kings",
        [],
        5,
        5,
        false,
        [("0", 1, 'w', "cckcc/5/5/5/CCKCC")]
    ),
    v!(
        "Misc - Royal Queen Showdown",
        [],
        6,
        6,
        false,
        [("0", 1, 'w', "4y1/6/6/6/6/1Y4")]
    ),
    v!(
        "Misc - Excessive",
        [],
        7,
        7,
        false,
        [("0", 1, 'w', "kruqdrk/rnbknbr/ppppppp/7/PPPPPPP/RNBKNBR/KRUQDRK")]
    ),
    v!(
        "Focused - Just Knights",
        [],
        5,
        5,
        false,
        [("0", 1, 'w', "n1kn1/5/5/5/1NK1N")]
    ),
    v!(
        "Focused - Just Bishops",
        [],
        5,
        5,
        false,
        [("0", 1, 'w', "1bbk1/5/5/5/1KBB1")]
    ),
    v!(
        "Focused - Just Rooks",
        [],
        5,
        5,
        false,
        [("0", 1, 'w', "1rk1r/5/5/5/R1KR1")]
    ),
    v!(
        "Focused - Just Queens",
        [],
        6,
        6,
        false,
        [("0", 1, 'w', "1q1k2/6/6/6/6/2K1Q1")]
    ),
    v!(
        "Focused - Just Pawns",
        [],
        5,
        5,
        false,
        [("0", 1, 'w', "ppppk/5/5/5/KPPPP")]
    ),
    v!("Focused - Just Kings", [], 3, 3, false, [("0", 1, 'w', "2k/3/K2")]),
    v!(
        "Focused - Just Unicorns",
        [],
        5,
        5,
        false,
        [("0", 1, 'w', "1u1uk/5/5/5/KU1U1")]
    ),
    v!(
        "Focused - Just Dragons",
        [],
        5,
        5,
        false,
        [("0", 1, 'w', "2ddk/5/5/5/KDD2")]
    ),
    v!(
        "Focused - Just Brawns",
        ["just_brawns"],
        5,
        5,
        false,
        [("0", 1, 'w', "wwwwk/5/5/5/KWWWW")]
    ),
];

/// Folds a variant name for loose matching: case, punctuation and plural `s` do not matter.
fn fold(name: &str) -> String {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let w = w.to_ascii_lowercase();
            match w.strip_suffix('s') {
                Some(stem) if stem.len() > 2 => stem.to_string(),
                _ => w,
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl Variant {
    /// Finds a variant by its `Board` header name or an alias, loosely (case, punctuation,
    /// plurals, `_` for spaces).
    pub fn by_name(name: &str) -> Option<&'static Variant> {
        let key = fold(name);
        VARIANTS
            .iter()
            .find(|v| fold(v.name) == key || v.aliases.iter().any(|a| fold(a) == key))
    }

    /// The board size.
    pub fn size(&self) -> Size {
        Size {
            width: self.width,
            height: self.height,
        }
    }

    /// The starting setup, pawns, brawns, kings and rooks unmoved, promotion to a queen.
    ///
    /// A queen in every variant, "Standard - Princess" included: the rules documents
    /// (rules.md, section 3, and the community rules text and encyclopedia article it follows)
    /// let a pawn promote to a queen only, with no exception for that variant, where
    /// 5d-chess-js 1.2.1 offers a princess, rook, knight or bishop instead. A game may allow
    /// more through its 5DPGN `Promotions` header.
    pub fn setup(&self) -> Setup {
        let size = self.size();
        let boards = self
            .boards
            .iter()
            .map(|&(l, turn, c, fen)| {
                let l = crate::types::parse_timeline(l, self.even).expect("valid label");
                let t = 2 * turn + if c == 'b' { 1 } else { 0 };
                let mut board = Board::from_fen(fen, size).expect("valid variant placement");
                let pieces: Vec<_> = board.pieces().collect();
                for (sq, p) in pieces {
                    if matches!(p.role(), Role::Pawn | Role::Brawn | Role::King | Role::Rook) {
                        board.set(sq, Some(p.with_unmoved(true)));
                    }
                }
                (BoardId::new(l, t), board)
            })
            .collect();
        Setup {
            size,
            even: self.even,
            boards,
            promotions: vec![Role::Queen],
        }
    }

    /// The starting position.
    pub fn position(&self) -> Position {
        Position::from_setup(self.setup()).expect("official variants are valid")
    }
}

impl Position {
    /// The standard starting position.
    pub fn standard() -> Position {
        VARIANTS[0].position()
    }
}
