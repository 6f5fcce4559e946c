//! `big_multiverse [TIMELINES] [SEED]`: prints a 5DPGN game of random legal actions on the
//! standard board that keeps branching until it has at least TIMELINES timelines (default 60).
//! Used to make the big position of the GUI's rendering measurement
//! (`tests/browser/data/big-multiverse.5dpgn`).
//!
//! Each action tries a few random candidates (every playable board moves, time-travel moves
//! preferred) and keeps the first that can be submitted; if none can, it takes the first legal
//! action the rules' search finds.

use chess5d_rules::{Budget, Game, Move, MoveKind, Variant};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let want: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(60);
    let mut rng = Rng(args.get(1).and_then(|a| a.parse().ok()).unwrap_or(7) | 1);
    let mut game = Game::new(Variant::by_name("Standard").expect("standard variant").position());
    while game.position().timeline_count() < want && game.actions().len() < 400 {
        let action =
            random_action(&game, &mut rng).or_else(|| game.position().legal_actions(Budget::tests(200_000)).next());
        let Some(action) = action else { break };
        if game.play_action(&action).is_err() {
            break;
        }
    }
    let headers = vec![
        ("Event".to_string(), "big multiverse (random legal actions)".to_string()),
        ("Board".to_string(), "Standard".to_string()),
    ];
    print!("{}", chess5d_notation::pgn::write(&game, &headers, Some("*")));
    eprintln!(
        "{} actions, {} timelines, {} boards",
        game.actions().len(),
        game.position().timeline_count(),
        game.position().boards().count()
    );
}

/// A random submittable action, or `None` after a few failed tries.
fn random_action(game: &Game, rng: &mut Rng) -> Option<Vec<Move>> {
    for _ in 0..200 {
        let mut pos = game.position().clone();
        let mut moves = Vec::new();
        let mut boards = pos.playable_boards();
        // Play every playable board (the mandatory ones must be played anyway).
        while !boards.is_empty() {
            let id = boards.remove(rng.below(boards.len()));
            if !pos.is_playable(id) {
                continue;
            }
            let mut cand = Vec::new();
            pos.moves_from(id, &mut cand);
            if cand.is_empty() {
                continue;
            }
            let travel: Vec<&Move> = cand
                .iter()
                .filter(|m| matches!(m.kind, MoveKind::Branch | MoveKind::Hop))
                .collect();
            let m = if !travel.is_empty() && rng.below(3) > 0 {
                *travel[rng.below(travel.len())]
            } else {
                cand[rng.below(cand.len())]
            };
            if pos.play(&m).is_ok() {
                moves.push(m);
            }
        }
        if !moves.is_empty() && pos.can_submit().is_ok() {
            return Some(moves);
        }
    }
    None
}
