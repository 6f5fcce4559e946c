//! The terms of the evaluation: [`Weights`], one number per term, which `eval.rs` reads from
//! `weights.rs` and `chess5d tune` fits.

use chess5d_rules::Role;

/// Every weight of the evaluation, in centipawns.
///
/// Material and placement are averaged over the latest boards of the timelines (an active
/// timeline's board weighs double an inactive one's); royal safety is summed over them (a
/// quarter per unit of a board's weight); timeline counts, check and tempo count once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// A pawn.
    pub pawn: i32,
    /// A knight.
    pub knight: i32,
    /// A bishop.
    pub bishop: i32,
    /// A rook.
    pub rook: i32,
    /// A queen.
    pub queen: i32,
    /// A princess (rook and bishop).
    pub princess: i32,
    /// A unicorn (three axes).
    pub unicorn: i32,
    /// A dragon (four axes).
    pub dragon: i32,
    /// A brawn (a pawn with extra captures).
    pub brawn: i32,
    /// A common (non-royal) king.
    pub common_king: i32,
    /// A king (royal), on a board. A royal piece is never captured (that ends the game), but
    /// it can travel to another board and leave its own: its count differs between boards.
    /// ([`piece_value`](crate::piece_value) is 0 for royal pieces whatever this is: the search orders their
    /// captures apart.)
    pub king: i32,
    /// A royal queen, on a board (as for [`king`](Self::king)).
    pub royal_queen: i32,
    /// An extra active timeline of one's own (a cost when negative).
    pub active_timeline: i32,
    /// An extra inactive timeline of one's own.
    pub inactive_timeline: i32,
    /// Per enemy piece near a royal piece (Chebyshev distance 2 on its board), subtracted.
    pub royal_danger: i32,
    /// Per own piece next to a royal piece (a shield), at most three counted.
    pub royal_shield: i32,
    /// The side to move is in check on some timeline, subtracted.
    pub in_check: i32,
    /// Per non-pawn, non-royal piece on a timeline with a past to travel to.
    pub traveller: i32,
    /// Having the move.
    pub tempo: i32,
    /// Per rank a pawn (or brawn) has advanced.
    pub pawn_advance: i32,
    /// Per step toward the centre for knights, bishops, unicorns and dragons.
    pub centre: i32,
}

/// The number of weights in [`Weights`].
pub const WEIGHT_COUNT: usize = 21;

impl Weights {
    /// The names of the weights (the fields of [`Weights`]), in the order of
    /// [`to_array`](Self::to_array).
    pub const NAMES: [&'static str; WEIGHT_COUNT] = [
        "pawn",
        "knight",
        "bishop",
        "rook",
        "queen",
        "princess",
        "unicorn",
        "dragon",
        "brawn",
        "common_king",
        "king",
        "royal_queen",
        "active_timeline",
        "inactive_timeline",
        "royal_danger",
        "royal_shield",
        "in_check",
        "traveller",
        "tempo",
        "pawn_advance",
        "centre",
    ];

    /// The weights in the order of [`NAMES`](Self::NAMES).
    pub const fn to_array(&self) -> [i32; WEIGHT_COUNT] {
        [
            self.pawn,
            self.knight,
            self.bishop,
            self.rook,
            self.queen,
            self.princess,
            self.unicorn,
            self.dragon,
            self.brawn,
            self.common_king,
            self.king,
            self.royal_queen,
            self.active_timeline,
            self.inactive_timeline,
            self.royal_danger,
            self.royal_shield,
            self.in_check,
            self.traveller,
            self.tempo,
            self.pawn_advance,
            self.centre,
        ]
    }

    /// The weights from an array in the order of [`NAMES`](Self::NAMES).
    pub const fn from_array(a: [i32; WEIGHT_COUNT]) -> Weights {
        Weights {
            pawn: a[0],
            knight: a[1],
            bishop: a[2],
            rook: a[3],
            queen: a[4],
            princess: a[5],
            unicorn: a[6],
            dragon: a[7],
            brawn: a[8],
            common_king: a[9],
            king: a[10],
            royal_queen: a[11],
            active_timeline: a[12],
            inactive_timeline: a[13],
            royal_danger: a[14],
            royal_shield: a[15],
            in_check: a[16],
            traveller: a[17],
            tempo: a[18],
            pawn_advance: a[19],
            centre: a[20],
        }
    }

    /// The index in [`NAMES`](Self::NAMES) of a role's value.
    pub const fn role_index(role: Role) -> usize {
        match role {
            Role::Pawn => 0,
            Role::Knight => 1,
            Role::Bishop => 2,
            Role::Rook => 3,
            Role::Queen => 4,
            Role::Princess => 5,
            Role::Unicorn => 6,
            Role::Dragon => 7,
            Role::Brawn => 8,
            Role::CommonKing => 9,
            Role::King => 10,
            Role::RoyalQueen => 11,
        }
    }

    /// The value of a piece of `role`.
    #[inline]
    pub const fn piece(&self, role: Role) -> i32 {
        match role {
            Role::Pawn => self.pawn,
            Role::Knight => self.knight,
            Role::Bishop => self.bishop,
            Role::Rook => self.rook,
            Role::Queen => self.queen,
            Role::Princess => self.princess,
            Role::Unicorn => self.unicorn,
            Role::Dragon => self.dragon,
            Role::Brawn => self.brawn,
            Role::CommonKing => self.common_king,
            Role::King => self.king,
            Role::RoyalQueen => self.royal_queen,
        }
    }
}
