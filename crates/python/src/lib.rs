//! The `chess5d` Python package: a thin layer over the chess5d libraries.
//!
//! `game::Game` wraps a [`chess5d_notation::LoadedGame`] (start position, headers, actions)
//! with the verbs of the 5d-chess-js library under Python names; `engine::Engine` runs the
//! engine in-process with the GIL released; `engine::UciEngine` drives any 5DUCI program
//! through [`chess5d_protocol::EngineProcess`]. Errors become Python exceptions carrying the
//! libraries' own messages (see `errors`).
#![deny(missing_docs)]

mod engine;
mod errors;
mod game;
mod parse;
mod reader;

use pyo3::prelude::*;

/// The extension module `chess5d._native`, re-exported by the `chess5d` package.
#[pymodule(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<game::Game>()?;
    m.add_class::<game::ActionIter>()?;
    m.add_class::<game::LegalMoves>()?;
    m.add_class::<reader::GameReader>()?;
    m.add_function(wrap_pyfunction!(reader::read_games, m)?)?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<engine::UciEngine>()?;
    m.add_class::<engine::SearchResult>()?;
    m.add("Chess5dError", py.get_type::<errors::Chess5dError>())?;
    m.add("ParseError", errors::ParseError::type_object(py)?)?;
    m.add("IllegalMoveError", errors::IllegalMoveError::type_object(py)?)?;
    m.add("SetupError", errors::SetupError::type_object(py)?)?;
    m.add("BudgetExhaustedError", py.get_type::<errors::BudgetExhaustedError>())?;
    m.add("EngineError", py.get_type::<errors::EngineError>())?;
    let variants: Vec<&str> = chess5d_rules::VARIANTS.iter().map(|v| v.name).collect();
    m.add("VARIANTS", variants)?;
    m.add("DEFAULT_BUDGET", chess5d_rules::Budget::DEFAULT.tests)?;
    // python-chess's colours, the values of `Game.turn`.
    m.add("WHITE", true)?;
    m.add("BLACK", false)?;
    Ok(())
}
