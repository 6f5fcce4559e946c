//! Where time travel is impossible, 5D chess is chess: ordinary perft numbers.

use chess5d_rules::{Board, BoardId, Budget, Position, Role, Setup, Size};

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
    assert_eq!(pos.perft(1, Budget::UNLIMITED), Some(20));
    assert_eq!(pos.perft(2, Budget::UNLIMITED), Some(400));
}

#[test]
fn kiwipete() {
    // Unmoved flags as the FEN implies: castling rights KQkq, pawns on their starting ranks.
    let pos = single_board("r*3k*2r*/p*1p*p*qp*b1/bn2pnp1/3PN3/1p2P3/2N2Q1p/P*P*P*BBP*P*P*/R*3K*2R*");
    assert_eq!(pos.perft(1, Budget::UNLIMITED), Some(48));
    assert_eq!(pos.perft(2, Budget::UNLIMITED), Some(2039));
}
