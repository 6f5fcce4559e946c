#![no_main]
//! 5DPGN: parse, play, write and read back whatever loads; plus the `load` entry point.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(g) = chess5d_notation::pgn::read(text) {
            let written = chess5d_notation::write_5dpgn(&g);
            let again = chess5d_notation::load(&written).expect("written 5DPGN reads back");
            assert_eq!(again.game.position().hash(), g.game.position().hash());
        }
        let _ = chess5d_notation::load(text);
    }
});
