//! Layer: domain: no HTTP.
//!
//! The engine driver: asks the engine of the side to move for an action, plays it, and goes on
//! while engines are to move; failures are reported on the game and can be retried.

use crate::engine::Runner;
use crate::error::ServerError;
use crate::seats::{Need, SeatToken};
use crate::session::Player;
use crate::state::{lock, AppState, Slot};
use chess5d_protocol::Go;
use chess5d_rules::Color;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

impl AppState {
    /// Starts the engine driver if an engine is to move and none is thinking.
    pub(crate) fn kick_engine(&self, slot: &Arc<Slot>) {
        {
            let mut s = lock(&slot.session);
            if !s.engine_to_move() || s.engine_busy || s.engine_error.is_some() || self.stopping() {
                return;
            }
            s.engine_busy = true;
        }
        let _ = slot.tx.send(());
        let state = self.clone();
        let slot = slot.clone();
        tokio::task::spawn_blocking(move || state.engine_loop(&slot));
    }

    /// Plays engine actions while an engine is to move.
    fn engine_loop(&self, slot: &Arc<Slot>) {
        loop {
            let (game, version, ci, player, limits, timeout, both) = {
                let mut s = lock(&slot.session);
                if !s.engine_to_move() || self.stopping() {
                    s.engine_busy = false;
                    drop(s);
                    let _ = slot.tx.send(());
                    return;
                }
                let ci = s.to_move().index();
                let player = s.players[ci].clone();
                let movetime = match &player {
                    Player::Engine { movetime_ms, .. } => movetime_ms.unwrap_or(1000),
                    _ => 1000,
                };
                let (limits, timeout) = match &s.clock {
                    Some(c) => {
                        let tm = s.to_move();
                        let ms = |col| Some(Duration::from_millis(c.now_ms(col, tm).max(1) as u64));
                        let inc = Some(Duration::from_millis(c.increment_ms));
                        (
                            Go {
                                wtime: ms(Color::White),
                                btime: ms(Color::Black),
                                winc: inc,
                                binc: inc,
                                ..Go::default()
                            },
                            Duration::from_millis(c.now_ms(tm, tm).max(0) as u64) + Duration::from_secs(5),
                        )
                    }
                    None => (
                        Go::movetime(Duration::from_millis(movetime)),
                        Duration::from_millis(movetime) + Duration::from_secs(10),
                    ),
                };
                let both = s.players.iter().all(Player::is_engine);
                (s.game.clone(), s.version, ci, player, limits, timeout, both)
            };
            let started = std::time::Instant::now();
            let answer = {
                let mut engines = lock(&slot.engines);
                if engines[ci].is_none() {
                    match Runner::start(&self.inner.config.engines, &player) {
                        Ok(r) => engines[ci] = Some(r),
                        Err(e) => {
                            drop(engines);
                            self.engine_failed(slot, e);
                            return;
                        }
                    }
                }
                match engines[ci].as_mut() {
                    Some(r) => r.think(&game, &limits, timeout),
                    None => Err(ServerError::Internal("engine not started".into())),
                }
            };
            if both {
                // Let people watching an engine game follow it.
                let pause = Duration::from_millis(300).saturating_sub(started.elapsed());
                std::thread::sleep(pause);
            }
            match answer {
                Ok((moves, info)) => {
                    let mut s = lock(&slot.session);
                    if s.version != version || s.deleted {
                        continue;
                    }
                    s.engine_info = Some(info);
                    if let Err(e) = s.engine_action(&moves) {
                        drop(s);
                        lock(&slot.engines)[ci] = None;
                        self.engine_failed(slot, e);
                        return;
                    }
                    if s.game.actions().len() >= 1000 {
                        s.finish("1/2-1/2", "action limit");
                    }
                    if let Err(e) = self.persist(&s) {
                        s.engine_error = Some(e.to_string());
                    }
                    drop(s);
                    let _ = slot.tx.send(());
                }
                Err(e) => {
                    lock(&slot.engines)[ci] = None;
                    self.engine_failed(slot, e);
                    return;
                }
            }
        }
    }

    /// After an engine failure: forgets the failed engine of the side to move (a new process is
    /// started) and asks again.
    pub(crate) fn retry_engine(&self, id: i64, token: &SeatToken) -> Result<Value, ServerError> {
        let slot = self.slot(id)?;
        let ci = {
            let mut s = lock(&slot.session);
            s.authorize(s.rights(token.get(), self.inner.config.public), Need::AnySeat)?;
            if s.is_over() {
                return Err(ServerError::Conflict("the game is over".into()));
            }
            if !s.engine_to_move() {
                return Err(ServerError::Conflict("it is not an engine's turn".into()));
            }
            if s.engine_busy {
                return Err(ServerError::Conflict("the engine is already thinking".into()));
            }
            if s.engine_error.is_none() {
                return Err(ServerError::Conflict("the engine has had no problem to retry".into()));
            }
            s.engine_error = None;
            s.version += 1;
            s.to_move().index()
        };
        let old = lock(&slot.engines)[ci].take();
        if let Some(Runner::Process(p)) = old {
            p.quit(Duration::from_millis(300));
        }
        let _ = slot.tx.send(());
        self.kick_engine(&slot);
        let v = lock(&slot.session).view(None);
        Ok(v)
    }

    fn engine_failed(&self, slot: &Slot, e: ServerError) {
        let mut s = lock(&slot.session);
        s.engine_busy = false;
        let side = if s.to_move() == Color::White { "White" } else { "Black" };
        s.engine_error = Some(format!("{side}'s engine failed: {e}"));
        s.version += 1;
        drop(s);
        let _ = slot.tx.send(());
    }
}
