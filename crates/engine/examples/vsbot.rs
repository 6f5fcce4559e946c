//! In-process games of the engine against a baseline bot, with a simulated clock (a tuning aid;
//! `chess5d match` is the real thing).
//!
//! `cargo run --release -p chess5d-engine --example vsbot -- [--bot random|greedy] [--games N]
//! [--tc BASE+INC] [--max-actions N] [--variant NAME] [--seed S] [--verbose]`

use chess5d_engine::{Bot, Engine, EngineOptions, Limits};
use chess5d_rules::{Budget, Color, Outcome, Position, Variant};
use std::time::{Duration, Instant};

struct Cfg {
    bot: Bot,
    games: usize,
    base: Duration,
    inc: Duration,
    max_actions: usize,
    variants: Vec<String>,
    seed: u64,
    verbose: bool,
    first: usize,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut cfg = Cfg {
        bot: Bot::Random,
        games: 10,
        base: Duration::from_secs(2),
        inc: Duration::from_millis(50),
        max_actions: 120,
        variants: vec![],
        seed: 1,
        verbose: false,
        first: 0,
    };
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--bot" => cfg.bot = Bot::from_name(&v).expect("bot"),
            "--games" => cfg.games = v.parse().unwrap(),
            "--first" => cfg.first = v.parse().unwrap(),
            "--tc" => {
                let (b, inc) = v.split_once('+').unwrap_or((&v, "0"));
                cfg.base = Duration::from_secs_f64(b.parse().unwrap());
                cfg.inc = Duration::from_secs_f64(inc.parse().unwrap());
            }
            "--max-actions" => cfg.max_actions = v.parse().unwrap(),
            "--variant" => cfg.variants.push(v),
            "--seed" => cfg.seed = v.parse().unwrap(),
            "--verbose" => {
                cfg.verbose = true;
                i += 1;
                continue;
            }
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    if cfg.variants.is_empty() {
        cfg.variants.push("Standard".into());
    }
    let (mut w, mut d, mut l) = (0, 0, 0);
    for g in cfg.first..cfg.first + cfg.games {
        let variant = &cfg.variants[(g / 2) % cfg.variants.len()];
        let engine_white = g % 2 == 0;
        let (score, why, n, maxt) = play(&cfg, variant, engine_white, cfg.seed + g as u64);
        match score {
            1 => w += 1,
            0 => d += 1,
            _ => l += 1,
        }
        println!(
            "game {g} {variant} engine {} : {} ({why}) after {n} actions, max {maxt} timelines | +{w} ={d} -{l}",
            if engine_white { "white" } else { "black" },
            ["loss", "draw", "win"][(score + 1) as usize]
        );
    }
    println!("total +{w} ={d} -{l}");
}

/// Plays one game; returns (engine's score -1/0/1, termination, actions, max timelines).
fn play(cfg: &Cfg, variant: &str, engine_white: bool, seed: u64) -> (i32, String, usize, usize) {
    let mut g = Game {
        pos: Variant::by_name(variant).expect("variant").position(),
        moves: Vec::new(),
        maxt: 0,
        created: [0; 2],
    };
    let result = g.play(cfg, engine_white, seed);
    println!("  timelines created: engine {}, bot {}", g.created[1], g.created[0]);
    if cfg.verbose {
        eprintln!("{}", g.moves.join(" | "));
    }
    (result.0, result.1, result.2, g.maxt)
}

struct Game {
    pos: Position,
    moves: Vec<String>,
    maxt: usize,
    created: [usize; 2],
}

impl Game {
    fn play(&mut self, cfg: &Cfg, engine_white: bool, seed: u64) -> (i32, String, usize) {
        let mut engine = Engine::new(EngineOptions::default());
        let mut bot = Engine::new(EngineOptions {
            bot: cfg.bot,
            seed,
            ..EngineOptions::default()
        });
        let mut clocks = [cfg.base, cfg.base];
        for n in 0..cfg.max_actions {
            let pos = self.pos.clone();
            self.maxt = self.maxt.max(pos.timeline_count());
            let side = pos.to_move();
            let is_engine = (side == Color::White) == engine_white;
            let limits = Limits {
                wtime: Some(clocks[0]),
                btime: Some(clocks[1]),
                winc: Some(cfg.inc),
                binc: Some(cfg.inc),
                ..Limits::default()
            };
            let t = Instant::now();
            let r = if is_engine {
                engine.search(&pos, &limits, &mut |_| {})
            } else {
                bot.search(&pos, &limits, &mut |_| {})
            };
            let took = t.elapsed();
            let sign = if is_engine { -1 } else { 1 };
            if took > clocks[side.index()] {
                return (sign, format!("{side} lost on time ({took:?})"), n);
            }
            if cfg.verbose && (is_engine || took > Duration::from_millis(500)) {
                eprintln!(
                    "  {n}: {} {} tl {} took {:?} depth {} nodes {} score {:?}",
                    if is_engine { "engine" } else { "bot" },
                    side,
                    pos.timeline_count(),
                    took,
                    r.depth,
                    r.nodes,
                    r.score
                );
            }
            clocks[side.index()] = clocks[side.index()] - took + cfg.inc;
            let Some(a) = r.best else {
                return match pos.outcome(Budget::DEFAULT) {
                    Outcome::Checkmate => (sign, format!("{side} mated (no move)"), n),
                    Outcome::Stalemate => (0, "stalemate".into(), n),
                    o => (sign, format!("{side} nobestmove but {}", o.name()), n),
                };
            };
            let mut p = pos.clone();
            for m in &a {
                if let Err(e) = p.play(m) {
                    return (sign, format!("{side} illegal move: {e}"), n);
                }
            }
            if let Err(e) = p.submit() {
                return (sign, format!("{side} illegal action: {e}"), n);
            }
            self.moves
                .push(a.iter().map(|m| m.long(pos.even())).collect::<Vec<_>>().join(" "));
            self.created[usize::from(is_engine)] += p.timeline_count() - pos.timeline_count();
            self.pos = p;
            match self.pos.outcome(Budget::tests(200_000)) {
                Outcome::Checkmate => return (-sign, "checkmate".into(), n + 1),
                Outcome::Stalemate => return (0, "stalemate".into(), n + 1),
                _ => {}
            }
        }
        (0, "max actions".into(), cfg.max_actions)
    }
}
