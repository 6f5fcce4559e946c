//! Notations of 5D chess (work in progress).
#![deny(missing_docs)]
