//! Protocol tests: text forms, the client against good and bad engines, and the compliance
//! checker. (Our engine's side of the protocol is tested in the engine crate, `tests/uci.rs`.)

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

    /// `position ... fen` reads 5DFEN with the notation crate's reader: the draft's boards
    /// without a colour (White's), labels as 5DFEN writes them, and errors that say what and
    /// where; written back as it always was (`1`, not `+1`, in an odd game).
    #[test]
    fn fen_boards_are_notations_5dfen() {
        let s =
            chess5d_protocol::parse_fen_boards("[4k/5/5/5/K1R2:0:1] [4k/5/5/5/K1R2:1:1:b]", None, Some(false)).unwrap();
        assert_eq!(s.size.to_string(), "5x5");
        assert_eq!(
            chess5d_protocol::write_fen_boards(&s),
            "[4k/5/5/5/K1R2:0:1:w] [4k/5/5/5/K1R2:1:1:b]"
        );
        let even = chess5d_protocol::parse_fen_boards("[k3/4/4/K3:-0:1:w] [k3/4/4/K3:+0:1:w]", None, None).unwrap();
        assert!(even.even);
        assert_eq!(
            chess5d_protocol::write_fen_boards(&even),
            "[k3/4/4/K3:-0:1:w] [k3/4/4/K3:+0:1:w]"
        );
        let e = chess5d_protocol::parse_fen_boards("[4k/5/5/5/K1R2:0:1:x]", None, None).unwrap_err();
        assert!(e.to_string().contains("column 20: expected the colour to move"), "{e}");
        let e = PositionCommand::parse("size 5x5 fen [4k/5/5/5/K1R9:0:1:w]").unwrap_err();
        assert!(e.to_string().contains("5x5 piece placement"), "{e}");
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

mod client {
    use super::*;

    #[test]
    fn random_fake_engine_plays_a_game_fragment() {
        let mut e = EngineProcess::start(&fake("random"), T).unwrap();
        let (mut g, mut pos) = game(StartPos::StartPos);
        for _ in 0..6 {
            let EngineAnswer::Action(a) = e.go(&g, &pos, &Go::depth(1), T).unwrap() else {
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
        let EngineAnswer::Action(a) = e.go(&g, &pos, &Go::depth(1), T).unwrap() else {
            panic!()
        };
        assert_eq!(a.len(), 2);
    }

    fn first_go_error(mode: &str, timeout: Duration) -> EngineError {
        let mut e = EngineProcess::start(&fake(mode), T).unwrap();
        let (g, pos) = game(StartPos::StartPos);
        e.go(&g, &pos, &Go::depth(1), timeout).unwrap_err()
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
        assert_eq!(e.go(&g, &pos, &Go::depth(1), T).unwrap(), EngineAnswer::NoMove);
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
        let err = e.go(&g, &pos, &Go::depth(1), Duration::from_millis(200)).unwrap_err();
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
        let _ = e.go(&g, &pos, &Go::depth(1), Duration::from_millis(100));
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
