//! Integration tests of the rules crate.

mod brute;
mod epdebug;
mod oracle;
mod perft;
