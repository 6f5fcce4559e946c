//! The draft alone: every form the draft allows read as its equivalent, and the client driving
//! the fake of the draft's engine (`examples/draft_engine.rs`, which behaves as `protocol.md`
//! records ftxi's engine) through every behaviour recorded there.

use super::*;
use chess5d_rules::Color;

fn draft(args: &str) -> String {
    format!("{} {args}", example("draft_engine"))
}

/// The fixture: (the draft's `position` arguments, the same position in another form).
fn draft_positions() -> Vec<(String, String)> {
    include_str!("data/draft_positions.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (a, b) = l.split_once(" | ").unwrap_or_else(|| panic!("no ' | ' in {l}"));
            (a.trim().to_string(), b.trim().to_string())
        })
        .collect()
}

fn clock(ms: u64, inc: u64) -> Go {
    Go {
        wtime: Some(Duration::from_millis(ms)),
        btime: Some(Duration::from_millis(ms)),
        winc: Some(Duration::from_millis(inc)),
        binc: Some(Duration::from_millis(inc)),
        ..Go::default()
    }
}

fn action(e: &mut EngineProcess, g: &GameState, pos: &Position, limits: &Go) -> Vec<chess5d_rules::Move> {
    match e.go(g, pos, limits, T) {
        Ok(EngineAnswer::Action(a)) => a,
        other => panic!("{other:?}"),
    }
}

mod forms {
    use super::*;

    #[test]
    fn reads_every_draft_form_as_its_equivalent() {
        let cases = draft_positions();
        assert!(cases.len() >= 10);
        for (draft, other) in &cases {
            let a = PositionCommand::parse(draft)
                .and_then(|p| p.position())
                .unwrap_or_else(|e| panic!("{draft}: {e}"));
            let b = PositionCommand::parse(other)
                .and_then(|p| p.position())
                .unwrap_or_else(|e| panic!("{other}: {e}"));
            assert_eq!(a.hash(), b.hash(), "{draft}  vs  {other}");
            assert_eq!(a.action_len(), b.action_len(), "{draft}");
        }
    }

    #[test]
    fn writes_promotions_as_the_draft_does() {
        let start = PositionCommand::parse("size 5x5 fen [4k/P4/5/5/K4:0:1:w]")
            .unwrap()
            .start;
        let pos = start.position().unwrap();
        let m = parse_move("(0T1)a4(0T1)a5=Q", &pos).unwrap();
        assert_eq!(format_move(&m), "(0T1)a4(0T1)a5Q");
        assert_eq!(parse_move("(0T1)a4(0T1)a5Q", &pos).unwrap(), m);
    }
}

mod announcement {
    use super::*;

    #[test]
    fn is_read_from_the_option_line() {
        for (options, expected) in [
            (vec![], Extensions::NONE),
            (
                vec!["option name Hash type spin default 16 min 1 max 1024"],
                Extensions::NONE,
            ),
            (
                vec!["option name 5DUCI_Extensions type string default variant,clock"],
                Extensions {
                    variant: true,
                    clock: true,
                    ..Extensions::NONE
                },
            ),
            (
                vec!["option name 5duci_extensions type string default Nodes, readyok future"],
                Extensions {
                    nodes: true,
                    readyok: true,
                    ..Extensions::NONE
                },
            ),
            (
                vec!["option name 5DUCI_Extensions type string default"],
                Extensions::NONE,
            ),
            (
                vec!["option name Other type string default variant,clock"],
                Extensions::NONE,
            ),
        ] {
            assert_eq!(Extensions::from_options(&options), expected, "{options:?}");
        }
        assert_eq!(
            Extensions::from_options(&[Extensions::ALL.option_line()]),
            Extensions::ALL
        );
    }

    #[test]
    fn decides_the_forms_sent() {
        let none = Extensions::NONE;
        let all = Extensions::ALL;
        let g = |name: &str| GameState {
            start: StartPos::Variant(name.into()),
            actions: vec![],
        };
        assert_eq!(
            g("Standard - Turn Zero").command_for(&[], &none).unwrap(),
            "position startpos"
        );
        assert_eq!(
            g("Standard").command_for(&[], &none).unwrap(),
            "position size 8x8 odd fen [r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:0:1:w]"
        );
        assert_eq!(
            g("Standard").command_for(&[], &all).unwrap(),
            "position variant \"Standard\""
        );
        assert!(g("No Such Variant").command_for(&[], &none).is_err());
        let two = g("Standard - Two Timelines").command_for(&[], &none).unwrap();
        assert!(
            two.starts_with("position size 8x8 even fen ") && two.contains(":-0:1:w]"),
            "{two}"
        );
        // Every official variant sent in the draft's forms reads back as itself.
        for v in chess5d_rules::VARIANTS {
            let text = g(v.name).command_for(&[], &none).unwrap();
            assert!(!text.contains("variant"), "{text}");
            let back = PositionCommand::parse(text.strip_prefix("position ").unwrap())
                .and_then(|p| p.position())
                .unwrap();
            assert_eq!(back.hash(), v.position().hash(), "{}", v.name);
        }
        let l = clock(60_000, 1000);
        let nodes = Go {
            nodes: Some(500),
            ..Go::default()
        };
        assert_eq!(go_text_for(&l, &all), "go wtime 60000 btime 60000 winc 1000 binc 1000");
        assert_eq!(go_text_for(&l, &none), "go");
        assert_eq!(go_text_for(&nodes, &none), "go");
        assert_eq!(
            go_text_for(
                &Go {
                    infinite: true,
                    ..Go::default()
                },
                &none
            ),
            "go"
        );
        assert_eq!(go_text_for(&Go::depth(3), &none), "go depth 3");
    }
}

mod client_with_the_draft {
    use super::*;

    #[test]
    fn handshake_waits_for_the_end_of_initialisation() {
        let t = Instant::now();
        let mut e = EngineProcess::start(&draft("--init-ms 400"), T).unwrap();
        assert!(t.elapsed() >= Duration::from_millis(400), "{:?}", t.elapsed());
        assert_eq!(e.extensions(), Extensions::NONE);
        assert_eq!(e.id().name, "");
        // Nothing sent after the handshake is dropped as busy.
        e.set_option("Hash", "4").unwrap();
        e.new_game(T).unwrap();
        let (g, pos) = game(StartPos::StartPos);
        action(&mut e, &g, &pos, &Go::movetime(Duration::from_millis(20)));
        assert!(e.quit(T));
    }

    #[test]
    fn every_start_is_sent_so_that_it_does_not_abort() {
        let mut e = EngineProcess::start(&draft(""), T).unwrap();
        for name in [
            "Standard",
            "Standard - Turn Zero",
            "Small",
            "Standard - Two Timelines",
            "Very Small",
        ] {
            e.new_game(T).unwrap();
            let (mut g, mut pos) = game(StartPos::Variant(name.into()));
            for _ in 0..3 {
                let a = action(&mut e, &g, &pos, &Go::movetime(Duration::from_millis(10)));
                for m in &a {
                    pos.play(m).unwrap();
                }
                pos.submit().unwrap();
                g.actions.push(a);
            }
        }
        assert!(e.is_alive());
    }

    #[test]
    fn the_extension_form_would_abort_it() {
        let mut e = EngineProcess::start(&draft(""), T).unwrap();
        e.set_extensions(Extensions::ALL);
        let (g, pos) = game(StartPos::Variant("Standard".into()));
        match e.go(&g, &pos, &Go::movetime(Duration::from_millis(10)), T) {
            Err(EngineError::Crashed { status, stderr_tail }) => {
                // SIGABRT, seen directly or through the shell that ran it.
                let status = status.unwrap_or_default();
                assert!(status == "killed by signal 6" || status == "exit code 134", "{status}");
                assert!(stderr_tail.contains("parse_error") && stderr_tail.contains("Expect number after ':'"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn promotions_in_the_history_are_taken() {
        let mut e = EngineProcess::start(&draft(""), T).unwrap();
        let start = PositionCommand::parse("size 5x5 fen [4k/P4/5/5/K4:0:1:w]")
            .unwrap()
            .start;
        let mut pos = start.position().unwrap();
        let promote = parse_move("(0T1)a4(0T1)a5Q", &pos).unwrap();
        pos.play(&promote).unwrap();
        pos.submit().unwrap();
        let g = GameState {
            start,
            actions: vec![vec![promote]],
        };
        // The fake would keep the previous position (White to move) on `a5=Q`: Black's answer
        // shows that it took the promotion.
        let a = action(&mut e, &g, &pos, &Go::movetime(Duration::from_millis(10)));
        assert_eq!(a[0].from.square.to_string(), "e5");
    }

    #[test]
    fn a_position_it_cannot_read_is_an_error_not_a_stale_search() {
        let mut e = EngineProcess::start(&draft(""), T).unwrap();
        // e2-e4 from the standard start, sent from a start whose e2 is empty.
        let e4 = parse_move("(0T1)e2(0T1)e4", &Position::standard()).unwrap();
        let start = PositionCommand::parse("size 5x5 fen [4k/5/5/5/K4:0:1:w]")
            .unwrap()
            .start;
        let g = GameState {
            start: start.clone(),
            actions: vec![vec![e4]],
        };
        let err = e
            .go(
                &g,
                &start.position().unwrap(),
                &Go::movetime(Duration::from_millis(10)),
                T,
            )
            .unwrap_err();
        assert!(
            matches!(&err, EngineError::Protocol { got, .. } if got.starts_with("info position error: cannot parse move (0T1)e2(0T1)e4")),
            "{err}"
        );
        assert!(e.is_alive());
    }

    #[test]
    fn dropped_commands_are_sent_again() {
        // The first three `position`/`go` are dropped: `position` as busy, `go` as already
        // running (the fake's test knob); the client sends them again until they are taken.
        let mut e = EngineProcess::start(&draft("--drop 3"), T).unwrap();
        let (g, pos) = game(StartPos::StartPos);
        action(&mut e, &g, &pos, &Go::movetime(Duration::from_millis(10)));
        let mut e = EngineProcess::start(&draft("--drop 9"), T).unwrap();
        let err = e.go(&g, &pos, &Go::movetime(Duration::from_millis(10)), T).unwrap_err();
        assert!(err.to_string().contains("busy 5 times"), "{err}");
    }

    #[test]
    fn a_clock_becomes_a_movetime_it_keeps() {
        let mut e = EngineProcess::start(&draft("--overshoot-ms 300"), T).unwrap();
        let l = clock(10_000, 100);
        // 10 s / 25 + 75 ms, less the 250 ms margin.
        assert_eq!(
            e.limits_for(&l, Color::White).movetime,
            Some(Duration::from_millis(225))
        );
        assert_eq!(e.limits_for(&l, Color::White).wtime, None);
        let (g, pos) = game(StartPos::StartPos);
        let t = Instant::now();
        action(&mut e, &g, &pos, &l);
        let took = t.elapsed();
        // The fake ignores the clock and would search until `stop`.
        assert!(
            took >= Duration::from_millis(500) && took < Duration::from_secs(3),
            "{took:?}"
        );
        // Its overshoot (300 ms) is kept in hand from now on.
        let after = e.limits_for(&l, Color::White).movetime.unwrap();
        assert!(after <= Duration::from_millis(10 + 5), "{after:?}");
        // A larger clock leaves room for the overshoot and the margin.
        let big = e.limits_for(&clock(60_000, 1000), Color::Black).movetime.unwrap();
        // 60 s / 25 + 750 ms, less the margin and the overshoot seen (at least 300 ms).
        assert!(
            big > Duration::from_millis(1500) && big <= Duration::from_millis(2600),
            "{big:?}"
        );
        // A fixed movetime is shortened by the overshoot too, down to 10 ms.
        let fixed = e.limits_for(&Go::movetime(Duration::from_millis(1000)), Color::White);
        let fixed = fixed.movetime.unwrap();
        assert!(
            fixed <= Duration::from_millis(700) && fixed >= Duration::from_millis(400),
            "{fixed:?}"
        );
        let short = e.limits_for(&Go::movetime(Duration::from_millis(100)), Color::White);
        assert_eq!(short.movetime, Some(Duration::from_millis(10)));
        e.set_movetime_margin(Duration::ZERO);
        assert_eq!(e.movetime_margin(), Duration::ZERO);
        // Nodes and no limit at all get a movetime; a depth stays a depth.
        let nodes = Go {
            nodes: Some(100),
            ..Go::default()
        };
        assert_eq!(e.limits_for(&nodes, Color::White).movetime, Some(FALLBACK_MOVETIME));
        assert_eq!(
            e.limits_for(&Go::default(), Color::White).movetime,
            Some(FALLBACK_MOVETIME)
        );
        assert_eq!(e.limits_for(&Go::depth(2), Color::White), Go::depth(2));
    }

    #[test]
    fn a_late_readyok_is_accepted_and_the_bestmove_kept() {
        let mut e = EngineProcess::start(&draft(""), T).unwrap();
        e.send("position startpos").unwrap();
        e.send("go movetime 300").unwrap();
        let t = Instant::now();
        // Answered when the search ends (300 ms and the overshoot), not at once.
        e.is_ready(T).unwrap();
        assert!(t.elapsed() >= Duration::from_millis(300), "{:?}", t.elapsed());
        let best = e.stop(T).unwrap();
        assert!(best.starts_with("bestmove (0T1)"), "{best}");
        // The next search is not confused by the late answers.
        let (g, pos) = game(StartPos::StartPos);
        action(&mut e, &g, &pos, &Go::movetime(Duration::from_millis(10)));
    }

    #[test]
    fn a_search_past_the_timeout_is_stopped_before_the_next() {
        let mut e = EngineProcess::start(&draft(""), T).unwrap();
        let (g, pos) = game(StartPos::StartPos);
        // `infinite` goes as the draft's bare `go`: it searches until `stop`.
        let infinite = Go {
            infinite: true,
            ..Go::default()
        };
        let err = e.go(&g, &pos, &infinite, Duration::from_millis(300)).unwrap_err();
        assert!(matches!(err, EngineError::Timeout { .. }), "{err}");
        action(&mut e, &g, &pos, &Go::movetime(Duration::from_millis(10)));
    }

    #[test]
    fn an_unanswered_isready_after_a_new_game_is_woken() {
        for command in [
            draft("--stall-newgame 1"),
            format!("DRAFT_ENGINE_STALL_NEWGAME=2 {}", example("draft_engine")),
        ] {
            let mut e = EngineProcess::start(&command, T).unwrap();
            let mut took = Vec::new();
            for _ in 0..2 {
                let t = Instant::now();
                e.new_game(T).unwrap();
                took.push(t.elapsed());
            }
            let stalled = if command.contains("DRAFT_ENGINE") { 1 } else { 0 };
            assert!(took[stalled] >= Duration::from_millis(1000), "{command}: {took:?}");
            assert!(took[stalled] < Duration::from_secs(4), "{command}: {took:?}");
            assert!(took[1 - stalled] < Duration::from_millis(900), "{command}: {took:?}");
            let (g, pos) = game(StartPos::StartPos);
            action(&mut e, &g, &pos, &Go::movetime(Duration::from_millis(10)));
        }
    }

    #[test]
    fn a_game_with_a_clock_and_no_time_trouble() {
        let mut e = EngineProcess::start(&draft("--overshoot-ms 100"), T).unwrap();
        let (mut g, mut pos) = game(StartPos::Variant("Standard".into()));
        let mut left = Duration::from_millis(3000);
        let inc = Duration::from_millis(50);
        for _ in 0..12 {
            // White's clock runs; Black's stays full.
            let l = clock(left.as_millis() as u64, 50);
            let l = if pos.to_move() == Color::Black {
                clock(3000, 50)
            } else {
                l
            };
            let t = Instant::now();
            let a = action(&mut e, &g, &pos, &l);
            let took = t.elapsed();
            if pos.to_move() == Color::White {
                assert!(took < left, "{took:?} on a clock of {left:?}");
                left = left - took + inc;
            }
            for m in &a {
                pos.play(m).unwrap();
            }
            pos.submit().unwrap();
            g.actions.push(a);
            if matches!(
                pos.outcome(chess5d_rules::Budget::tests(500)),
                chess5d_rules::Outcome::Checkmate | chess5d_rules::Outcome::Stalemate
            ) {
                break;
            }
        }
    }
}
