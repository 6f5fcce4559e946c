#![no_main]
//! 5DFEN boards and positions, and the seed GUI's FEN proposal.
use libfuzzer_sys::fuzz_target;
use std::str::FromStr;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = chess5d_notation::FenBoard::from_str(text);
        if let Ok(pos) = chess5d_notation::fen::read_position(text, None) {
            let _ = chess5d_notation::full_state_hash(&pos);
            let written = chess5d_notation::write_5dfen(&pos);
            chess5d_notation::load(&written).expect("written 5DFEN reads back");
        }
        let _ = chess5d_notation::coordinate::read_gui_fen(text);
    }
});
