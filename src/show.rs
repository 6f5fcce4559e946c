//! `chess5d show`: the multiverse drawn in the terminal, one row of boards per timeline.

use anyhow::Result;

pub fn run(file: &str, game: Option<usize>) -> Result<()> {
    let loaded = crate::input::load_one_game(file, game, "`chess5d show --game N`")?;
    crate::out::write(chess5d_notation::diagram(loaded.game().position()).as_bytes())
}
