//! Layer: none (used by every layer). A mutex lock that outlives a panic of another holder, and
//! blocking work run off the async threads: a request's own work on tokio's blocking threads,
//! costly work an anonymous client asks for (proofs, imports) on a thread of lower priority.

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

/// How much lower a [`background`] thread runs than the server's other threads (Linux `nice`,
/// as engine processes run): a client's proof or import yields the cores to others' moves.
pub(crate) const BACKGROUND_NICE: i32 = 19;

/// Runs `f` on a thread of its own at a lower priority ([`BACKGROUND_NICE`], where the system
/// has per-thread priorities): for costly work a client asks for (a puzzle proof, an import),
/// so that it takes the cores others' requests leave idle. Not tokio's blocking threads: a
/// thread's priority cannot be raised again, and those threads go on to serve other requests.
pub async fn background<T: Send + 'static>(
    name: &str,
    f: impl FnOnce() -> Result<T, ServerError> + Send + 'static,
) -> Result<T, ServerError> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    spawn_background(name, move || {
        let _ = tx.send(f());
    })
    .map_err(|e| ServerError::Internal(format!("cannot start a thread for {name}: {e}")))?;
    rx.await
        .map_err(|_| ServerError::Internal(format!("internal error: the {name} thread ended without an answer")))?
}

/// Starts `f` on a thread of its own named `chess5d-NAME` (as `top -H` shows it) at the priority
/// of costly work ([`lower_priority`]): every search, proof and import a client starts runs on
/// one of these, so that it takes only the cores the requests leave idle.
pub(crate) fn spawn_background<T: Send + 'static>(
    name: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> std::io::Result<std::thread::JoinHandle<T>> {
    std::thread::Builder::new()
        .name(format!("chess5d-{name}"))
        .spawn(move || {
            lower_priority();
            f()
        })
}

/// Lowers the calling thread's priority by [`BACKGROUND_NICE`]; a system that refuses leaves it.
/// Not Linux's idle scheduling class (`SCHED_IDLE`): a thread of that class starves while the
/// cores are busy (a proof of about a second did not end within a minute beside the test
/// suite), holding its pool's place meanwhile, and its request times out.
pub(crate) fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // Relative to the thread's own (a server started with `nice` stays below it).
        let me = rustix::thread::gettid();
        if let Ok(now) = rustix::process::getpriority_process(Some(me)) {
            let _ = rustix::process::setpriority_process(Some(me), (now + BACKGROUND_NICE).min(19));
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[tokio::test]
    async fn background_work_runs_at_a_lower_priority_and_answers() {
        let mine = rustix::process::getpriority_process(None).unwrap();
        let theirs = background("test", || {
            Ok(rustix::process::getpriority_process(Some(rustix::thread::gettid())).unwrap())
        })
        .await
        .unwrap();
        assert_eq!(theirs, (mine + BACKGROUND_NICE).min(19));
        // The caller's thread is as it was.
        assert_eq!(rustix::process::getpriority_process(None).unwrap(), mine);
        let e = background::<()>("test", || Err(ServerError::Internal("refused".into()))).await;
        assert!(matches!(e, Err(ServerError::Internal(m)) if m == "refused"));
    }
}
