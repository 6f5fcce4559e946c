#![no_main]
//! Variations (Branched 5DPGN and PGN RAV): whatever loads writes back as Branched 5DPGN that
//! reads to the same tree, and writes the same text again.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(g) = chess5d_notation::pgn::read(text) {
            let written = chess5d_notation::write_5dpgn(&g);
            let again = chess5d_notation::load(&written).expect("written 5DPGN reads back");
            assert!(g.tree.same_as(&again.tree), "the tree changed:\n{written}");
            assert_eq!(chess5d_notation::write_5dpgn(&again), written);
            let main = g.tree.main_line();
            assert_eq!(main.len(), g.game.actions().len());
            assert_eq!(g.tree.walk().count(), g.tree.len());
        }
    }
});
