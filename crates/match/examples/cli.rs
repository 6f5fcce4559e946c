//! The `chess5d engine` / `chess5d match` command lines without the `chess5d` binary:
//! `cargo run --release -p chess5d-match --example cli -- match --engine ... --engine ...`.
//! Exits like `chess5d`: 2 for bad arguments or an engine that does not start.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("match") => chess5d_match::match_main(&args[1..]).map_err(|e| (e.to_string(), e.exit_code())),
        _ => chess5d_match::cli_main(&args).map_err(|e| (e, 1)),
    };
    if let Err((message, code)) = result {
        eprintln!("chess5d: {message}");
        std::process::exit(code);
    }
}
