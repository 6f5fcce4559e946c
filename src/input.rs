//! Reading the games a command is given: a file or standard input (`-`), game by game, with
//! each game's number and line in its errors.

use anyhow::{bail, Context, Result};
use chess5d_notation::{Games, LoadedGame};
use std::io::{BufRead, Read};

/// Opens a file, or standard input for `-`, to be read game by game.
fn open_input(path: &str) -> Result<Box<dyn BufRead>> {
    if path == "-" {
        Ok(Box::new(std::io::stdin().lock()))
    } else {
        let file = std::fs::File::open(path).with_context(|| format!("reading {path}"))?;
        Ok(Box::new(std::io::BufReader::new(file)))
    }
}

/// Reads a whole file, or standard input for `-`.
pub fn read_input(path: &str) -> Result<String> {
    let mut text = String::new();
    open_input(path)?
        .read_to_string(&mut text)
        .with_context(|| format!("reading {path}"))?;
    Ok(text)
}

/// Reads the games of a file one at a time (only game `pick` if given, from 1) and hands each
/// to `each` with its number and whether the file holds several games. A game that cannot be
/// read is reported with its number and line and the others go on; the whole fails at the end
/// if any did (a single-game file fails with its own error, as before).
pub fn for_each_game(
    path: &str,
    pick: Option<usize>,
    mut each: impl FnMut(usize, bool, &LoadedGame) -> Result<()>,
) -> Result<()> {
    let name = if path == "-" { "<stdin>" } else { path };
    let mut games = Games::new(open_input(path)?);
    let (mut seen, mut failed, mut found) = (0, 0, false);
    let mut single_error = None;
    while let Some(item) = games.next() {
        seen += 1;
        let multi = seen > 1 || games.more();
        let number = item.as_ref().map_or_else(|e| e.number, |g| g.number);
        if pick.is_some_and(|p| p != number) {
            continue;
        }
        found = true;
        let loaded = item.map_err(|e| anyhow::anyhow!("{name}: {e}")).and_then(|text| {
            text.load().map_err(|e| {
                if multi {
                    anyhow::anyhow!("{name}: game {} (line {}): {e}", text.number, text.line)
                } else {
                    anyhow::anyhow!("{name}: {e}")
                }
            })
        });
        match loaded {
            Ok(game) => {
                for w in &game.warnings {
                    eprintln!("chess5d: {name}: warning: {w}");
                }
                each(number, multi, &game)?;
            }
            Err(e) if multi => {
                eprintln!("chess5d: {e:#}");
                failed += 1;
            }
            Err(e) => {
                failed += 1;
                single_error = Some(e);
            }
        }
    }
    if seen == 0 {
        // An empty input (or white space alone) holds no game: say so rather than analyse a
        // standard start nobody asked for. (`[Board "Standard"]` alone is that start.)
        bail!("{name}: no game: the input is empty (a start position needs at least its headers, e.g. [Board \"Standard\"])");
    }
    if let Some(p) = pick.filter(|_| !found) {
        bail!(
            "{name} holds {seen} game{}; there is no game {p}",
            if seen == 1 { "" } else { "s" }
        );
    }
    match single_error {
        Some(e) if seen == 1 => Err(e),
        _ if failed > 0 => bail!("{name}: {failed} of {seen} games could not be read"),
        _ => Ok(()),
    }
}

/// Reads and loads a game from a file or standard input.
/// Commands that work on one game (`show`, `perft`) refuse a file of several.
pub fn load_game(path: &str) -> Result<LoadedGame> {
    load_one_game(path, None, "`chess5d convert --game N`")
}

/// Reads game `pick` of a file (from 1), or its only game; `how` says how to pick one when the
/// file holds several and none was picked.
pub fn load_one_game(path: &str, pick: Option<usize>, how: &str) -> Result<LoadedGame> {
    let mut game = None;
    for_each_game(path, pick, |_, multi, g| {
        if multi && pick.is_none() {
            let name = if path == "-" { "<stdin>" } else { path };
            bail!("{name} holds several games; this command reads one (pick it with {how})");
        }
        game = Some(g.clone());
        Ok(())
    })?;
    game.context("no game read")
}
