//! Protocol tests: text forms, the engine loop, the client against good and bad engines, and
//! the compliance checker.

use chess5d_engine::Limits;
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

fn fake(mode: &str) -> String {
    format!("{} {mode}", example("fake_engine"))
}

fn game(start: StartPos) -> (GameState, Position) {
    let pos = start.position().unwrap();
    (GameState { start, actions: vec![] }, pos)
}

const T: Duration = Duration::from_secs(10);

mod text {
    use super::*;

    #[test]
    fn moves_round_trip_with_the_drafts_numbering() {
        let pos = Variant::by_name("Standard - Two Timelines").unwrap().position();
        for m in pos.playable_moves() {
            let s = format_move(&m);
            assert_eq!(parse_move(&s, &pos).unwrap(), m, "{s}");
        }
        // -0 is -1 in the draft, +0 is 0.
        let m = parse_move("(-1T1)e2(-1T1)e4", &pos).unwrap();
        assert_eq!(m.long(true), "(-0T1)e2(-0T1)e4");
        assert_eq!(format_move(&m), "(-1T1)e2(-1T1)e4");
        let short = parse_move("(0T1)g1f3", &pos).unwrap();
        assert_eq!(short.long(true), "(+0T1)g1(+0T1)f3");
        assert_eq!(parse_move("(0T1)g1>(0T1)f3", &pos).unwrap(), short);
        assert!(parse_move("(0T1)e2(0T1)e5", &pos).is_err());
        assert!(parse_move("e2e4", &pos).is_err());
        assert!(parse_move_text("(0T1)e7(0T1)e8=Q", false).unwrap().promotion.is_some());
    }

    #[test]
    fn position_commands() {
        let p = PositionCommand::parse("startpos moves (0T1)e2(0T1)e3 submit (0T1)g8(0T1)f6 submit").unwrap();
        assert_eq!(p.start, StartPos::StartPos);
        let pos = p.position().unwrap();
        assert_eq!(pos.to_move(), chess5d_rules::Color::White);
        assert_eq!(pos.timeline_end(0), Some(4));
        let v = PositionCommand::parse("variant \"Standard - Two Timelines\" moves (-1T1)e2(-1T1)e4").unwrap();
        let pos = v.position().unwrap();
        assert_eq!(pos.action_len(), 1);
        let f = PositionCommand::parse("size 5x5 odd fen [4k/5/5/5/K1R2:0:1:w]").unwrap();
        assert!(matches!(f.start, StartPos::Fen(ref s) if s.size.width == 5 && !s.even));
        let e = PositionCommand::parse("fen [4k/5/5/5/K1R2:-0:1:w] [4k/5/5/5/K1R2:+0:1:w]").unwrap();
        let pos = e.position().unwrap();
        assert!(pos.even());
        assert_eq!(pos.timeline_count(), 2);
        // Round trip through the command text.
        let again = PositionCommand::parse(e.to_command().strip_prefix("position ").unwrap()).unwrap();
        assert_eq!(again.position().unwrap().hash(), pos.hash());
        assert!(PositionCommand::parse("nonsense").is_err());
        assert!(PositionCommand::parse("startpos moves (0T1)e2(0T1)e5")
            .unwrap()
            .position()
            .is_err());
    }

    #[test]
    fn go_arguments() {
        let l = parse_go("wtime 1000 btime 2000 winc 10 binc 20 depth 3 nodes 500 bogus");
        assert_eq!(l.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(l.binc, Some(Duration::from_millis(20)));
        assert_eq!(l.depth, Some(3));
        assert_eq!(l.nodes, Some(500));
        assert!(parse_go("infinite").infinite);
        assert_eq!(parse_go(&go_text(&l)[3..]), l);
    }
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
        let limits = Limits::movetime(Duration::from_millis(100));
        match e.go(&g, &pos, &limits, T).unwrap() {
            EngineAnswer::Action(a) => assert_eq!(a.len(), 2),
            other => panic!("{other:?}"),
        }
        assert!(e.last_info.is_some());
        assert!(e.quit(T));
    }

    #[test]
    fn random_fake_engine_plays_a_game_fragment() {
        let mut e = EngineProcess::start(&fake("random"), T).unwrap();
        let (mut g, mut pos) = game(StartPos::StartPos);
        for _ in 0..6 {
            let EngineAnswer::Action(a) = e.go(&g, &pos, &Limits::depth(1), T).unwrap() else {
                panic!("no move")
            };
            for m in &a {
                pos.play(m).unwrap();
            }
            pos.submit().unwrap();
            g.actions.push(a);
        }
        assert!(e.quit(T));
    }

    #[test]
    fn one_move_per_go_is_accepted() {
        let mut e = EngineProcess::start(&fake("onemove"), T).unwrap();
        let (g, pos) = game(StartPos::Variant("Standard - Two Timelines".into()));
        let EngineAnswer::Action(a) = e.go(&g, &pos, &Limits::depth(1), T).unwrap() else {
            panic!()
        };
        assert_eq!(a.len(), 2);
    }

    fn first_go_error(mode: &str, timeout: Duration) -> EngineError {
        let mut e = EngineProcess::start(&fake(mode), T).unwrap();
        let (g, pos) = game(StartPos::StartPos);
        e.go(&g, &pos, &Limits::depth(1), timeout).unwrap_err()
    }

    #[test]
    fn crash_is_reported_with_status_and_stderr() {
        match first_go_error("crash", T) {
            EngineError::Crashed { status, stderr_tail } => {
                assert_eq!(status.as_deref(), Some("exit code 3"));
                assert!(stderr_tail.contains("crashing on purpose"), "{stderr_tail}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn hang_is_a_timeout_not_a_hang() {
        let t = Instant::now();
        let err = first_go_error("hang", Duration::from_millis(300));
        assert!(matches!(err, EngineError::Timeout { waited } if waited >= Duration::from_millis(300)));
        assert!(t.elapsed() < Duration::from_secs(5));
        assert!(err.to_string().contains("timed out"));
    }

    #[test]
    fn illegal_garbage_and_nobestmove() {
        let err = first_go_error("illegal", T);
        assert!(
            matches!(err, EngineError::IllegalMove { ref text, .. } if text == "(0T1)a1(0T1)h8"),
            "{err}"
        );
        let err = first_go_error("garbage", T);
        assert!(
            matches!(err, EngineError::Unparsable { ref line } if line.contains("notamove")),
            "{err}"
        );
        let mut e = EngineProcess::start(&fake("nobest"), T).unwrap();
        let (g, pos) = game(StartPos::StartPos);
        assert_eq!(e.go(&g, &pos, &Limits::depth(1), T).unwrap(), EngineAnswer::NoMove);
    }

    /// Whether a process runs (a zombie, ended but not yet reaped by its new parent, has ended).
    #[cfg(target_os = "linux")]
    fn running(pid: u32) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Ok(stat) => !stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with(['Z', 'X']),
            Err(_) => false,
        }
    }

    /// A hung engine behind a shell that does not `exec` it (`; :` makes every shell fork) is
    /// ended with its client: on a timeout the client drops it, and the whole process group goes.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_hung_engine_does_not_outlive_its_client() {
        let dir = std::env::temp_dir().join(format!("chess5d-pid-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pid_file = dir.join("hang.pid");
        let command = format!("FAKE_ENGINE_PID_FILE='{}' {} ; :", pid_file.display(), fake("hang"));
        let mut e = EngineProcess::start(&command, T).unwrap();
        let engine_pid: u32 = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
        assert_ne!(
            engine_pid,
            e.pid(),
            "the shell must fork for this test to mean anything"
        );
        assert!(running(engine_pid));
        let (g, pos) = game(StartPos::StartPos);
        let err = e
            .go(&g, &pos, &Limits::depth(1), Duration::from_millis(200))
            .unwrap_err();
        assert!(matches!(err, EngineError::Timeout { .. }), "{err}");
        drop(e);
        let t = Instant::now();
        while running(engine_pid) && t.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(!running(engine_pid), "the hung engine {engine_pid} survived its client");
        // `quit` to an engine that ignores it ends the group too.
        let mut e = EngineProcess::start(&command, T).unwrap();
        let engine_pid: u32 = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
        let _ = e.go(&g, &pos, &Limits::depth(1), Duration::from_millis(100));
        assert!(!e.quit(Duration::from_millis(200)));
        let t = Instant::now();
        while running(engine_pid) && t.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(!running(engine_pid), "the hung engine {engine_pid} survived quit");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_program_is_reported() {
        let err = EngineProcess::start("/nonexistent/engine-binary", Duration::from_secs(2)).unwrap_err();
        assert!(matches!(err, EngineError::Crashed { .. }), "{err}");
    }
}

mod draft;

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

    #[test]
    fn the_drafts_engine_passes_without_extensions() {
        let report = check_engine(&example("draft_engine"));
        assert!(report.passed(), "{report}");
        assert_eq!(report.extensions, Extensions::NONE);
        assert_eq!(report.steps.len(), 13, "{report}");
        let text = report.to_string();
        assert_eq!(text.matches("not announced, skipped").count(), 3, "{text}");
        assert!(text.contains("readyok deferred (the draft)"), "{text}");
        assert!(text.contains("(no id name)"), "{text}");
        assert!(text.contains("extensions: none (the draft alone)"), "{text}");
    }

    #[test]
    fn a_draft_engine_that_breaks_the_draft_still_fails() {
        // A draft engine that stays busy for ever never plays: that is no pass.
        let r = check_engine(&format!("{} --drop 99", example("draft_engine")));
        assert_eq!(r.first_failure().unwrap().name, "position startpos + go", "{r}");
        assert!(r.to_string().contains("busy 5 times"), "{r}");
    }

    #[test]
    fn bad_engines_fail_at_the_right_step() {
        let r = check_engine(&fake("crash"));
        assert_eq!(r.first_failure().unwrap().name, "position startpos + go", "{r}");
        let r = check_engine("true");
        assert_eq!(r.first_failure().unwrap().name, "handshake", "{r}");
        let r = check_engine(&fake("illegal:2"));
        assert_eq!(r.first_failure().unwrap().name, "position with moves + go", "{r}");
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
