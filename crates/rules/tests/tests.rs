//! Integration tests of the rules crate.

mod brute;
mod crosscheck;
mod debug;
mod oracle;
mod perft;
mod scripted;
mod variants;
