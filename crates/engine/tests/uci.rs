//! Our engine's side of 5DUCI (`chess5d_engine::uci`): the command loop in process, and our
//! engine over a pipe (`examples/engine.rs`) driven by the protocol crate's client and checked
//! by its compliance checker.

use chess5d_engine::uci::{run_engine, ENGINE_NAME};
use chess5d_protocol::*;
use chess5d_rules::{Position, Variant};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// An example binary built next to this test binary.
fn example(name: &str) -> String {
    let mut p: PathBuf = std::env::current_exe().unwrap();
    p.pop();
    if p.ends_with("deps") {
        p.pop();
    }
    let p = p.join("examples").join(name);
    assert!(p.exists(), "{} not built", p.display());
    p.display().to_string()
}

fn game(start: StartPos) -> (GameState, Position) {
    let pos = start.position().unwrap();
    (GameState { start, actions: vec![] }, pos)
}

const T: Duration = Duration::from_secs(10);

/// The fixture of the protocol crate: (the draft's `position` arguments, the same position in
/// another form).
fn draft_positions() -> Vec<(String, String)> {
    include_str!("../../protocol/tests/data/draft_positions.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (a, b) = l.split_once(" | ").unwrap_or_else(|| panic!("no ' | ' in {l}"));
            (a.trim().to_string(), b.trim().to_string())
        })
        .collect()
}

mod engine_loop {
    use super::*;
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().write(b)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Runs the engine loop on these lines; after each `go`, waits for its answer.
    pub(crate) fn run(input: &str) -> Vec<String> {
        let (tx, rx) = std::sync::mpsc::channel::<String>();
        let out = Shared::default();
        let out2 = out.clone();
        let h = std::thread::spawn(move || {
            run_engine(
                std::io::BufReader::new(Feed(rx, vec![])),
                out2,
                chess5d_engine::Engine::default(),
            )
        });
        let answers = || {
            let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
            text.lines()
                .filter(|l| l.starts_with("bestmove") || *l == "nobestmove")
                .count()
        };
        let mut expected = 0;
        for line in input.lines() {
            tx.send(line.to_string()).unwrap();
            if line.starts_with("go") {
                expected += 1;
                let t = Instant::now();
                while answers() < expected {
                    assert!(t.elapsed() < Duration::from_secs(20));
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
        }
        drop(tx);
        h.join().unwrap().unwrap();
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        text.lines().map(String::from).collect()
    }

    #[test]
    fn handshake_options_and_bye() {
        let lines = run("5duci\nisready\nsetoption name Bot value greedy\nsetoption name Nope value 1\nflurb\nquit\n");
        assert_eq!(lines[0], format!("id name {ENGINE_NAME}"));
        assert!(lines
            .iter()
            .any(|l| l == "option name Bot type combo default alphabeta var alphabeta var greedy var random"));
        assert!(lines.iter().any(|l| l.starts_with("option name Hash type spin")));
        assert!(lines.iter().any(|l| l.starts_with("option name Threads type spin")));
        let ok = lines.iter().position(|l| l == "5duciok").unwrap();
        assert_eq!(lines[ok + 1], "readyok");
        assert!(lines.iter().any(|l| l.starts_with("info string unknown option")));
        assert_eq!(lines.last().unwrap(), "bye");
    }

    /// `go` in the middle of an action answers the rest of a legal action (it answered an empty
    /// `bestmove` when the action had moves played: the moves of the rest were cut by that many).
    #[test]
    fn go_in_the_middle_of_an_action_answers_the_rest() {
        let lines = run("position variant \"Standard - Two Timelines\" moves (-0T1)e2(-0T1)e4\ngo depth 1\nquit\n");
        let answer = lines.iter().find(|l| l.starts_with("bestmove")).unwrap();
        let rest = answer.strip_prefix("bestmove ").unwrap();
        assert!(!rest.trim().is_empty() && rest != "submit", "{answer}");
        let mut pos = Variant::by_name("Standard - Two Timelines").unwrap().position();
        let played = parse_move("(-0T1)e2(-0T1)e4", &pos).unwrap();
        pos.play(&played).unwrap();
        for text in rest.split_whitespace() {
            let m = parse_move(text, &pos).unwrap_or_else(|e| panic!("{answer}: {e}"));
            pos.play(&m).unwrap();
        }
        assert_eq!(pos.can_submit(), Ok(()), "{answer}");
    }

    /// A reader fed line by line from the test, blocking in between like a pipe.
    struct Feed(std::sync::mpsc::Receiver<String>, Vec<u8>);
    impl std::io::Read for Feed {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.1.is_empty() {
                match self.0.recv() {
                    Ok(line) => self.1 = format!("{line}\n").into_bytes(),
                    Err(_) => return Ok(0),
                }
            }
            let n = buf.len().min(self.1.len());
            buf[..n].copy_from_slice(&self.1[..n]);
            self.1.drain(..n);
            Ok(n)
        }
    }

    #[test]
    fn go_answers_the_whole_action_with_info_and_isready_during_search() {
        let (tx, rx) = std::sync::mpsc::channel();
        let out = Shared::default();
        let out2 = out.clone();
        let h = std::thread::spawn(move || {
            run_engine(
                std::io::BufReader::new(Feed(rx, vec![])),
                out2,
                chess5d_engine::Engine::default(),
            )
        });
        let text = || String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let wait_for = |what: &str| {
            let t = Instant::now();
            while !text().contains(what) {
                assert!(t.elapsed() < Duration::from_secs(20), "no {what} in {}", text());
                std::thread::sleep(Duration::from_millis(5));
            }
        };
        tx.send("position variant \"Standard - Two Timelines\"".into()).unwrap();
        tx.send("go depth 2".into()).unwrap();
        wait_for("bestmove");
        tx.send("go infinite".into()).unwrap();
        std::thread::sleep(Duration::from_millis(50));
        tx.send("isready".into()).unwrap();
        wait_for("readyok");
        assert_eq!(
            text().matches("bestmove").count(),
            1,
            "infinite search answered before stop"
        );
        tx.send("stop".into()).unwrap();
        tx.send("quit".into()).unwrap();
        h.join().unwrap().unwrap();
        let lines: Vec<String> = text().lines().map(String::from).collect();
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 2 score cp ")),
            "{lines:?}"
        );
        let best = lines.iter().find(|l| l.starts_with("bestmove")).unwrap();
        let pos = Variant::by_name("Standard - Two Timelines").unwrap().position();
        let mut p = pos.clone();
        for tok in best.split_whitespace().skip(1) {
            let m = parse_move(tok, &p).unwrap();
            p.play(&m).unwrap();
        }
        p.submit().unwrap();
        assert_eq!(best.split_whitespace().count(), 3, "{best}");
        assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove")).count(), 2);
        assert_eq!(lines.last().unwrap(), "bye");
    }

    #[test]
    fn mate_is_reported_and_mated_side_has_nobestmove() {
        let lines = run("position size 5x5 fen [4k/5/4K/5/R4:0:1:w]\ngo depth 2\nposition fen [4k/5/4K/5/R4:0:1:w] moves (0T1)a1(0T1)a5 submit\ngo depth 2\nquit\n");
        assert!(lines.iter().any(|l| l.contains("score mate 1")), "{lines:?}");
        assert!(lines.iter().any(|l| l == "bestmove (0T1)a1(0T1)a5"));
        assert!(lines.iter().any(|l| l == "nobestmove"));
    }

    #[test]
    fn multipv_reports_ranked_lines() {
        let lines = run("5duci\nsetoption name MultiPV value 3\nposition startpos\ngo depth 2\nquit\n");
        assert!(lines
            .iter()
            .any(|l| l.starts_with("option name MultiPV type spin default 1")));
        for k in 1..=3 {
            let tag = format!("info depth 2 multipv {k} score cp ");
            assert!(
                lines.iter().any(|l| l.starts_with(&tag) && l.contains(" pv ")),
                "{k}: {lines:?}"
            );
        }
        // The action played is the best line's first.
        let best = lines.iter().find(|l| l.starts_with("bestmove ")).unwrap();
        let first = lines
            .iter()
            .find(|l| l.starts_with("info depth 2 multipv 1 "))
            .and_then(|l| l.split(" pv ").nth(1))
            .unwrap();
        let first = first.split(" submit ").next().unwrap();
        assert_eq!(best.trim_start_matches("bestmove "), first, "{lines:?}");
    }
}

mod draft {
    use super::*;

    #[test]
    fn answers_every_draft_form_over_the_protocol() {
        let mut input = String::from("5duci\nisready\n");
        let cases = draft_positions();
        for (draft, _) in &cases {
            input.push_str(&format!("position {draft}\ngo depth 1\n"));
        }
        let lines = engine_loop::run(&input);
        assert!(!lines.iter().any(|l| l.contains("bad position")), "{lines:?}");
        let answers: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("bestmove") || *l == "nobestmove")
            .collect();
        assert_eq!(answers.len(), cases.len(), "{lines:?}");
        for ((draft, _), answer) in cases.iter().zip(answers) {
            let mut pos = PositionCommand::parse(draft).unwrap().position().unwrap();
            for tok in answer.split_whitespace().skip(1) {
                if tok != "submit" {
                    let m = parse_move(tok, &pos).unwrap_or_else(|e| panic!("{draft}: {answer}: {e}"));
                    pos.play(&m).unwrap();
                }
            }
            pos.submit().unwrap_or_else(|e| panic!("{draft}: {answer}: {e}"));
        }
    }

    #[test]
    fn announces_its_extensions_and_answers_a_bare_go() {
        let lines = engine_loop::run(
            "5duci\nsetoption name Bot value random\nsetoption name 5DUCI_Extensions value variant\nposition startpos\ngo\nquit\n",
        );
        let line =
            format!("option name {EXTENSIONS_OPTION} type string default variant,clock,nodes,infinite,readyok,info");
        assert!(lines.contains(&line), "{lines:?}");
        assert_eq!(Extensions::from_options(&lines), Extensions::ALL);
        // Setting the announcement is not an unknown option.
        assert!(!lines.iter().any(|l| l.starts_with("info string")), "{lines:?}");
        // The bare `go` ended by itself (the loop waits for its answer), with a legal action.
        let best = lines.iter().find(|l| l.starts_with("bestmove")).unwrap();
        let mut pos = StartPos::StartPos.position().unwrap();
        for tok in best.split_whitespace().skip(1) {
            let m = parse_move(tok, &pos).unwrap();
            pos.play(&m).unwrap();
        }
        pos.submit().unwrap();
    }
}

mod client {
    use super::*;

    #[test]
    fn our_engine_over_a_pipe() {
        let mut e = EngineProcess::start(&example("engine"), T).unwrap();
        assert!(e.id().name.starts_with("chess5d"));
        assert!(e.id().options.iter().any(|o| o.contains("name Hash")));
        e.set_option("Hash", "4").unwrap();
        e.new_game(T).unwrap();
        let (g, pos) = game(StartPos::Variant("Standard - Two Timelines".into()));
        let limits = Go::movetime(Duration::from_millis(100));
        match e.go(&g, &pos, &limits, T).unwrap() {
            EngineAnswer::Action(a) => assert_eq!(a.len(), 2),
            other => panic!("{other:?}"),
        }
        assert!(e.last_info.is_some());
        assert!(e.quit(T));
    }
}

mod compliance {
    use super::*;

    #[test]
    fn our_engine_passes() {
        let report = check_engine(&example("engine"));
        assert!(report.passed(), "{report}");
        assert_eq!(report.steps.len(), 13, "{report}");
        assert_eq!(report.extensions, Extensions::ALL);
        // Every extension step ran (none was skipped).
        assert!(!report.to_string().contains("not announced"), "{report}");
        assert!(report.to_string().ends_with("passed"));
    }
}

/// An impossible position (the side to move can capture the other king) gets an `info string`
/// with the rules' reason, and the engine goes on (issue 17).
#[test]
fn an_impossible_position_is_an_info_string_not_a_crash() {
    use std::io::Write;
    let mut child = std::process::Command::new(example("engine"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"5duci\nposition size 8x8 odd fen [k7/8/8/8/8/8/8/R3K3:0:1:w]\nisready\nposition startpos\ngo depth 1\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("info string bad position: invalid position: the black king on (0T1)a8 can be captured by the side to move: (0T1)a1"),
        "{text}"
    );
    assert!(text.contains("readyok") && text.contains("bestmove "), "{text}");
}
