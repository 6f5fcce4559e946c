//! Integration tests of the library core.
