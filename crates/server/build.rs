//! Turns `data/puzzles/list.tsv` (the built-in puzzles: id and name, easiest first) into the
//! `PUZZLES` table of `src/puzzles.rs`, each record embedded. The list has one home, a data file
//! that the static site's build (`js/build-site.mjs`) reads as well.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/puzzles");
    let list = dir.join("list.tsv");
    println!("cargo:rerun-if-changed={}", list.display());
    let text = std::fs::read_to_string(&list).expect("data/puzzles/list.tsv");
    let mut out = String::from("&[\n");
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (id, name) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("data/puzzles/list.tsv:{}: want `id<TAB>name`", n + 1));
        let file = dir.join(format!("{id}.5dpgn"));
        assert!(file.is_file(), "data/puzzles/list.tsv:{}: no {}", n + 1, file.display());
        println!("cargo:rerun-if-changed={}", file.display());
        writeln!(
            out,
            "    Puzzle {{ id: {id:?}, name: {name:?}, text: include_str!({:?}) }},",
            file.display().to_string()
        )
        .unwrap();
    }
    out.push(']');
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("puzzles.rs");
    std::fs::write(dest, out).unwrap();
}
