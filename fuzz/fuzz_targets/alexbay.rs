#![no_main]
//! The alexbay / old 5d-chess-js action notation.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = chess5d_notation::alexbay::read(text);
    }
});
