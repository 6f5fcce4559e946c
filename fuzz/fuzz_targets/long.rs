#![no_main]
//! The long coordinate form: single moves and whole games.
use libfuzzer_sys::fuzz_target;
use std::str::FromStr;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = chess5d_notation::LongMove::from_str(text);
        let _ = chess5d_notation::SanMove::from_str(text);
        let _ = chess5d_notation::long::read_game(text, None);
    }
});
