//! `chess5d.read_games`: the games of a file of several (the match runner writes them), one at
//! a time, through the notation crate's [`Games`] reader.

use crate::errors;
use crate::game::Game;
use chess5d_notation::Games;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};
use std::fs::File;
use std::io::{self, BufReader, Cursor, Read};
use std::sync::{Arc, Mutex, PoisonError};

/// How much a Python stream's `read()` is asked for at a time.
const CHUNK: usize = 1 << 16;

/// A Python error met while reading a stream, kept to be raised as it is.
type Failure = Arc<Mutex<Option<PyErr>>>;

/// Where the games are read from.
#[derive(Debug)]
enum Input {
    /// A text (or bytes) held in memory.
    Text(Cursor<Vec<u8>>),
    /// A file opened by path.
    File(File),
    /// A Python file object (text or binary): its `read(n)`.
    Stream(Stream),
}

#[derive(Debug)]
struct Stream {
    file: Py<PyAny>,
    /// Bytes read and not handed out yet (a text stream's characters, in UTF-8).
    held: Vec<u8>,
    at: usize,
    failure: Failure,
}

impl Stream {
    /// The next chunk of the stream, in UTF-8 for a text stream (empty at its end).
    fn chunk(&self, py: Python<'_>) -> PyResult<Vec<u8>> {
        let data = self.file.bind(py).call_method1("read", (CHUNK,))?;
        if let Ok(text) = data.cast::<PyString>() {
            Ok(text.to_cow()?.into_owned().into_bytes())
        } else {
            data.extract()
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.held.len() {
            match Python::attach(|py| self.chunk(py)) {
                Ok(chunk) => (self.held, self.at) = (chunk, 0),
                Err(e) => {
                    let message = e.to_string();
                    *self.failure.lock().unwrap_or_else(PoisonError::into_inner) = Some(e);
                    return Err(io::Error::other(message));
                }
            }
        }
        let n = buf.len().min(self.held.len() - self.at);
        buf[..n].copy_from_slice(&self.held[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Input::Text(c) => c.read(buf),
            Input::File(f) => f.read(buf),
            Input::Stream(s) => s.read(buf),
        }
    }
}

/// The games of a file of several, one at a time (see ``chess5d.read_games``).
#[pyclass(module = "chess5d")]
#[derive(Debug)]
pub struct GameReader {
    games: Games<BufReader<Input>>,
    failure: Failure,
}

#[pymethods]
impl GameReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Game>> {
        match self.games.next() {
            None => Ok(None),
            Some(Ok(text)) => text
                .load()
                .map(|loaded| Some(Game::of(loaded)))
                .map_err(|e| errors::game_error(py, &e, text.number, text.line)),
            Some(Err(e)) => {
                let failure = self.failure.lock().unwrap_or_else(PoisonError::into_inner).take();
                Err(failure.unwrap_or_else(|| errors::unreadable_game(py, &e)))
            }
        }
    }
}

/// The games of a file of several (the match runner's output, a database export), one at a
/// time, as ``Game`` objects: from a text (``str``, or ``bytes`` in UTF-8), a path
/// (``pathlib.Path``, any ``os.PathLike``) or a file object opened in text or binary mode,
/// read as the games are asked for. A game starts at its header block. A game that cannot be
/// read raises its error (``ParseError``, ``IllegalMoveError``, ``SetupError``) with a ``game``
/// attribute (its number, from 1) and a message that starts ``game N (line L):``; calling
/// ``next()`` again goes on with the next game.
#[pyfunction]
pub fn read_games(source: &Bound<'_, PyAny>) -> PyResult<GameReader> {
    let failure = Failure::default();
    let input = if let Ok(text) = source.cast::<PyString>() {
        Input::Text(Cursor::new(text.to_cow()?.into_owned().into_bytes()))
    } else if source.is_instance_of::<PyBytes>() || source.is_instance_of::<PyByteArray>() {
        Input::Text(Cursor::new(source.extract::<Vec<u8>>()?))
    } else if source.hasattr("__fspath__")? {
        let path: std::path::PathBuf = source.extract()?;
        let file = File::open(&path).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        Input::File(file)
    } else if source.hasattr("read")? {
        Input::Stream(Stream {
            file: source.clone().unbind(),
            held: Vec::new(),
            at: 0,
            failure: failure.clone(),
        })
    } else {
        let kind = source.get_type().name()?;
        return Err(PyTypeError::new_err(format!(
            "read_games reads a str, bytes, a path or a file object, not {kind}"
        )));
    };
    Ok(GameReader {
        games: Games::new(BufReader::new(input)),
        failure,
    })
}
