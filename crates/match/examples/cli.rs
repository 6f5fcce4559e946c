//! The `chess5d engine` / `chess5d match` command lines before they are wired into the binary:
//! `cargo run --release -p chess5d-match --example cli -- match --engine ... --engine ...`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = chess5d_match::cli_main(&args) {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
