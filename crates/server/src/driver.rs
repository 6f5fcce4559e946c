//! Layer: domain: no HTTP.
//!
//! The engine driver: carries out the game service's requests for an engine search
//! ([`chess5d_play::Think`]): runs the engine process of the side to move, hands the answer back
//! to the game, and goes on while the game asks for more; failures are reported on the game and
//! can be retried.

use crate::engine::Runner;
use crate::error::ServerError;
use crate::seats::SeatToken;
use crate::state::{lock, AppState, Slot};
use chess5d_play::{Think, ThinkBudget};
use chess5d_protocol::Go;
use std::sync::Arc;
use std::time::Duration;

/// How long an engine whose game gave its places up waits for one at its turn.
pub const PLACE_WAIT: Duration = Duration::from_secs(60);

/// The 5DUCI limits of a search and how long to wait for its answer: the game service's one
/// rule ([`ThinkBudget::limits`], which the static site's worker uses too), with the work limit
/// `engine-nodes`, whichever ends it first.
fn limits(budget: ThinkBudget, side: chess5d_rules::Color, nodes: u64) -> (Go, Duration) {
    (budget.limits(Some(nodes)), budget.wait(side))
}

impl AppState {
    /// Asks the game for the engine's turn (on load, on creation); runs it if it has come.
    pub(crate) fn kick_engine(&self, slot: &Arc<Slot>) {
        if self.stopping() {
            return;
        }
        let think = {
            let mut s = lock(&slot.session);
            if s.deleted {
                return;
            }
            s.engine_turn()
        };
        if let Some(t) = think {
            let _ = slot.tx.send(());
            self.run_engine(slot, t);
        }
    }

    /// Runs the search the game asked for, on a blocking thread.
    pub(crate) fn run_engine(&self, slot: &Arc<Slot>, think: Think) {
        let state = self.clone();
        let slot = slot.clone();
        tokio::task::spawn_blocking(move || state.engine_loop(&slot, think));
    }

    /// Plays engine actions while the game asks for them.
    fn engine_loop(&self, slot: &Arc<Slot>, mut think: Think) {
        loop {
            let ci = think.side.index();
            let (game, both) = {
                let s = lock(&slot.session);
                if s.deleted || self.stopping() {
                    drop(s);
                    self.engine_stopped(slot);
                    return;
                }
                (s.game.clone(), s.players.iter().all(chess5d_play::Player::is_engine))
            };
            let (go, timeout) = limits(think.budget, think.side, self.inner.config.limits.engine_nodes);
            let started = std::time::Instant::now();
            let placed = self.engine_places(slot);
            let answer = if let Err(e) = placed {
                Err(e)
            } else {
                let mut engines = lock(&slot.engines);
                let runner = match engines[ci].take() {
                    Some(r) => Ok(r),
                    None => Runner::start(
                        &self.inner.config.engines,
                        &think.player,
                        self.inner.config.limits.engine_budget(),
                    ),
                };
                match runner {
                    Ok(mut r) => {
                        let a = r.think(&game, &go, timeout).map_err(|e| e.to_string());
                        engines[ci] = Some(r);
                        a
                    }
                    Err(e) => Err(e.to_string()),
                }
            };
            // The game was just in use: its places are not given away at once.
            *lock(&slot.touched) = std::time::Instant::now();
            if both {
                // Let people watching an engine game follow it.
                let pause = Duration::from_millis(300).saturating_sub(started.elapsed());
                std::thread::sleep(pause);
            }
            let next = {
                let mut s = lock(&slot.session);
                let before = s.play.checkpoint();
                let effects = s.engine_answer(think.version, answer);
                if s.engine_error.is_some() {
                    lock(&slot.engines)[ci] = None;
                }
                // As for a player's move: an action whose write fails is undone in memory before
                // anyone sees it, and the game says why the engine stopped (`retry-engine` asks
                // again).
                if let Err(e) = self.persist(&s) {
                    s.play.rewind(before);
                    s.engine_busy = false;
                    s.engine_error = Some(format!("the engine's action could not be stored: {e}"));
                    s.bump();
                    drop(s);
                    let _ = slot.tx.send(());
                    return;
                }
                if effects.think.is_none() && s.is_over() {
                    crate::state::end_engines(slot);
                }
                effects.think
            };
            let _ = slot.tx.send(());
            match next {
                Some(t) => think = t,
                None => return,
            }
        }
    }

    /// Takes again the engine places a game gave up for others' turns (see
    /// [`AppState::take_engine_place`]), as its maker, waiting at most [`PLACE_WAIT`] (its
    /// engine is "at work" meanwhile); then the game reports an engine error that `retry-engine`
    /// clears, every action kept. A game read back from the database (its maker unknown) takes
    /// them as a client of its own ([`ClientKey::Restored`](crate::limits::ClientKey::Restored)):
    /// after a restart its engines count in the pool like every other.
    fn engine_places(&self, slot: &Arc<Slot>) -> Result<(), String> {
        let (need, id) = {
            let s = lock(&slot.session);
            (s.players.iter().filter(|p| p.is_engine()).count(), s.id)
        };
        let owner = *lock(&slot.owner).get_or_insert(crate::limits::ClientKey::Restored(id));
        let deadline = std::time::Instant::now() + PLACE_WAIT;
        loop {
            if lock(&slot.held).len() >= need {
                return Ok(());
            }
            let refused = match self.take_engine_place(owner) {
                Ok(p) => {
                    lock(&slot.held).push(p);
                    continue;
                }
                Err(e) => e,
            };
            if self.stopping() || lock(&slot.session).deleted || std::time::Instant::now() >= deadline {
                return Err(format!(
                    "no engine place came free within {} s ({refused}): ask again (retry-engine)",
                    PLACE_WAIT.as_secs()
                ));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// The server stops or the game was deleted while its engine was at work.
    fn engine_stopped(&self, slot: &Slot) {
        let mut s = lock(&slot.session);
        s.engine_busy = false;
        s.bump();
        drop(s);
        let _ = slot.tx.send(());
    }

    /// After an engine failure: forgets the failed engine of the side to move (a new process is
    /// started) and asks again.
    pub(crate) fn retry_engine(&self, id: i64, token: &SeatToken) -> Result<String, ServerError> {
        let slot = self.slot(id)?;
        let (effects, ci) = {
            let mut s = lock(&slot.session);
            let rights = s.rights(token.get(), self.inner.config.public);
            let ci = s.to_move().index();
            (s.play.retry_engine(rights, id)?, ci)
        };
        let old = lock(&slot.engines)[ci].take();
        if let Some(Runner::Process(p)) = old {
            p.quit(Duration::from_millis(300));
        }
        let _ = slot.tx.send(());
        if let Some(t) = effects.think {
            self.run_engine(&slot, t);
        }
        let s = lock(&slot.session);
        let v = s.view_text(
            s.viewer(token.get(), self.inner.config.public),
            chess5d_play::Shown::Live,
        );
        Ok(v)
    }
}
