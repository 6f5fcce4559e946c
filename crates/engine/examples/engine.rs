//! Our engine over 5DUCI on standard input and output (what `chess5d engine` runs), for tests
//! that cannot build the `chess5d` binary: `engine [--bot NAME] [--option NAME=VALUE]...`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut settings = Vec::new();
    for pair in args.chunks(2) {
        let setting = match (pair[0].as_str(), pair.get(1)) {
            ("--bot", Some(v)) => ("Bot".to_string(), v.clone()),
            ("--hash", Some(v)) => ("Hash".to_string(), v.clone()),
            ("--option", Some(v)) => match v.split_once('=') {
                Some((n, x)) => (n.to_string(), x.to_string()),
                None => fail(&format!("--option wants NAME=VALUE, got '{v}'")),
            },
            (flag, _) => fail(&format!(
                "usage: engine [--bot NAME] [--hash MB] [--option NAME=VALUE]... (at '{flag}')"
            )),
        };
        settings.push(setting);
    }
    let options = chess5d_engine::uci::engine_options(&settings).unwrap_or_else(|e| fail(&e));
    if let Err(e) = chess5d_engine::uci::run_stdio(options) {
        fail(&e.to_string());
    }
}

fn fail(message: &str) -> ! {
    eprintln!("engine: {message}");
    std::process::exit(2);
}
