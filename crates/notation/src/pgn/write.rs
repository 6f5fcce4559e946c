//! Canonical 5DPGN output.
//!
//! Headers first (`Board`, `Size`, `Promotions` unless queen only, then the caller's headers in
//! order), 5DFEN lines for a custom start, then one line per full turn `N. <white> / <black>`.
//! Board prefixes are written once the game has more than one timeline (and on every jump);
//! `>`/`>>`, and `~` on jumps that move the present back; `+` after an action that leaves the opponent in check, `#` after a
//! final action that mates.

use crate::san;
use crate::start;
use chess5d_rules::{Budget, Color, Game, Outcome};

fn quote(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes a game with the given extra headers (start headers are regenerated from the game).
pub fn write(game: &Game, headers: &[(String, String)], result: Option<&str>) -> String {
    let start_pos = game.start();
    let (mut all, fens) = start::headers_for(start_pos);
    all.extend(headers.iter().filter(|(k, _)| !start::is_start_header(k)).cloned());
    let mut out = String::new();
    for (k, v) in &all {
        out.push_str(&format!("[{k} \"{}\"]\n", quote(v)));
    }
    for f in &fens {
        out.push_str(f);
        out.push('\n');
    }
    out.push('\n');

    let mut pos = start_pos.clone();
    let mut turn = start_pos.present_turn().max(0);
    let actions = game.actions();
    let mut line = String::new();
    for (i, action) in actions.iter().enumerate() {
        let mut texts = Vec::new();
        for mv in &action.moves {
            let present = pos.present();
            let mut text = san::write(&pos, mv, pos.timeline_count() > 1);
            pos.play_unchecked(mv);
            if mv.is_jump() && pos.present() < present {
                text.push('~');
            }
            texts.push(text);
        }
        let color = pos.to_move();
        pos.submit_unchecked();
        if let Some(last) = texts.last_mut() {
            let mate = i + 1 == actions.len() && pos.outcome(Budget::DEFAULT) == Outcome::Checkmate;
            let mark = if mate {
                Some('#')
            } else if pos.in_check() {
                Some('+')
            } else {
                None
            };
            if let Some(mark) = mark {
                // Before the `~`, as in `Qxc3+~`.
                match last.strip_suffix('~') {
                    Some(stem) => *last = format!("{stem}{mark}~"),
                    None => last.push(mark),
                }
            }
        }
        let moves = texts.join(" ");
        match color {
            Color::White => {
                line = format!("{turn}. {moves}");
            }
            Color::Black => {
                if line.is_empty() {
                    out.push_str(&format!("{turn}b. {moves}\n"));
                } else {
                    out.push_str(&format!("{line} / {moves}\n"));
                    line.clear();
                }
                turn += 1;
            }
        }
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    if let Some(r) = result {
        out.push_str(r);
        out.push('\n');
    }
    out
}
