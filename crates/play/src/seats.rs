//! Who may do what in a game: the rights a requester holds (the sides of its seat), what each
//! request needs, and who is looking ([`Viewer`]: what each one may see is decided by
//! [`crate::game::Play::view_for`]). Tokens and their hashes are the server's (it keeps them); a door
//! without seats (the static site) gives every request [`Rights::ALL`].

use crate::error::PlayError;
use chess5d_rules::Color;

pub use crate::terms::TOKEN_HEADER;

/// What the holder of a seat may do in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rights {
    /// May act for White / Black.
    pub sides: [bool; 2],
    /// May delete the game and act for its engine sides.
    pub owner: bool,
}

impl Rights {
    /// Every right (one person at one browser, or a game without seats on a private server).
    pub const ALL: Rights = Rights {
        sides: [true, true],
        owner: true,
    };

    /// Whether the token opened any seat of the game.
    pub fn any(&self) -> bool {
        self.owner || self.sides[0] || self.sides[1]
    }

    /// The single side held, if exactly one.
    pub fn only_side(&self) -> Option<Color> {
        match self.sides {
            [true, false] => Some(Color::White),
            [false, true] => Some(Color::Black),
            _ => None,
        }
    }

    /// The sides held.
    pub fn held(&self) -> Vec<Color> {
        [Color::White, Color::Black]
            .into_iter()
            .filter(|c| self.sides[c.index()])
            .collect()
    }

    /// Who these rights make their holder when looking at the game.
    pub fn viewer(&self) -> Viewer {
        if self.sides[0] || self.sides[1] {
            Viewer::Seat(self.sides)
        } else {
            Viewer::Spectator
        }
    }
}

/// Who is looking at a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// A player: the sides its seat plays. It sees the moves it tries before submitting them.
    Seat([bool; 2]),
    /// Anyone else (an opponent's seat sees as a spectator does what the side to move tries).
    Spectator,
}

impl Viewer {
    /// Whether this viewer sees the tries of `c` (the moves `c` has not submitted yet).
    pub fn sees_tries_of(self, c: Color) -> bool {
        matches!(self, Viewer::Seat(s) if s[c.index()])
    }
}

/// What a request needs to hold to change a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// The side to move (its owner for an engine side).
    ToMove,
    /// This side, or the requester's own side if `None` (the side to move if they hold both).
    Side(Option<Color>),
    /// Any seat of the game.
    AnySeat,
    /// The creator's seat.
    Owner,
}

impl Need {
    /// Checks `rights` in game `game` where `to_move` is to move and `engine[c]` tells which
    /// sides are engines; gives the side the request acts for.
    pub fn check(self, rights: Rights, to_move: Color, engine: [bool; 2], game: i64) -> Result<Color, PlayError> {
        if !rights.any() {
            return Err(PlayError::NotSeated { game });
        }
        let side_ok = |c: Color| rights.sides[c.index()] || (engine[c.index()] && rights.owner);
        match self {
            Need::ToMove if side_ok(to_move) => Ok(to_move),
            Need::ToMove => Err(PlayError::NotYourTurn {
                held: rights.held(),
                to_move,
            }),
            Need::Side(c) => {
                let c = c.unwrap_or_else(|| rights.only_side().unwrap_or(to_move));
                if side_ok(c) {
                    Ok(c)
                } else {
                    Err(PlayError::NotYourSide { color: c })
                }
            }
            Need::AnySeat => Ok(to_move),
            Need::Owner if rights.owner => Ok(to_move),
            Need::Owner => Err(PlayError::NotOwner { game }),
        }
    }
}
