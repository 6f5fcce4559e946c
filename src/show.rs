//! `chess5d show`: the multiverse drawn in the terminal, one row of boards per timeline.

use anyhow::Result;

pub fn run(file: &str) -> Result<()> {
    let loaded = crate::load_game(file)?;
    crate::out::write(chess5d_notation::diagram(loaded.game.position()).as_bytes())
}
