#![no_main]
//! The client side of 5DUCI: an engine's `bestmove` text (moves in the draft's notation, read
//! alone and against a position) and the 5DFEN boards of a `position fen` line.
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn positions() -> &'static [chess5d_rules::Position] {
    static P: OnceLock<Vec<chess5d_rules::Position>> = OnceLock::new();
    P.get_or_init(|| {
        ["Standard", "Standard - Two Timelines", "Very Small"]
            .iter()
            .filter_map(|n| chess5d_rules::Variant::by_name(n))
            .map(|v| v.position())
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        for word in text.split_whitespace().take(16) {
            let _ = chess5d_protocol::parse_move_text(word, false);
            let _ = chess5d_protocol::parse_move_text(word, true);
            for pos in positions() {
                if let Ok(m) = chess5d_protocol::parse_move(word, pos) {
                    // A move that resolves writes a text that resolves to the same move.
                    let again = chess5d_protocol::format_move(&m);
                    assert_eq!(chess5d_protocol::parse_move(&again, pos).ok(), Some(m), "{word} -> {again}");
                }
            }
        }
        if let Ok(setup) = chess5d_protocol::parse_fen_boards(text, None, None) {
            let _ = chess5d_protocol::write_fen_boards(&setup);
        }
    }
});
