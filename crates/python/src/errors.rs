//! The Python exceptions, and the conversions from the libraries' errors. Messages are the
//! libraries' `Display` texts, so Python users read what the command line prints.

use chess5d_notation::{Reason, ResolveError, Span};
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

/// An exception class of bad input, both a `Chess5dError` and a `ValueError` (as python-chess's
/// are): made once, on first use, by calling `type` (an extension can give a class only one
/// base otherwise).
macro_rules! value_exception {
    ($name:ident, $doc:expr) => {
        #[doc = $doc]
        pub struct $name;

        impl $name {
            /// The class.
            pub fn type_object(py: Python<'_>) -> PyResult<Bound<'_, PyType>> {
                static CLASS: PyOnceLock<Py<PyType>> = PyOnceLock::new();
                CLASS
                    .get_or_try_init(py, || value_error_class(py, stringify!($name), $doc))
                    .map(|class| class.bind(py).clone())
            }

            /// An error of this class saying `msg`.
            pub fn new_err(msg: impl Into<String>) -> PyErr {
                let msg = msg.into();
                Python::attach(|py| match Self::type_object(py) {
                    Ok(class) => PyErr::from_type(class, msg),
                    Err(e) => e,
                })
            }
        }
    };
}

/// `class <name>(Chess5dError, ValueError)` in the `chess5d` module.
fn value_error_class(py: Python<'_>, name: &str, doc: &str) -> PyResult<Py<PyType>> {
    let bases = PyTuple::new(py, [py.get_type::<Chess5dError>(), py.get_type::<PyValueError>()])?;
    let namespace = PyDict::new(py);
    namespace.set_item("__doc__", doc)?;
    namespace.set_item("__module__", "chess5d")?;
    let class = py.get_type::<PyType>().call1((name, bases, namespace))?;
    Ok(class.cast_into::<PyType>()?.unbind())
}

pyo3::create_exception!(
    chess5d,
    Chess5dError,
    PyException,
    "Base class of every error raised by chess5d."
);
value_exception!(
    ParseError,
    "Text that is not well formed; `line` and `column` (from 1) say where, `expected` and `found` what."
);
value_exception!(
    IllegalMoveError,
    "A move or action the rules refuse (or that matches no move, or several); `action` is its number, `line` and `column` where a record has it."
);
value_exception!(
    SetupError,
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
    parse_error_in(py, e, "")
}

/// A syntax error, its message after `prefix`.
fn parse_error_in(py: Python<'_>, e: &chess5d_notation::ParseError, prefix: &str) -> PyErr {
    let err = ParseError::new_err(format!("{prefix}{e}"));
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
    resolve_error_in(py, e, "")
}

/// A move or action that does not fit the game, its message after `prefix`.
fn resolve_error_in(py: Python<'_>, e: &ResolveError, prefix: &str) -> PyErr {
    let err = IllegalMoveError::new_err(format!("{prefix}{e}"));
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
    notation_error_in(py, e, "")
}

/// Any error of the notation crate, its message after `prefix`.
fn notation_error_in(py: Python<'_>, e: &chess5d_notation::Error, prefix: &str) -> PyErr {
    match e {
        chess5d_notation::Error::Parse(p) => parse_error_in(py, p, prefix),
        chess5d_notation::Error::Resolve(r) => resolve_error_in(py, r, prefix),
        chess5d_notation::Error::Setup(s) => SetupError::new_err(format!("{prefix}{s}")),
    }
}

/// The error of game `number` of a file of several, starting on line `line`: its message
/// starts `game N (line L): ` as `chess5d convert` says it, and it has a `game` attribute.
pub fn game_error(py: Python<'_>, e: &chess5d_notation::Error, number: usize, line: usize) -> PyErr {
    let err = notation_error_in(py, e, &format!("game {number} (line {line}): "));
    with_game(py, err, number)
}

/// A game of a file of several that could not be cut out of it (not UTF-8, too long): a
/// `ParseError` at its first line.
pub fn unreadable_game(py: Python<'_>, e: &chess5d_notation::multi::GameError) -> PyErr {
    let err = ParseError::new_err(e.to_string());
    let set = {
        let v = err.value(py);
        v.setattr("line", e.line)
            .and_then(|_| v.setattr("column", 1))
            .and_then(|_| v.setattr("expected", "a game in UTF-8, of a size that fits in memory"))
            .and_then(|_| v.setattr("found", ""))
    };
    with_game(py, set.err().unwrap_or(err), e.number)
}

/// `err` with `note` after its message (its attributes kept).
pub fn with_note(py: Python<'_>, err: PyErr, note: &str) -> PyErr {
    let v = err.value(py);
    let set = v.str().and_then(|msg| v.setattr("args", (format!("{msg}{note}"),)));
    match set {
        Ok(()) => err,
        Err(e) => e,
    }
}

fn with_game(py: Python<'_>, err: PyErr, number: usize) -> PyErr {
    match err.value(py).setattr("game", number) {
        Ok(()) => err,
        Err(e) => e,
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
