//! Where time travel is impossible, 5D chess is chess: ordinary perft numbers. No two jumps
//! exist in these positions, so both counting conventions give them; and the standard start,
//! where they part at depth 4.

use chess5d_rules::{Board, BoardId, Budget, Convention, Position, Role, Setup, Size};

const BOTH: [Convention; 2] = [Convention::Orderings, Convention::DistinctPositions];

fn single_board(fen: &str) -> Position {
    let board = Board::from_fen(fen, Size::STANDARD).expect("valid placement");
    Position::from_setup(Setup {
        size: Size::STANDARD,
        even: false,
        boards: vec![(BoardId::new(0, 2), board)],
        promotions: vec![Role::Queen, Role::Rook, Role::Bishop, Role::Knight],
    })
    .expect("valid setup")
}

#[test]
fn standard_start() {
    let pos = Position::standard();
    for c in BOTH {
        assert_eq!(pos.perft_by(1, Budget::UNLIMITED, c), Some(20), "{c}");
        assert_eq!(pos.perft_by(2, Budget::UNLIMITED, c), Some(400), "{c}");
    }
}

/// The fourth action is the first that can hold two jumps (Black, after White's branch, has a
/// board on each timeline): from there on the conventions differ, for instance where two black
/// pieces jump onto the same square of one past board, making the same two new timelines in
/// either order.
#[test]
fn standard_start_depth_three_and_four() {
    let pos = Position::standard();
    for c in BOTH {
        assert_eq!(pos.perft_by(3, Budget::UNLIMITED, c), Some(9822), "{c}");
    }
    assert_eq!(pos.perft(4, Budget::UNLIMITED), Some(753_223));
    assert_eq!(
        pos.perft_by(4, Budget::UNLIMITED, Convention::DistinctPositions),
        Some(751_567)
    );
}

#[test]
fn kiwipete() {
    // Unmoved flags as the FEN implies: castling rights KQkq, pawns on their starting ranks.
    let pos = single_board("r*3k*2r*/p*1p*p*qp*b1/bn2pnp1/3PN3/1p2P3/2N2Q1p/P*P*P*BBP*P*P*/R*3K*2R*");
    for c in BOTH {
        assert_eq!(pos.perft_by(1, Budget::UNLIMITED, c), Some(48), "{c}");
        assert_eq!(pos.perft_by(2, Budget::UNLIMITED, c), Some(2039), "{c}");
    }
}
