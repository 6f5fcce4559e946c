//! Parsers of flag values shared by the subcommands' argument types (kept apart from `cli.rs`,
//! which imports those types, so that no module imports the one that imports it).

/// Parses `--game N`, a game number from 1.
pub fn game_number(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("a game number from 1, not '{s}'")),
    }
}

/// Parses `NAME=VALUE`.
pub fn name_value(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((n, v)) if !n.trim().is_empty() => Ok((n.trim().to_string(), v.to_string())),
        _ => Err(format!("expected NAME=VALUE, got '{s}'")),
    }
}
