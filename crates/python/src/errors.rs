//! The Python exceptions, and the conversions from the libraries' errors. Messages are the
//! libraries' `Display` texts, so Python users read what the command line prints.

use chess5d_notation::{Reason, ResolveError, Span};
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

pyo3::create_exception!(
    chess5d,
    Chess5dError,
    PyException,
    "Base class of every error raised by chess5d."
);
pyo3::create_exception!(
    chess5d,
    ParseError,
    Chess5dError,
    "Text that is not well formed; `line` and `column` (from 1) say where, `expected` and `found` what."
);
pyo3::create_exception!(
    chess5d,
    IllegalMoveError,
    Chess5dError,
    "A move or action the rules refuse (or that matches no move, or several); `action` is its number, `line` and `column` where a record has it."
);
pyo3::create_exception!(
    chess5d,
    SetupError,
    Chess5dError,
    "A start position that is not valid: bad boards, unknown variant, contradicting headers."
);
pyo3::create_exception!(
    chess5d,
    BudgetExhaustedError,
    Chess5dError,
    "A search ran out of budget before it could prove its answer (raise the budget to go on)."
);
pyo3::create_exception!(
    chess5d,
    EngineError,
    Chess5dError,
    "An engine process that crashed, timed out, or broke the 5DUCI protocol."
);

/// A syntax error, with its place.
pub fn parse_error(py: Python<'_>, e: &chess5d_notation::ParseError) -> PyErr {
    let err = ParseError::new_err(e.to_string());
    let set = {
        let v = err.value(py);
        v.setattr("line", e.span.line)
            .and_then(|_| v.setattr("column", e.span.column))
            .and_then(|_| v.setattr("expected", &e.expected))
            .and_then(|_| v.setattr("found", &e.found))
    };
    // Setting an attribute on an exception instance fails only when memory runs out.
    set.err().unwrap_or(err)
}

/// A move or action that does not fit the game, with its action number and text.
pub fn resolve_error(py: Python<'_>, e: &ResolveError) -> PyErr {
    let err = IllegalMoveError::new_err(e.to_string());
    let set = {
        let v = err.value(py);
        v.setattr("action", e.action)
            .and_then(|_| v.setattr("text", &e.text))
            .and_then(|_| v.setattr("line", e.span.line))
            .and_then(|_| v.setattr("column", e.span.column))
    };
    set.err().unwrap_or(err)
}

/// Any error of the notation crate.
pub fn notation_error(py: Python<'_>, e: &chess5d_notation::Error) -> PyErr {
    match e {
        chess5d_notation::Error::Parse(p) => parse_error(py, p),
        chess5d_notation::Error::Resolve(r) => resolve_error(py, r),
        chess5d_notation::Error::Setup(s) => SetupError::new_err(s.to_string()),
    }
}

/// A refused move of action number `action` written `text`, in the words loading a record uses.
pub fn refused(py: Python<'_>, action: usize, text: &str, reason: Reason) -> PyErr {
    resolve_error(
        py,
        &ResolveError {
            action,
            text: text.to_string(),
            span: Span::new(1, 1),
            reason,
        },
    )
}
