//! `chess5d match`: engine-vs-engine matches (the runner is `chess5d-match`).

use anyhow::Result;
use clap::Args;

/// `chess5d match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The match's arguments (see `chess5d match --help`).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub args: Vec<String>,
}

pub fn run(a: &MatchArgs) -> Result<()> {
    chess5d_match::match_main(&a.args).map_err(anyhow::Error::msg)
}
