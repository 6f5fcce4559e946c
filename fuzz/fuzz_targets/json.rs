#![no_main]
//! The 5d-chess-js JSON action list and this crate's JSON game object.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(g) = chess5d_notation::json::read(text) {
            let written = chess5d_notation::write_json(&g);
            chess5d_notation::json::read(&written).expect("written JSON reads back");
        }
    }
});
