#![no_main]
//! Variations: the bytes grow a game tree of legal actions (a variant, then for each node how
//! many actions to try and which); written as Branched 5DPGN it reads back to the same tree.
//! (Variation text as such is fuzzed by the `pgn` target.)
use chess5d_notation::{load, pgn, GameTree};
use chess5d_rules::{Budget, VARIANTS};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.iter().copied();
    let Some(v) = bytes.next() else { return };
    let variant = &VARIANTS[v as usize % VARIANTS.len()];
    let mut tree = GameTree::new(variant.position());
    // Depth first, at most 8 actions deep and 40 nodes.
    let mut stack = vec![GameTree::ROOT];
    while let Some(node) = stack.pop() {
        if tree.depth(node) >= 8 || tree.len() >= 40 {
            continue;
        }
        let Some(b) = bytes.next() else { break };
        let pos = tree.game_at(node).position().clone();
        let actions: Vec<_> = pos.legal_actions(Budget::DEFAULT).take(12).collect();
        for i in 0..(b % 4) as usize {
            let Some(pick) = bytes.next() else { break };
            if actions.is_empty() {
                break;
            }
            let moves = &actions[(pick as usize + i) % actions.len()];
            let child = tree.play(node, moves, false).expect("a legal action plays");
            stack.push(child);
        }
    }
    let written = pgn::write_tree(&tree, &[], None);
    let again = load(&written).unwrap_or_else(|e| panic!("written tree does not read back: {e}\n{written}"));
    assert!(tree.same_as(again.tree()), "the tree changed:\n{written}");
    assert_eq!(pgn::write_tree(again.tree(), &[], None), written);
});
