//! Standard output for a tool that lives in pipes: `chess5d variants | head -1` must stop
//! quietly when `head` closes the pipe, not panic or print an error.

use std::io::{self, Write};

/// Writes bytes to standard output; a closed pipe comes back as an error that
/// [`is_closed_pipe`] recognises.
pub fn write(bytes: &[u8]) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}

/// Writes one line to standard output (see [`write()`]); used through [`outln!`](crate::out::outln).
pub fn line(args: std::fmt::Arguments<'_>) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    out.write_fmt(args)?;
    out.write_all(b"\n")?;
    Ok(())
}

/// `println!` that returns an error instead of panicking when the reader has gone.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::out::line(format_args!($($arg)*))?
    };
}
pub(crate) use outln;

/// Whether an error chain ends in a closed pipe on our output.
pub fn is_closed_pipe(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<io::Error>())
        .any(|io| io.kind() == io::ErrorKind::BrokenPipe)
}

/// Output printed with `println!` (in libraries, or deep in a long report) panics on a closed
/// pipe; that one panic ends the program quietly (status 0), like a tool killed by SIGPIPE,
/// while every other panic still reports as usual.
pub fn quiet_on_closed_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if text.starts_with("failed printing to stdout") && text.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}
