//! Integration tests of the rules crate.

mod brute;
mod crosscheck;
mod epdebug;
mod oracle;
mod perft;
