//! The multiverse drawn as plain text (what `chess5d show` prints and the Python binding's
//! `repr` shows): one band per timeline, highest first as in the game, boards left to right by
//! time, pieces as 5DFEN letters.

use chess5d_rules::{BoardId, Color, Position, Square};

/// Boards laid out by timeline (highest first, like the game) and turn (left to right).
pub fn diagram(pos: &Position) -> String {
    let size = pos.size();
    let w = size.width as usize;
    let first_t = pos.timelines().filter_map(|l| pos.timeline_start(l)).min().unwrap_or(0);
    let last_t = pos.timelines().filter_map(|l| pos.timeline_end(l)).max().unwrap_or(0);
    let cell = w.max(7) + 2;
    let mut out = String::new();
    out.push_str(&format!(
        "{} to move, present T{}, {} timeline(s)\n\n",
        pos.to_move(),
        pos.present_turn(),
        pos.timeline_count()
    ));
    for l in pos.timelines().rev() {
        let mut lines = vec![String::new(); size.height as usize + 1];
        let label = pos.timeline_label(l);
        let tag = if pos.is_active(l) {
            format!("L{label}")
        } else {
            format!("L{label}~")
        };
        lines[0].push_str(&format!("{tag:>5} "));
        for row in lines.iter_mut().skip(1) {
            row.push_str("      ");
        }
        for t in first_t..=last_t {
            let id = BoardId::new(l, t);
            match pos.board(id) {
                None => {
                    for row in lines.iter_mut() {
                        row.push_str(&" ".repeat(cell));
                    }
                }
                Some(b) => {
                    let playable = pos.timeline_end(l) == Some(t);
                    let head = format!(
                        "T{}{}{}",
                        id.turn(),
                        if id.color() == Color::White { "w" } else { "b" },
                        if playable { "*" } else { "" }
                    );
                    lines[0].push_str(&format!("{head:<cell$}"));
                    for y in (0..size.height).rev() {
                        let row = &mut lines[(size.height - y) as usize];
                        let mut s = String::new();
                        for x in 0..size.width {
                            s.push(b.get(Square::new(x, y)).map(|p| p.fen_char()).unwrap_or('.'));
                        }
                        row.push_str(&format!("{s:<cell$}"));
                    }
                }
            }
        }
        for row in lines {
            out.push_str(row.trim_end());
            out.push('\n');
        }
        out.push('\n');
    }
    out.push_str("* playable board, ~ inactive timeline\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_start_is_one_band_of_one_board() {
        let text = diagram(&Position::standard());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "white to move, present T1, 1 timeline(s)");
        assert_eq!(lines[2], "   L0 T1w*");
        assert_eq!(lines[3], "      rnbqkbnr");
        assert_eq!(lines[10], "      RNBQKBNR");
        assert_eq!(lines.last(), Some(&"* playable board, ~ inactive timeline"));
    }
}
