//! Layer: domain: no HTTP (the header extractor of a seat token is in `extract`).
//!
//! Seats: the secret tokens that let a player act for a side of a game.
//!
//! A token is 128 random bits written as 32 hex digits. The server keeps only its SHA-256 hash,
//! compares hashes in constant time, and never writes a token to the log: a request carries it
//! in the `X-Chess5d-Seat` header (never in a URL), a browser keeps it in local storage and an
//! invite link carries it in the fragment (which browsers do not send to servers).

use crate::error::ServerError;
use sha2::{Digest, Sha256};
use std::fmt;
use subtle::ConstantTimeEq;

pub use chess5d_play::seats::TOKEN_HEADER;

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

pub use chess5d_play::seats::{Need, Rights};

/// The rights a seat gives.
pub trait FromSeat {
    /// The rights of the holder of `seat`.
    fn from_seat(seat: &Seat) -> Rights;
}

impl FromSeat for Rights {
    fn from_seat(seat: &Seat) -> Rights {
        Rights {
            sides: seat.sides,
            owner: seat.owner,
        }
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
