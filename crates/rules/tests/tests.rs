//! Integration tests of the rules crate.

mod brute;
mod castling;
mod conventions;
mod crosscheck;
mod debug;
mod oracle;
mod perft;
mod present_only;
mod royalless;
mod scoped;
mod scripted;
mod variants;
