//! Engine tests: forced mates, legality under tiny time budgets, bots, options.

use chess5d_engine::{Bot, Engine, EngineOptions, Limits, Score};
use chess5d_rules::{parse_timeline, Board, BoardId, Budget, Move, Outcome, Position, Role, Setup, Size};
use std::time::{Duration, Instant};

/// Reads `[pieces:L:T:c]` blocks into a position.
fn position_from_fen(size: &str, fens: &str) -> Position {
    let (w, h) = size.trim().split_once('x').expect("WxH");
    let size = Size::new(w.parse().unwrap(), h.parse().unwrap()).expect("size");
    let blocks: Vec<&str> = fens
        .split(['[', ']'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    let even = blocks.iter().any(|b| b.contains(":-0:") || b.contains(":+0:"));
    let boards = blocks
        .iter()
        .map(|b| {
            let f: Vec<&str> = b.split(':').collect();
            let l = parse_timeline(f[1], even).expect("timeline");
            let turn: i32 = f[2].parse().expect("turn");
            let t = 2 * turn + i32::from(f.get(3) == Some(&"b"));
            (BoardId::new(l, t), Board::from_fen(f[0], size).expect("placement"))
        })
        .collect();
    Position::from_setup(Setup {
        size,
        even,
        boards,
        promotions: vec![Role::Queen],
    })
    .expect("valid setup")
}

/// Plays moves given in long form (`|` between actions).
fn play_actions(pos: &mut Position, actions: &str) {
    for action in actions.split('|').map(str::trim).filter(|a| !a.is_empty()) {
        for text in action.split_whitespace() {
            let mv: Move = pos
                .playable_moves()
                .into_iter()
                .find(|m| m.long(pos.even()) == text)
                .unwrap_or_else(|| panic!("move {text} not found"));
            pos.play(&mv).unwrap();
        }
        pos.submit().unwrap_or_else(|e| panic!("cannot submit {action}: {e}"));
    }
}

fn play(pos: &Position, action: &[Move]) -> Position {
    let mut p = pos.clone();
    for m in action {
        p.play(m)
            .unwrap_or_else(|e| panic!("{} in {:?}: {e}", m.long(p.even()), action));
    }
    p.submit().unwrap_or_else(|e| panic!("{action:?}: {e}"));
    p
}

mod mates {
    use super::*;

    struct Case {
        name: String,
        pos: Position,
        mate_in: i32,
    }

    fn cases() -> Vec<Case> {
        let text = include_str!("data/mates.txt");
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|line| {
                let f: Vec<&str> = line.split(';').map(str::trim).collect();
                assert_eq!(f.len(), 5, "bad line {line}");
                let mut pos = position_from_fen(f[1], f[2]);
                play_actions(&mut pos, f[3]);
                Case {
                    name: f[0].to_string(),
                    pos,
                    mate_in: f[4].parse().unwrap(),
                }
            })
            .collect()
    }

    #[test]
    fn suite_finds_every_mate_within_its_horizon() {
        let all = cases();
        assert!(all.len() >= 5);
        for case in all {
            let mut engine = Engine::default();
            let t = Instant::now();
            let r = engine.search(&case.pos, &Limits::depth(2 * case.mate_in as u32), &mut |_| {});
            assert_eq!(
                r.score,
                Score::Mate(case.mate_in),
                "{}: expected mate in {}, got {:?} after {:?}",
                case.name,
                case.mate_in,
                r.score,
                t.elapsed()
            );
            let best = r.best.expect("an action");
            let after = play(&case.pos, &best);
            if case.mate_in == 1 {
                assert_eq!(after.outcome(Budget::DEFAULT), Outcome::Checkmate, "{}", case.name);
            } else {
                // The opponent cannot avoid mate: the search from its side sees itself mated.
                let mut e2 = Engine::default();
                let r2 = e2.search(&after, &Limits::depth(2 * case.mate_in as u32 - 1), &mut |_| {});
                assert_eq!(r2.score, Score::Mate(-(case.mate_in - 1)), "{}", case.name);
            }
        }
    }

    #[test]
    fn mate_found_under_a_time_limit() {
        let case = cases().into_iter().find(|c| c.name == "rook-tactics-1").unwrap();
        let mut engine = Engine::default();
        let r = engine.search(&case.pos, &Limits::movetime(Duration::from_millis(500)), &mut |_| {});
        assert_eq!(r.score, Score::Mate(1));
    }

    #[test]
    fn mated_side_reports_no_action() {
        let case = cases().into_iter().find(|c| c.name == "back-rank-rook").unwrap();
        let mut engine = Engine::default();
        let r = engine.search(&case.pos, &Limits::depth(2), &mut |_| {});
        let after = play(&case.pos, &r.best.unwrap());
        let r2 = engine.search(&after, &Limits::depth(3), &mut |_| {});
        assert!(r2.best.is_none());
        assert_eq!(r2.score, Score::Mate(0));
    }
}

mod legality {
    use super::*;

    const VARIANTS: [&str; 6] = [
        "Standard",
        "Standard - Turn Zero",
        "Standard - Two Timelines",
        "Small",
        "Very Small",
        "Misc - Timeline Battlegrounds",
    ];

    /// Plays a few actions of a game of `bot` against itself at `movetime`, checking each.
    fn self_play(variant: &str, bot: Bot, movetime: Duration, actions: usize) -> Position {
        let mut pos = chess5d_rules::Variant::by_name(variant).unwrap().position();
        let mut engine = Engine::new(EngineOptions {
            bot,
            ..EngineOptions::default()
        });
        for _ in 0..actions {
            let t = Instant::now();
            let r = engine.search(&pos, &Limits::movetime(movetime), &mut |_| {});
            let took = t.elapsed();
            assert!(
                took < movetime + Duration::from_millis(400),
                "{variant}: {bot:?} took {took:?} for {movetime:?}"
            );
            match r.best {
                Some(a) => pos = play(&pos, &a),
                None => {
                    assert!(matches!(
                        pos.outcome(Budget::DEFAULT),
                        Outcome::Checkmate | Outcome::Stalemate
                    ));
                    break;
                }
            }
        }
        pos
    }

    #[test]
    fn alphabeta_plays_legal_actions_in_tiny_time() {
        for v in VARIANTS {
            self_play(v, Bot::AlphaBeta, Duration::from_millis(40), 6);
        }
    }

    #[test]
    fn weak_bots_play_legal_actions() {
        for v in VARIANTS {
            for bot in [Bot::Random, Bot::Greedy] {
                self_play(v, bot, Duration::from_millis(20), 8);
            }
        }
    }

    #[test]
    fn random_games_with_time_travel_stay_legal() {
        // Random play creates timelines quickly; the search must cope with them.
        for v in ["Standard - Turn Zero", "Small", "Very Small"] {
            let pos = self_play(v, Bot::Random, Duration::from_millis(5), 14);
            let mut engine = Engine::default();
            let r = engine.search(&pos, &Limits::movetime(Duration::from_millis(60)), &mut |_| {});
            if let Some(a) = r.best {
                play(&pos, &a);
            }
        }
    }

    #[test]
    fn stop_flag_stops_at_once_with_a_legal_action() {
        let pos = chess5d_rules::Variant::by_name("Standard - Two Timelines")
            .unwrap()
            .position();
        let mut engine = Engine::default();
        engine.stop_flag().store(true, std::sync::atomic::Ordering::Relaxed);
        let t = Instant::now();
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let r = engine.search(&pos, &limits, &mut |_| {});
        assert!(t.elapsed() < Duration::from_secs(1));
        play(&pos, &r.best.unwrap());
        // The flag is cleared for the next search.
        let r = engine.search(&pos, &Limits::depth(1), &mut |_| {});
        assert_eq!(r.depth, 1);
    }

    #[test]
    fn node_and_depth_limits_are_honoured() {
        let pos = Position::standard();
        let mut engine = Engine::default();
        let mut infos = Vec::new();
        let r = engine.search(&pos, &Limits::depth(2), &mut |i| infos.push(i.clone()));
        assert_eq!(r.depth, 2);
        assert_eq!(infos.iter().map(|i| i.depth).collect::<Vec<_>>(), vec![1, 2]);
        assert!(!infos[1].pv.is_empty());
        let limits = Limits {
            nodes: Some(50),
            ..Limits::default()
        };
        let r = engine.search(&pos, &limits, &mut |_| {});
        assert!(r.nodes <= 51, "{}", r.nodes);
        play(&pos, &r.best.unwrap());
    }

    #[test]
    fn clock_limits_leave_time_on_the_clock() {
        let pos = Position::standard();
        let mut engine = Engine::default();
        let limits = Limits {
            wtime: Some(Duration::from_millis(300)),
            btime: Some(Duration::from_millis(300)),
            ..Limits::default()
        };
        let t = Instant::now();
        let r = engine.search(&pos, &limits, &mut |_| {});
        assert!(t.elapsed() < Duration::from_millis(200), "{:?}", t.elapsed());
        play(&pos, &r.best.unwrap());
    }
}

mod bots {
    use super::*;

    #[test]
    fn greedy_takes_a_free_queen() {
        let pos = position_from_fen("5x5", "[k3q/5/5/5/K3R:0:1:w]");
        let mut engine = Engine::new(EngineOptions {
            bot: Bot::Greedy,
            ..EngineOptions::default()
        });
        let r = engine.search(&pos, &Limits::depth(1), &mut |_| {});
        assert_eq!(r.best.unwrap()[0].long(false), "(0T1)e1(0T1)e5");
    }

    #[test]
    fn alphabeta_wins_material_and_avoids_losing_it() {
        // The rook can take the queen, which is defended by nothing.
        let pos = position_from_fen("6x6", "[k4q/6/6/6/6/K4R:0:1:w]");
        let mut engine = Engine::default();
        let r = engine.search(&pos, &Limits::depth(3), &mut |_| {});
        assert_eq!(r.best.unwrap()[0].long(false), "(0T1)f1(0T1)f6");
        assert!(matches!(r.score, Score::Cp(c) if c > 500), "{:?}", r.score);
    }

    #[test]
    fn random_bot_is_seeded() {
        let pos = Position::standard();
        let pick = |seed| {
            let mut e = Engine::new(EngineOptions {
                bot: Bot::Random,
                seed,
                ..EngineOptions::default()
            });
            (0..5)
                .map(|_| e.search(&pos, &Limits::depth(1), &mut |_| {}).best.unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(pick(7), pick(7));
        assert_ne!(pick(7), pick(8));
    }

    #[test]
    fn options_are_set_by_name_and_checked() {
        let mut e = Engine::default();
        e.set_option("hash", "4").unwrap();
        e.set_option("Bot", "Greedy").unwrap();
        e.set_option("ActionCap", "10").unwrap();
        assert_eq!(e.options().hash_mb, 4);
        assert_eq!(e.options().bot, Bot::Greedy);
        assert_eq!(e.options().action_cap, 10);
        assert!(e.set_option("Bot", "genius").is_err());
        assert!(e.set_option("Hash", "0").is_err());
        assert!(e.set_option("Nope", "1").is_err());
        let lines: Vec<String> = Engine::option_specs().iter().map(|s| s.uci_line()).collect();
        assert!(
            lines.contains(&"option name Bot type combo default alphabeta var alphabeta var greedy var random".into())
        );
        assert!(lines
            .iter()
            .any(|l| l.starts_with("option name Hash type spin default 16")));
    }
}
