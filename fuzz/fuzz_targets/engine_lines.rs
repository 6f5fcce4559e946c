#![no_main]
//! What an engine reads of 5DUCI: the `position` and `go` commands a GUI sends, read and replayed.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        for line in text.lines() {
            let (cmd, args) = line.trim().split_once(' ').unwrap_or((line.trim(), ""));
            match cmd {
                "go" => {
                    let _ = chess5d_protocol::parse_go(args);
                }
                _ => {
                    if let Ok(p) = chess5d_protocol::PositionCommand::parse(args) {
                        // A command that reads back must write the same command again.
                        let again = p.to_command();
                        let args2 = again.strip_prefix("position ").unwrap_or(&again);
                        chess5d_protocol::PositionCommand::parse(args2).expect("a written position command reads back");
                        let _ = p.position();
                    }
                }
            }
        }
    }
});
