//! The multiverse drawn as text, as `chess5d show` draws it: one band per timeline (highest
//! first), boards left to right by half-turn, `*` on playable boards, `~` on inactive timelines.
//!
//! `chess5d show` keeps its drawing in the binary, which a library cannot call; this is the
//! binding's own rendering of the same layout.

use chess5d_rules::{BoardId, Color, Position, Square};

/// The text of one board: its heading, then its ranks from the top.
fn board_block(pos: &Position, id: BoardId) -> Option<Vec<String>> {
    let board = pos.board(id)?;
    let size = pos.size();
    let side = if id.color() == Color::White { 'w' } else { 'b' };
    let star = if pos.timeline_end(id.l) == Some(id.t) { "*" } else { "" };
    let mut block = vec![format!("T{}{side}{star}", id.turn())];
    for y in (0..size.height).rev() {
        let rank: String = (0..size.width)
            .map(|x| board.get(Square::new(x, y)).map_or('.', |p| p.fen_char()))
            .collect();
        block.push(rank);
    }
    Some(block)
}

/// The whole drawing.
pub fn multiverse(pos: &Position) -> String {
    let starts = pos.timelines().filter_map(|l| pos.timeline_start(l));
    let ends = pos.timelines().filter_map(|l| pos.timeline_end(l));
    let (first, last) = (starts.min().unwrap_or(0), ends.max().unwrap_or(0));
    let width = usize::from(pos.size().width).max(7) + 2;
    let rows = usize::from(pos.size().height) + 1;
    let mut out = format!(
        "{} to move, present T{}, {} timeline(s)\n\n",
        pos.to_move(),
        pos.present_turn(),
        pos.timeline_count()
    );
    for l in pos.timelines().rev() {
        let inactive = if pos.is_active(l) { "" } else { "~" };
        let mut band: Vec<String> = (0..rows).map(|_| " ".repeat(6)).collect();
        band[0] = format!("{:>5} ", format!("L{}{inactive}", pos.timeline_label(l)));
        for t in first..=last {
            let block = board_block(pos, BoardId::new(l, t));
            for (r, line) in band.iter_mut().enumerate() {
                let cell = block.as_ref().map_or("", |b| b[r].as_str());
                line.push_str(&format!("{cell:<width$}"));
            }
        }
        for line in band {
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.push('\n');
    }
    out.push_str("* playable board, ~ inactive timeline\n");
    out
}
