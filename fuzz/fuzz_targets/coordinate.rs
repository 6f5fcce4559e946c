#![no_main]
//! The seed GUI's coordinate notation.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = chess5d_notation::coordinate::read(text, None);
    }
});
