//! `chess5d serve`: the web GUI (the server is `chess5d-server`).

use anyhow::Result;
use clap::Args;

/// `chess5d serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The server's arguments.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub args: Vec<String>,
}

pub fn run(a: &ServeArgs) -> Result<()> {
    chess5d_server::serve_main(&a.args).map_err(anyhow::Error::msg)
}
