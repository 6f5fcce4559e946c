//! One move written in any notation the notation crate reads: 5DPGN SAN (`Nf3`, `(0T2)Nb1>>(0T1)b3`),
//! the long form (`(0T1)e2(0T1)e4`), 5d-chess-js/alexbay (`1w. 1:e2:e3`, `2:Qd1:e2`) and the seed
//! GUI's coordinates (`(5,2,1,0)(5,4,1,0)`). Each notation's own parser and resolver do the work;
//! this only picks the notation.

use chess5d_notation::alexbay::AlexbayMove;
use chess5d_notation::coordinate::CoordMove;
use chess5d_notation::{LongMove, ParseError, Reason, SanMove};
use chess5d_rules::{Color, Move, Position};

/// Why a written move is not a move of the position.
#[derive(Debug)]
pub enum MoveTextError {
    /// Not well formed.
    Parse(ParseError),
    /// Well formed, but no single legal move of the position.
    Resolve(Reason),
}

/// The alexbay action prefix `<number><w|b>. `, if the text starts with one: its colour and
/// the length of the prefix in characters (spaces after it included).
fn alexbay_prefix(text: &str) -> Option<(Color, usize)> {
    let digits = text.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let mut rest = text[digits..].chars();
    let color = match rest.next()? {
        'w' => Color::White,
        'b' => Color::Black,
        _ => return None,
    };
    if rest.next()? != '.' {
        return None;
    }
    let spaces = rest.take_while(|c| c.is_whitespace()).count();
    Some((color, digits + 2 + spaces))
}

/// The move `text` stands for in `pos`.
pub fn move_of(text: &str, pos: &Position) -> Result<Move, MoveTextError> {
    let text = text.trim();
    if let Some((color, skip)) = alexbay_prefix(text) {
        if color != pos.to_move() {
            return Err(MoveTextError::Resolve(Reason::WrongSide(format!(
                "the action is written as {color}'s, but {} is to move",
                pos.to_move()
            ))));
        }
        let mv: AlexbayMove = text[skip..].parse().map_err(|mut e: ParseError| {
            e.span = e.span.shifted(skip);
            MoveTextError::Parse(e)
        })?;
        return mv.resolve(pos).map_err(MoveTextError::Resolve);
    }
    // `2:Qd1:e2`, `3+1:Nb8:c6`: alexbay without its prefix (no other notation has `<turn>:`).
    if text.starts_with(|c: char| c.is_ascii_digit()) && text.contains(':') {
        let mv: AlexbayMove = text.parse().map_err(MoveTextError::Parse)?;
        return mv.resolve(pos).map_err(MoveTextError::Resolve);
    }
    // The seed GUI's `(x,y,T,L)` coordinates have commas inside the first parenthesis.
    let first_group = text.split(')').next().unwrap_or("");
    if (text.starts_with('(') && first_group.contains(',')) || text.starts_with("O-O,") || text.starts_with("0-0,") {
        let mv: CoordMove = text.parse().map_err(MoveTextError::Parse)?;
        return mv.resolve(pos).map_err(MoveTextError::Resolve);
    }
    // The long form and SAN with board prefixes both start with `(`; the long form is tried
    // first, and when both fail the error that got further into the text is reported.
    let long = text.parse::<LongMove>();
    if let Ok(mv) = long {
        return mv.resolve(pos).map_err(MoveTextError::Resolve);
    }
    match (text.parse::<SanMove>(), long) {
        (Ok(mv), _) => mv.resolve(pos).map(|(m, _)| m).map_err(MoveTextError::Resolve),
        (Err(san), Err(long)) if text.starts_with('(') && long.span.column >= san.span.column => {
            Err(MoveTextError::Parse(long))
        }
        (Err(san), _) => Err(MoveTextError::Parse(san)),
    }
}
