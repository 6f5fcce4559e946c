//! The parallel solver: a root split. Mates in one are looked for first (lazily, on one
//! thread); then, one more attacker action at a time, the root's actions are shared out among
//! the threads as they come free (each takes the next action not yet taken), and each thread
//! runs df-pn on its actions' positions with a table of its own. The first proven action wins
//! the iteration and stops the others; an iteration where every action is disproven goes one
//! action deeper. The proof or disproof tree is written by the thread that holds the action's
//! numbers, so what [`crate::write_proof`] writes is checked exactly as the serial solver's.

use crate::search::Search;
use crate::{solve_with, Config, Report, Tree, Verdict};
use chess5d_rules::{Budget, Move, Position};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use web_time::Instant;

/// What one root action came to.
enum Settled {
    /// A forced mate after it, with the proof's children below it.
    Proven(Vec<Tree>),
    /// No mate after it, with the disproof's children (when asked for).
    Disproven(Vec<Tree>),
    /// Not decided (a budget ran out, or a disproof rests on an unfinished list).
    Unknown,
}

/// [`crate::solve`] on `threads` threads (1: the serial solver itself). The node budget is
/// shared out evenly, and so is the table's size.
pub fn solve_threads(pos: &Position, config: &Config, threads: usize) -> Report {
    if threads <= 1 || config.max_actions <= 1 {
        return solve_with(pos, config, None, None);
    }
    let start = Instant::now();
    let mut pos = pos.clone();
    pos.undo_action_moves();
    // Mates in one: the serial solver's lazy look, which never lists every action.
    let first = solve_with(
        &pos,
        &Config {
            max_actions: 1,
            ..*config
        },
        None,
        None,
    );
    if !matches!(first.verdict, Verdict::NoWin { .. }) {
        return Report {
            elapsed: start.elapsed(),
            ..first
        };
    }
    let (mut nodes, mut tests) = (first.nodes, first.tests);
    let mut root = pos.legal_actions(Budget::tests(config.list_budget));
    let actions: Vec<Vec<Move>> = root.by_ref().collect();
    tests += root.tests();
    let unknown = |nodes, tests, table| Report {
        verdict: Verdict::Unknown,
        nodes,
        tests,
        table,
        elapsed: start.elapsed(),
    };
    if root.exhausted() {
        // The rules' budget could not list them all.
        return unknown(nodes, tests, (0, 0));
    }
    if actions.is_empty() {
        // No action at all: the serial solver's leaf answers that.
        return solve_with(&pos, config, None, None);
    }
    let even = pos.even();
    let text = |moves: &[Move]| moves.iter().map(|m| m.long(even)).collect::<Vec<_>>().join(" ");
    let per_thread = Config {
        nodes: (config.nodes / threads as u64).max(1),
        table_entries: (config.table_entries / threads).max(2),
        max_tests: config.max_tests / threads as u64,
        ..*config
    };
    let stop = AtomicBool::new(false);
    let mut table = (0, 0);
    let mut verdict = Verdict::Unknown;
    for k in 2..=config.max_actions {
        stop.store(false, Ordering::SeqCst);
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<(usize, Settled)>> = Mutex::new(Vec::new());
        let last = k == config.max_actions;
        // Each thread's search: its own table, made for this iteration (a search holds its
        // progress callback, which is not shared between threads).
        let work: Vec<(u64, u64, usize, usize)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    let (next, results, stop, actions, pos) = (&next, &results, &stop, &actions, &pos);
                    let per_thread = &per_thread;
                    scope.spawn(move || {
                        let mut s = Search::new(pos.to_move(), per_thread, None);
                        s.cancel = Some(stop);
                        let mut pos = pos.clone();
                        loop {
                            let i = next.fetch_add(1, Ordering::SeqCst);
                            if i >= actions.len() || stop.load(Ordering::SeqCst) {
                                break;
                            }
                            let settled = settle(&mut s, &mut pos, &actions[i], k - 1, last);
                            let done = !matches!(settled, Settled::Disproven(_));
                            results.lock().unwrap_or_else(|e| e.into_inner()).push((i, settled));
                            if done {
                                // A proof ends the iteration; so does an undecided action (the
                                // iteration can no longer disprove them all).
                                stop.store(true, Ordering::SeqCst);
                                break;
                            }
                        }
                        (s.nodes, s.tests, s.table.len(), s.table.capacity())
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or((0, 0, 0, 0))).collect()
        });
        for (n, t, len, cap) in work {
            nodes += n;
            tests += t;
            table = (len.max(table.0), cap.max(table.1));
        }
        let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
        results.sort_by_key(|(i, _)| *i);
        if let Some((i, Settled::Proven(children))) = results.iter_mut().find(|(_, s)| matches!(s, Settled::Proven(_)))
        {
            verdict = Verdict::Win {
                actions: k,
                proof: Tree {
                    action: String::new(),
                    children: vec![Tree {
                        action: text(&actions[*i]),
                        children: std::mem::take(children),
                    }],
                },
            };
            break;
        }
        let all_disproven =
            results.len() == actions.len() && results.iter().all(|(_, s)| matches!(s, Settled::Disproven(_)));
        if !all_disproven {
            break;
        }
        if last {
            let children = results
                .into_iter()
                .map(|(i, s)| match s {
                    Settled::Disproven(children) => Tree {
                        action: text(&actions[i]),
                        children,
                    },
                    _ => unreachable!("every action is disproven"),
                })
                .collect();
            verdict = Verdict::NoWin {
                within: k,
                disproof: Tree {
                    action: String::new(),
                    children,
                },
            };
        }
    }
    match verdict {
        Verdict::Unknown => unknown(nodes, tests, table),
        verdict => Report {
            verdict,
            nodes,
            tests,
            table,
            elapsed: start.elapsed(),
        },
    }
}

/// Searches the position after the root action `moves` (the defender to move, `k` attacker
/// actions left) to its end, and writes its tree: the proof's, or (`disproof`) the disproof's.
fn settle(s: &mut Search, pos: &mut Position, moves: &[Move], k: u32, disproof: bool) -> Settled {
    for m in moves {
        pos.play_unchecked(m);
    }
    let settled = pos.with_submitted(|p| {
        s.aborted = false;
        let e = s.solve(p, k);
        // The tree's extraction may search again what the table lost (as the serial solver).
        s.node_limit = s.nodes.saturating_mul(2).max(s.node_limit);
        if e.pn == 0 {
            return s.tree(p, k, true).map_or(Settled::Unknown, Settled::Proven);
        }
        if e.dn == 0 && !e.tainted {
            if !disproof {
                return Settled::Disproven(Vec::new());
            }
            return s.tree(p, k, false).map_or(Settled::Unknown, Settled::Disproven);
        }
        Settled::Unknown
    });
    pos.undo_action_moves();
    settled
}
