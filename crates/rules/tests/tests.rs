//! Integration tests of the rules crate.

mod perft;
