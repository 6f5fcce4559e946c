//! The start position of a record, from its headers (`Board`, `Variant`, `Size`, `Promotions`)
//! and its 5DFEN boards; and the headers describing a start position.

use crate::error::{Error, StartError};
use crate::fen::{self, FenBoard};
use chess5d_rules::{Position, Role, Size, Variant, VARIANTS};

/// Looks a header up by name, ignoring case.
pub fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// Reads a `Size` value like `8x8`.
pub fn parse_size(value: &str) -> Option<Size> {
    let (w, h) = value.trim().split_once(['x', 'X'])?;
    Size::new(w.trim().parse().ok()?, h.trim().parse().ok()?)
}

/// Reads a `Promotions` value: piece letters separated by commas or spaces; empty means none.
pub fn parse_promotions(value: &str) -> Result<Vec<Role>, StartError> {
    let mut out = Vec::new();
    for token in value.split([',', ' ', '\t']).filter(|t| !t.is_empty()) {
        let role = match token {
            "RQ" => Some(Role::RoyalQueen),
            "PR" => Some(Role::Princess),
            "BR" => Some(Role::Brawn),
            "CK" => Some(Role::CommonKing),
            _ if token.chars().count() == 1 => token.chars().next().and_then(Role::from_letter),
            _ => None,
        };
        match role {
            Some(r) if !r.is_royal() && !r.is_pawnlike() => out.push(r),
            _ => {
                return Err(StartError::Headers(format!(
                    "'{token}' in [Promotions \"{value}\"] is not a piece a pawn can promote to"
                )))
            }
        }
    }
    Ok(out)
}

fn is_custom(name: &str) -> bool {
    name.trim().eq_ignore_ascii_case("custom")
}

/// The start position of a record.
pub fn position(headers: &[(String, String)], boards: &[FenBoard]) -> Result<Position, Error> {
    let board_name = header(headers, "Board").or_else(|| header(headers, "Variant"));
    let size = match header(headers, "Size") {
        Some(v) => Some(
            parse_size(v)
                .ok_or_else(|| StartError::Headers(format!("[Size \"{v}\"] is not a size like 8x8 (at most 8x8)")))?,
        ),
        None => None,
    };
    let promotions = match header(headers, "Promotions") {
        Some(v) => Some(parse_promotions(v)?),
        None => None,
    };
    let mut pos = if let Some(first) = boards.first() {
        if let Some(name) = board_name.filter(|n| !is_custom(n)) {
            if Variant::by_name(name).is_none() {
                return Err(StartError::Headers(format!(
                    "unknown variant '{name}' (5DFEN boards given: use \"custom\")"
                ))
                .into());
            }
        }
        let size = size.or_else(|| first.implied_size()).ok_or_else(|| {
            StartError::Headers("no [Size] header, and the first 5DFEN board does not give a size".into())
        })?;
        Position::from_setup(fen::setup(boards, size, vec![Role::Queen])?)?
    } else {
        let name = board_name.unwrap_or("Standard");
        if is_custom(name) {
            return Err(StartError::Headers(format!("[Board \"{name}\"] needs 5DFEN board lines")).into());
        }
        let variant = Variant::by_name(name).ok_or_else(|| StartError::Headers(format!("unknown variant '{name}'")))?;
        if let Some(size) = size {
            if size != variant.size() {
                return Err(StartError::Headers(format!(
                    "[Size \"{size}\"] does not match the board {} ({}), and no 5DFEN boards give the start position",
                    variant.name,
                    variant.size()
                ))
                .into());
            }
        }
        variant.position()
    };
    if let Some(p) = promotions {
        pos.set_promotions(&p);
    }
    // Branched 5DPGN's `Timeline` header states the parity the boards give.
    if let Some(v) = header(headers, "Timeline") {
        let even = match v.trim().to_ascii_lowercase().as_str() {
            "even" => true,
            "odd" => false,
            _ => return Err(StartError::Headers(format!("[Timeline \"{v}\"] is neither Odd nor Even")).into()),
        };
        if even != pos.even() {
            return Err(StartError::Headers(format!(
                "[Timeline \"{v}\"], but the start position has an {} number of starting timelines",
                if pos.even() { "even" } else { "odd" }
            ))
            .into());
        }
    }
    Ok(pos)
}

/// The official variant whose start position this is, if any (promotions aside).
pub fn variant_of(pos: &Position) -> Option<&'static Variant> {
    let boards = fen::write_boards(pos);
    VARIANTS.iter().find(|v| {
        v.size() == pos.size() && v.even == pos.even() && {
            let vp = v.position();
            fen::write_boards(&vp) == boards
        }
    })
}

/// The headers that describe a start position: `Board`, `Size`, `Promotions` (unless queen only),
/// followed by the 5DFEN lines for a custom start (returned apart).
pub fn headers_for(pos: &Position) -> (Vec<(String, String)>, Vec<String>) {
    let mut headers = Vec::new();
    let variant = variant_of(pos);
    headers.push((
        "Board".to_string(),
        variant.map_or_else(|| "custom".to_string(), |v| v.name.to_string()),
    ));
    headers.push(("Size".to_string(), pos.size().to_string()));
    if pos.promotions() != [Role::Queen] {
        let letters: Vec<String> = pos.promotions().iter().map(|r| r.letter().to_string()).collect();
        headers.push(("Promotions".to_string(), letters.join(",")));
    }
    let fens = if variant.is_some() {
        Vec::new()
    } else {
        fen::write_boards(pos)
    };
    (headers, fens)
}

/// Headers that [`headers_for`] regenerates, dropped from user headers when writing.
pub fn is_start_header(name: &str) -> bool {
    ["Board", "Variant", "Size", "Promotions"]
        .iter()
        .any(|h| h.eq_ignore_ascii_case(name))
}
