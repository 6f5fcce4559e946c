//! Layer: storage. Rated games: the accounts seated in a game, and the Glicko-2 change of a
//! rated game's end, applied in the very transaction that writes the row ending it (so a crash
//! at that moment leaves both or neither) and at most once (`rating_changes` is keyed by game
//! and account: a game already rated is not rated again).

use crate::db::GameRow;
use chess5d_rating::{Glicko2, Outcome, Rating};
use rusqlite::{params, Connection, OptionalExtension};

/// Who sits in a game: the accounts of White and Black (if any), rated or not, the category.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameAccounts {
    /// White's account.
    pub white: Option<i64>,
    /// Black's account.
    pub black: Option<i64>,
    /// Rated (two accounts and a clock).
    pub rated: bool,
    /// The rating category's key (see `chess5d_rating::Category`).
    pub category: Option<String>,
}

/// Stores the accounts of game `game`.
pub fn set_accounts(c: &Connection, game: i64, a: &GameAccounts) -> rusqlite::Result<()> {
    c.execute(
        "INSERT OR REPLACE INTO game_accounts (game, white, black, rated, category) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![game, a.white, a.black, a.rated, a.category],
    )?;
    Ok(())
}

/// Records that `account` plays `side` of game `game` (a seat taken while logged in), keeping
/// the other side's account and the rated flag.
pub fn seat_account(c: &Connection, game: i64, side: chess5d_rules::Color, account: i64) -> rusqlite::Result<()> {
    let column = match side {
        chess5d_rules::Color::White => "white",
        chess5d_rules::Color::Black => "black",
    };
    c.execute(
        &format!(
            "INSERT INTO game_accounts (game, {column}) VALUES (?1, ?2)
             ON CONFLICT (game) DO UPDATE SET {column} = ?2"
        ),
        params![game, account],
    )?;
    Ok(())
}

/// A player's rating in a category (a new player's if none).
pub fn rating_of(c: &Connection, account: i64, category: &str) -> rusqlite::Result<(Rating, i64)> {
    Ok(c.query_row(
        "SELECT rating, rd, volatility, games FROM ratings WHERE account = ?1 AND category = ?2",
        params![account, category],
        |r| {
            Ok((
                Rating {
                    rating: r.get(0)?,
                    rd: r.get(1)?,
                    volatility: r.get(2)?,
                },
                r.get(3)?,
            ))
        },
    )
    .optional()?
    .unwrap_or((Rating::default(), 0)))
}

/// After the row `row` is written: if it ends a rated game in which both sides have moved,
/// and the game has not been rated yet, each player's rating changes (one rating period).
pub fn on_end(c: &Connection, row: &GameRow) -> rusqlite::Result<()> {
    let outcome = match row.result.as_deref() {
        Some("1-0") => Outcome::Win,
        Some("0-1") => Outcome::Loss,
        Some("1/2-1/2") => Outcome::Draw,
        _ => return Ok(()),
    };
    // A game aborted, or ended, before both sides moved changes nothing.
    if row.n_actions < 2 {
        return Ok(());
    }
    let seated = c
        .query_row(
            "SELECT white, black, rated, category FROM game_accounts WHERE game = ?1",
            [row.id],
            |r| {
                Ok((
                    r.get::<_, Option<i64>>(0)?,
                    r.get::<_, Option<i64>>(1)?,
                    r.get::<_, bool>(2)?,
                    r.get::<_, Option<String>>(3)?,
                ))
            },
        )
        .optional()?;
    let Some((Some(w), Some(b), true, Some(cat))) = seated else {
        return Ok(());
    };
    let done: bool = c.query_row(
        "SELECT EXISTS (SELECT 1 FROM rating_changes WHERE game = ?1)",
        [row.id],
        |r| r.get(0),
    )?;
    if done || w == b {
        return Ok(());
    }
    let (rw, gw) = rating_of(c, w, &cat)?;
    let (rb, gb) = rating_of(c, b, &cat)?;
    let (nw, nb) = Glicko2::default().game(rw, rb, outcome);
    let at = crate::db::now();
    for (account, before, after, games) in [(w, rw, nw, gw), (b, rb, nb, gb)] {
        c.execute(
            "INSERT OR REPLACE INTO ratings (account, category, rating, rd, volatility, games) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![account, cat, after.rating, after.rd, after.volatility, games + 1],
        )?;
        c.execute(
            "INSERT INTO rating_changes (game, account, category, before, after, rd, volatility, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                row.id,
                account,
                cat,
                before.rating,
                after.rating,
                after.rd,
                after.volatility,
                at
            ],
        )?;
    }
    Ok(())
}
