//! Layer: domain: no HTTP.
//!
//! Clocks: remaining time per side, and the ticker that ends games whose side to move has run
//! out of time (whether or not the player is connected).

use crate::state::{lock, AppState, Slot};
use std::sync::Arc;
use std::time::{Duration, Instant};

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
/// ([`AppState::unload_idle`] after the configured `idle_unload`) and keep those held within
/// the limits ([`AppState::unload_over_limit`]).
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
                    // Games grow as they are played: measured again, and held to the limit.
                    t.measure_games();
                    t.unload_over_limit();
                    let board_idle = Duration::from_secs(t.limits().analysis_idle_secs);
                    t.analyses().reclaim_idle(board_idle);
                }
            })
            .await;
        }
    });
}
