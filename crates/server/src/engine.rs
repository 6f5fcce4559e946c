//! Layer: domain: no HTTP.
//!
//! Engine players: one engine process (or in-process engine) per engine player of a game.

use crate::config::EngineConfig;
use crate::error::ServerError;
use crate::limits::EngineBudget;
use crate::session::Player;
use crate::sync::BACKGROUND_NICE;
use chess5d_engine::{Engine, EngineOptions};
use chess5d_protocol::{EngineAnswer, EngineProcess, GameState, Go, StartPos};
use chess5d_rules::{Game, Move};
use std::time::Duration;

/// A running engine.
#[derive(Debug)]
pub enum Runner {
    /// A 5DUCI process.
    Process(Box<EngineProcess>),
    /// The built-in engine, searched on a blocking thread.
    Internal(Box<Engine>),
}

impl Runner {
    /// Starts the engine configured for `player`, with its hash table and threads (the limits
    /// `engine-hash-mb` within `engine-hash-total-mb`, and `engine-threads`).
    pub fn start(engines: &[EngineConfig], player: &Player, budget: EngineBudget) -> Result<Runner, ServerError> {
        let (hash_mb, threads) = (budget.hash_mb, budget.threads);
        let Player::Engine { engine, .. } = player else {
            return Err(ServerError::Internal("not an engine player".into()));
        };
        let cfg = find(engines, engine.as_deref())?;
        let bot = player.bot();
        if cfg.command == "@internal" {
            return Ok(Runner::Internal(Box::new(Engine::new(EngineOptions {
                bot,
                hash_mb,
                threads,
                ..EngineOptions::default()
            }))));
        }
        let err = |e: chess5d_protocol::EngineError| ServerError::Internal(format!("engine '{}': {e}", cfg.name));
        let mut p = EngineProcess::start(&niced(&cfg.command), Duration::from_secs(10)).map_err(err)?;
        if p.id().options.iter().any(|o| o.contains("name Bot ")) {
            p.set_option("Bot", bot.name()).map_err(err)?;
        }
        // Each engine player is a process of its own: a small hash table (`engine-hash-mb`,
        // within its part of `engine-hash-total-mb`), so that every engine place of a server
        // held at once fits in its memory.
        if p.id().options.iter().any(|o| o.contains("name Hash ")) {
            p.set_option("Hash", &hash_mb.to_string()).map_err(err)?;
        }
        if threads > 1 && p.id().options.iter().any(|o| o.contains("name Threads ")) {
            p.set_option("Threads", &threads.to_string()).map_err(err)?;
        }
        p.new_game(Duration::from_secs(10)).map_err(err)?;
        Ok(Runner::Process(Box::new(p)))
    }

    /// Asks for an action.
    pub fn think(&mut self, game: &Game, limits: &Go, timeout: Duration) -> Result<(Vec<Move>, String), ServerError> {
        let pos = game.position();
        match self {
            Runner::Internal(e) => {
                let r = e.search(pos, limits, &mut |_| {});
                let info = format!("depth {} score {}", r.depth, r.score);
                r.best
                    .map(|b| (b, info))
                    .ok_or_else(|| ServerError::Internal("the engine found no legal action".into()))
            }
            Runner::Process(p) => match p.go(&game_state(game), pos, limits, timeout) {
                Ok(EngineAnswer::Action(moves)) => Ok((moves, p.last_info.clone().unwrap_or_default())),
                Ok(EngineAnswer::NoMove) => Err(ServerError::Internal("the engine answered nobestmove".into())),
                Err(e) => Err(ServerError::Internal(format!("engine error: {e}"))),
            },
        }
    }
}

/// An engine's command run as the server's own costly work runs: at [`BACKGROUND_NICE`]
/// (`exec nice -n 19 sh -c 'CMD'`), where `nice` is found, else `CMD` as it is. Not in Linux's
/// idle scheduling class (`SCHED_IDLE`): tried, an engine of that class starved beside busy
/// cores (a browser suite's Chromium), so that a game against the computer did not show its
/// engine's name within 30 s; and the soak showed no gain beyond the noise.
fn niced(command: &str) -> String {
    let found = ["/usr/bin/nice", "/bin/nice"]
        .iter()
        .any(|p| std::path::Path::new(p).exists());
    if !found {
        return command.to_string();
    }
    format!(
        "exec nice -n {BACKGROUND_NICE} sh -c '{}'",
        command.replace('\'', "'\\''")
    )
}

/// A game as 5DUCI's `position` command gives it: the variant (or 5DFEN) and the actions.
pub fn game_state(game: &Game) -> GameState {
    let start = match chess5d_notation::start::variant_of(game.start()) {
        Some(v) => StartPos::Variant(v.name.to_string()),
        None => StartPos::Fen(game.start().to_setup()),
    };
    GameState {
        start,
        actions: game.actions().iter().map(|a| a.moves.clone()).collect(),
    }
}

/// The engine of a given name (the first configured one if `None`): the game service's check.
pub fn find<'a>(engines: &'a [EngineConfig], name: Option<&str>) -> Result<&'a EngineConfig, ServerError> {
    let found = chess5d_play::request::find_engine(&names(engines), name)?.clone();
    engines
        .iter()
        .find(|e| e.name == found)
        .ok_or_else(|| ServerError::Internal(format!("engine '{found}' vanished")))
}

/// The names of the configured engines.
pub fn names(engines: &[EngineConfig]) -> Vec<String> {
    engines.iter().map(|e| e.name.clone()).collect()
}
