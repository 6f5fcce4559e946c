//! `serve [--addr ADDR] [--db FILE] [--engine NAME=CMD]...`: the web GUI for tests that cannot
//! build the `chess5d` binary. `serve engine` runs the 5DUCI engine, so the default engine
//! command (this executable followed by `engine`) works as it does with the real binary.

use chess5d_server::{Config, ServeOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = if args.first().map(String::as_str) == Some("engine") {
        chess5d_engine::uci::engine_options(&[])
            .and_then(|o| chess5d_engine::uci::run_stdio(o).map_err(|e| e.to_string()))
    } else {
        options(&args)
            .and_then(|o| Config::from_options(&o))
            .and_then(chess5d_server::run)
    };
    if let Err(e) = result {
        eprintln!("serve: {e}");
        std::process::exit(2);
    }
}

fn options(args: &[String]) -> Result<ServeOptions, String> {
    let mut o = ServeOptions::default();
    for pair in args.chunks(2) {
        match (pair[0].as_str(), pair.get(1)) {
            ("--addr", Some(v)) => o.addr = Some(v.clone()),
            ("--db", Some(v)) => o.db = Some(v.into()),
            ("--engine", Some(v)) => o.engines.push(v.clone()),
            ("--limit", Some(v)) => o.limits.push(v.clone()),
            (flag, _) => {
                return Err(format!(
                    "usage: serve [--addr ADDR] [--db FILE] [--engine NAME=CMD]... [--limit NAME=N]... (at '{flag}')"
                ))
            }
        }
    }
    Ok(o)
}
