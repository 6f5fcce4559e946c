//! Layer: none (used by every layer). A mutex lock that outlives a panic of another holder, and
//! blocking work run off the async threads.

use crate::error::ServerError;
use std::sync::{Mutex, MutexGuard};

/// Locks `m`; a holder that panicked leaves its data as it was (every change here is made whole
/// before anything can panic, or is repaired by the next one).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `f` on tokio's blocking threads (rules work and database writes never hold an async one).
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ServerError> + Send + 'static,
) -> Result<T, ServerError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ServerError::Internal(format!("internal error: {e}")))?
}
