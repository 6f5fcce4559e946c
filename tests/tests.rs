//! Integration tests of the `chess5d` binary and of the libraries working together.

mod cli;
mod corpus;
mod crash;
mod many_timelines;
mod oracle;
mod readme;
mod reference;
mod review;
mod solve;
