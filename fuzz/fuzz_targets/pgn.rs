#![no_main]
//! 5DPGN, variations included: parse, play, write and read back whatever loads (the same tree,
//! and the same text when written again); plus the `load` entry point.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(g) = chess5d_notation::pgn::read(text) {
            let written = chess5d_notation::write_5dpgn(&g);
            let again = chess5d_notation::load(&written).expect("written 5DPGN reads back");
            assert_eq!(again.game().position().hash(), g.game().position().hash());
            assert!(g.tree().same_as(again.tree()), "the tree changed:\n{written}");
            assert_eq!(chess5d_notation::write_5dpgn(&again), written);
        }
        let _ = chess5d_notation::load(text);
    }
});
