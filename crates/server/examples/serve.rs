//! `serve [ARGS]`: the `chess5d serve` command for testing before the main binary is wired.
//! `serve engine [ARGS]` runs the 5DUCI engine, so the default engine command (this
//! executable followed by `engine`) works as it will with the real binary.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = if args.first().map(String::as_str) == Some("engine") {
        chess5d_protocol::engine_options(&[]).and_then(|o| chess5d_protocol::run_stdio(o).map_err(|e| e.to_string()))
    } else {
        chess5d_server::serve_main(&args)
    };
    if let Err(e) = result {
        eprintln!("{e}");
        std::process::exit(2);
    }
}
