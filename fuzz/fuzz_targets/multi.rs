#![no_main]
//! Multi-game files: the reader cuts any bytes into numbered games in order, within its size
//! limit, and every game either loads or fails with an error (never a panic).
use chess5d_notation::Games;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limit = 512;
    let mut last_line = 0;
    for (i, game) in Games::with_limit(data, limit).enumerate() {
        match game {
            Ok(g) => {
                assert_eq!(g.number, i + 1);
                assert!(g.line > last_line, "games start on later lines");
                assert!(g.text.len() <= limit);
                assert!(!g.text.trim().is_empty());
                last_line = g.line;
                let _ = g.load();
            }
            Err(e) => {
                assert_eq!(e.number, i + 1);
                last_line = last_line.max(e.line);
            }
        }
    }
});
