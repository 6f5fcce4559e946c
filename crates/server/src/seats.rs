//! Layer: domain: no HTTP (the header extractor of a seat token is in `extract`).
//!
//! Seats: the secret tokens that let a player act for a side of a game.
//!
//! A token is 128 random bits written as 32 hex digits. The server keeps only its SHA-256 hash,
//! compares hashes in constant time, and never writes a token to the log: a request carries it
//! in the `X-Chess5d-Seat` header (never in a URL), a browser keeps it in local storage and an
//! invite link carries it in the fragment (which browsers do not send to servers).

use crate::error::ServerError;
use chess5d_rules::Color;
use sha2::{Digest, Sha256};
use std::fmt;
use subtle::ConstantTimeEq;

/// The request header that carries a seat token.
pub const TOKEN_HEADER: &str = "x-chess5d-seat";

/// A new random token (128 bits from the operating system, 32 hex digits).
pub fn new_token() -> Result<String, ServerError> {
    let mut bytes = [0u8; 16];
    getrandom::getrandom(&mut bytes)
        .map_err(|e| ServerError::Internal(format!("no random numbers from the system: {e}")))?;
    Ok(hex(&bytes))
}

/// A random boolean (for a challenge's random colour).
pub fn coin() -> Result<bool, ServerError> {
    let mut b = [0u8; 1];
    getrandom::getrandom(&mut b)
        .map_err(|e| ServerError::Internal(format!("no random numbers from the system: {e}")))?;
    Ok(b[0] & 1 == 1)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The stored form of a token: its SHA-256 in hex.
pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Whether `token` hashes to `hash`, compared in constant time.
pub fn token_matches(token: &str, hash: &str) -> bool {
    hash_token(token).as_bytes().ct_eq(hash.as_bytes()).into()
}

pub use crate::db::Seat;

/// What the holder of a token may do in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rights {
    /// May act for White / Black.
    pub sides: [bool; 2],
    /// May delete the game and act for its engine sides.
    pub owner: bool,
}

impl Rights {
    /// Every right (a game without seats served on loopback only).
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

    /// The sides held, as names.
    pub fn side_names(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.sides[0] {
            v.push("white");
        }
        if self.sides[1] {
            v.push("black");
        }
        v
    }
}

/// The rights of `token` among `seats`. Every seat is compared (no early exit).
pub fn rights(seats: &[Seat], token: Option<&str>) -> Rights {
    let Some(token) = token else {
        return Rights::default();
    };
    let hash = hash_token(token);
    let mut r = Rights::default();
    for s in seats {
        // An invite's token opens its seat only through `join`, once.
        if bool::from(hash.as_bytes().ct_eq(s.hash.as_bytes())) && !s.invite {
            r.sides[0] |= s.sides[0];
            r.sides[1] |= s.sides[1];
            r.owner |= s.owner;
        }
    }
    r
}

/// The seat token of a request (from the `X-Chess5d-Seat` header), if any. Its `Debug` hides it.
#[derive(Clone, Default)]
pub struct SeatToken(pub Option<String>);

impl fmt::Debug for SeatToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "SeatToken(****)"
        } else {
            "SeatToken(none)"
        })
    }
}

impl SeatToken {
    /// The token text.
    pub fn get(&self) -> Option<&str> {
        self.0.as_deref()
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
    /// The creator's token.
    Owner,
}

impl Need {
    /// Checks `rights` in a game where `to_move` is to move and `engine[c]` tells which sides are
    /// engines; gives the side the request acts for.
    pub fn check(self, rights: Rights, to_move: Color, engine: [bool; 2], id: i64) -> Result<Color, ServerError> {
        if !rights.any() {
            return Err(ServerError::Forbidden(format!(
                "this needs the seat token of a player of game {id} (header {TOKEN_HEADER})"
            )));
        }
        let side_ok = |c: Color| rights.sides[c.index()] || (engine[c.index()] && rights.owner);
        let name = |c: Color| chess5d_play::color_name(c);
        match self {
            Need::ToMove => {
                if side_ok(to_move) {
                    Ok(to_move)
                } else {
                    Err(ServerError::Forbidden(format!(
                        "your seat plays {}; {} is to move",
                        rights.side_names().join(" and "),
                        name(to_move)
                    )))
                }
            }
            Need::Side(c) => {
                let c = match c {
                    Some(c) => c,
                    None => rights.only_side().unwrap_or(to_move),
                };
                if side_ok(c) {
                    Ok(c)
                } else {
                    Err(ServerError::Forbidden(format!("your seat does not play {}", name(c))))
                }
            }
            Need::AnySeat => Ok(to_move),
            Need::Owner => {
                if rights.owner {
                    Ok(to_move)
                } else {
                    Err(ServerError::Forbidden(format!(
                        "only the creator of game {id} may do this"
                    )))
                }
            }
        }
    }
}
