//! Clocks: remaining time per side, and the ticker that ends games whose side to move has run
//! out of time (whether or not the player is connected).

use crate::state::{lock, AppState, Slot};
use chess5d_rules::Color;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A chess clock: remaining time per side, increment.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Clock {
    pub initial_ms: u64,
    pub increment_ms: u64,
    /// White's and Black's remaining time when their turn started.
    pub remaining_ms: [i64; 2],
    #[serde(skip)]
    pub turn_started: Option<Instant>,
}

impl Clock {
    pub fn new(initial_ms: u64, increment_ms: u64) -> Clock {
        Clock {
            initial_ms,
            increment_ms,
            remaining_ms: [initial_ms as i64; 2],
            turn_started: None,
        }
    }

    /// Remaining time of `c` now.
    pub fn now_ms(&self, c: Color, to_move: Color) -> i64 {
        let base = self.remaining_ms[c.index()];
        match self.turn_started {
            Some(t) if c == to_move => base - t.elapsed().as_millis() as i64,
            _ => base,
        }
    }
}

impl AppState {
    /// Ends games whose side to move has run out of time.
    pub(crate) fn tick_clocks(&self) {
        let slots: Vec<Arc<Slot>> = lock(&self.inner.sessions).values().cloned().collect();
        for slot in slots {
            let mut s = lock(&slot.session);
            if s.clock.is_some() && s.check_time() {
                let _ = self.persist(&s);
                drop(s);
                let _ = slot.tx.send(());
            }
        }
    }
}

/// Runs the ticker until the server stops: every 200 ms, flag the side to move of any game in
/// memory whose time is up; every few seconds, let idle games leave memory
/// ([`AppState::unload_idle`] after the configured `idle_unload`).
pub fn spawn_ticker(state: AppState) {
    tokio::spawn(async move {
        let mut iv = tokio::time::interval(Duration::from_millis(200));
        let idle = state.inner.config.idle_unload;
        let mut last_unload = Instant::now();
        loop {
            iv.tick().await;
            if state.stopping() {
                break;
            }
            let t = state.clone();
            let unload = last_unload.elapsed() >= (idle / 4).clamp(Duration::from_millis(200), Duration::from_secs(5));
            if unload {
                last_unload = Instant::now();
            }
            let _ = tokio::task::spawn_blocking(move || {
                t.tick_clocks();
                if unload {
                    t.unload_idle(idle);
                }
            })
            .await;
        }
    });
}
