//! Layer: the ground, below storage. The server's limits (what one client, and all of them
//! together, may take: work, boards, processes, sockets), each a setting with its default and
//! its documentation in one table ([`LIMITS`], which `--limit NAME=N`, the config file's
//! `limit NAME = N` and `API.md` follow), and the counters that keep them ([`Quota`]).
//!
//! A client is its address (an IPv6 address by its /64: one machine gets a whole /64), behind
//! a proxy (`--behind-proxy`) the address the proxy forwarded.

use crate::error::ServerError;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// Largest request body accepted (the HTTP layer's limit; a declared larger one is refused
/// before it is read).
pub const BODY_LIMIT: usize = 256 * 1024;

/// The limits, each a setting (see [`LIMITS`] for their names and meaning).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// `proof-budget`: the work of one puzzle proof, in candidate tests.
    pub proof_budget: u64,
    /// `proofs-per-client`: puzzle proofs one client may run at once.
    pub proofs_per_client: u64,
    /// `proofs`: puzzle proofs running at once in all.
    pub proofs: u64,
    /// `import-bytes`: the longest text to import (a game, an analysis board, a puzzle).
    pub import_bytes: u64,
    /// `import-actions`: the most actions an imported game may have.
    pub import_actions: u64,
    /// `analysis-boards-per-client`: analysis boards one client may hold.
    pub analysis_boards_per_client: u64,
    /// `analysis-boards`: analysis boards in all.
    pub analysis_boards: u64,
    /// `analysis-idle-secs`: an analysis board that no page watches (no WebSocket) and no
    /// request asks for during this long ends (its place goes back to the pool).
    pub analysis_idle_secs: u64,
    /// `analysis-nodes`: the work of one analysis run, in nodes searched (then it stops and
    /// says so; the page starts it again to go on).
    pub analysis_nodes: u64,
    /// `sockets-per-client`: WebSockets one client holds open.
    pub sockets_per_client: u64,
    /// `sockets`: WebSockets open in all.
    pub sockets: u64,
    /// `socket-idle-secs`: a WebSocket that sends nothing (not even a pong to the server's
    /// pings) for this long is closed.
    pub socket_idle_secs: u64,
    /// `socket-send-secs`: a WebSocket whose client does not take what it is sent (the
    /// socket's queue stays full) for this long is closed.
    pub socket_send_secs: u64,
    /// `socket-frame-bytes`: the largest WebSocket frame or message a client may send.
    pub socket_frame_bytes: u64,
    /// `connections-per-client`: TCP connections one address holds open.
    pub connections_per_client: u64,
    /// `connections`: TCP connections open in all.
    pub connections: u64,
    /// `engines-per-client`: engine players of the games one client made (in memory).
    pub engines_per_client: u64,
    /// `engines`: engine players of games made by clients, in all.
    pub engines: u64,
    /// `engine-nodes`: the work of one engine turn of a game, in nodes (besides its time).
    pub engine_nodes: u64,
    /// `engine-hash-mb`: the hash table (`Hash`, in MB) of each engine process the server
    /// starts (games' and analysis boards'): what bounds an engine process's memory.
    pub engine_hash_mb: u64,
    /// `engine-hash-total-mb`: the hash tables of all the engines the server may run at once
    /// (`engines`, `analysis-boards` and `reviews` places), in MB, shared out equally: each
    /// engine's `Hash` is the smaller of `engine-hash-mb` and this divided by those places.
    pub engine_hash_total_mb: u64,
    /// `engine-turn-secs`: a game whose engines are not at work and that nobody has asked for
    /// during this long gives its engine places to a client holding fewer (see
    /// [`crate::AppState`]'s engine turns); its engines take a place again at their turn.
    pub engine_turn_secs: u64,
    /// `analysis-turn-secs`: an analysis board nobody has asked for during this long ends
    /// when a client holding fewer boards is refused one (the untouched longest first).
    pub analysis_turn_secs: u64,
    /// `engine-threads`: the search threads (`Threads`) of each engine the server starts
    /// (games', analysis boards', reviews').
    pub engine_threads: u64,
    /// `games-in-memory`: games held in memory at once; past it, the least recently used ones
    /// that may leave (see [`crate::AppState::unload_idle`]) leave memory for the database.
    pub games_in_memory: u64,
    /// `games-memory-mb`: the memory the games held take, by their estimate
    /// ([`chess5d_play::Play::memory_bytes`]), in MiB; past it, as past `games-in-memory`.
    pub games_memory_mb: u64,
    /// `challenge-secs`: seconds an open challenge stays in the lobby.
    pub challenge_secs: u64,
    /// `challenges-per-client`: open challenges one client may have in the lobby.
    pub challenges_per_client: u64,
    /// `puzzles-per-client`: puzzles one client may have made (they are kept for good).
    pub puzzles_per_client: u64,
    /// `puzzles-per-hour`: puzzle proofs (`POST /api/user-puzzles`) one client may ask for per
    /// hour (each costs up to `proof-budget`).
    pub puzzles_per_hour: u64,
    /// `page-size`: the most entries of one page of a shared list (lobby, puzzles).
    pub page_size: u64,
    /// `imports-per-client`: imports (games, analysis boards) one client may have read at once.
    pub imports_per_client: u64,
    /// `imports`: imports being read at once, in all.
    pub imports: u64,
    /// `imports-per-minute`: imports one client may ask for per minute.
    pub imports_per_minute: u64,
    /// `state-bytes-per-sec`: bytes of game states and records one client may read by `GET`
    /// per second, on average (bursts of 8 s worth).
    pub state_bytes_per_sec: u64,
    /// `reviews-per-client`: computer reviews of games one client may run at once.
    pub reviews_per_client: u64,
    /// `reviews`: computer reviews running at once in all.
    pub reviews: u64,
    /// `review-nodes`: the work of a review's search of one position, in nodes.
    pub review_nodes: u64,
    /// `review-idle-secs`: a review whose progress nobody asked for this long is cancelled.
    pub review_idle_secs: u64,
    /// `reviews-kept`: reviews kept in memory (one per game; the oldest ended one leaves first,
    /// and is read from the database afterwards).
    pub reviews_kept: u64,
    /// `reviews-kept-mb`: the memory the ended reviews kept take, in MiB (their answers'
    /// bytes); past it, the oldest ended ones leave memory.
    pub reviews_kept_mb: u64,
    /// `review-turn-secs`: while clients that hold no review place wait for one, the review
    /// that has run longest gives its place up once it has run this long.
    pub review_turn_secs: u64,
    /// `pairing-per-client`: entries of the quick-pairing pool one anonymous address may have
    /// (an account has one, joining again replaces it).
    pub pairing_per_client: u64,
    /// `pairing`: entries of the quick-pairing pool, in all.
    pub pairing: u64,
}

/// What each engine the server starts may hold: its hash table and its search threads (each
/// at least 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineBudget {
    /// `Hash`, in MB (the limit `engine-hash-mb`).
    pub hash_mb: usize,
    /// `Threads` (the limit `engine-threads`).
    pub threads: usize,
}

impl Limits {
    /// The budget of each engine: `engine-hash-mb`, but no more than its part of
    /// `engine-hash-total-mb` (shared out between every engine place: `engines`,
    /// `analysis-boards`, `reviews`), and `engine-threads`.
    pub fn engine_budget(&self) -> EngineBudget {
        let at_least_one = |n: u64| usize::try_from(n).unwrap_or(usize::MAX).max(1);
        let places = self
            .engines
            .saturating_add(self.analysis_boards)
            .saturating_add(self.reviews)
            .max(1);
        EngineBudget {
            hash_mb: at_least_one(self.engine_hash_mb.min(self.engine_hash_total_mb / places)),
            threads: at_least_one(self.engine_threads),
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            proof_budget: chess5d_play::proof::TOTAL_BUDGET,
            proofs_per_client: 1,
            proofs: 2,
            import_bytes: 32 * 1024,
            import_actions: 2_000,
            analysis_boards_per_client: 2,
            analysis_boards: 16,
            analysis_idle_secs: 180,
            analysis_nodes: 20_000_000,
            sockets_per_client: 16,
            sockets: 512,
            socket_idle_secs: 60,
            socket_frame_bytes: 4096,
            socket_send_secs: 10,
            connections_per_client: 64,
            connections: 768,
            engines_per_client: 4,
            engines: 32,
            engine_nodes: 2_000_000,
            engine_hash_mb: 2,
            engine_hash_total_mb: 128,
            engine_turn_secs: 30,
            analysis_turn_secs: 30,
            engine_threads: 1,
            games_in_memory: 256,
            games_memory_mb: 128,
            challenge_secs: 3600,
            challenges_per_client: 4,
            puzzles_per_client: 20,
            puzzles_per_hour: 60,
            page_size: 100,
            state_bytes_per_sec: 1 << 20,
            imports_per_client: 1,
            imports: 2,
            imports_per_minute: 6,
            reviews_per_client: 1,
            reviews: 2,
            review_nodes: chess5d_play::review::REVIEW_NODES,
            review_idle_secs: 20,
            reviews_kept: 64,
            reviews_kept_mb: 32,
            review_turn_secs: 15,
            pairing_per_client: 4,
            pairing: 10_000,
        }
    }
}

/// One limit: its name (as `--limit NAME=N` writes it), what it bounds, and its field.
#[derive(Debug)]
pub struct Limit {
    /// The setting's name.
    pub name: &'static str,
    /// What it bounds.
    pub doc: &'static str,
    /// Its field.
    pub field: fn(&mut Limits) -> &mut u64,
}

/// Every limit, in the order API.md lists them.
pub const LIMITS: &[Limit] = &[
    Limit {
        name: "proof-budget",
        doc: "work of one puzzle proof, in candidate tests of the rules' search (about 1 s)",
        field: |l| &mut l.proof_budget,
    },
    Limit {
        name: "proofs-per-client",
        doc: "puzzle proofs one client may run at once",
        field: |l| &mut l.proofs_per_client,
    },
    Limit {
        name: "proofs",
        doc: "puzzle proofs running at once, all clients together",
        field: |l| &mut l.proofs,
    },
    Limit {
        name: "import-bytes",
        doc: "longest text to import (games, analysis boards, puzzles), in bytes",
        field: |l| &mut l.import_bytes,
    },
    Limit {
        name: "import-actions",
        doc: "most actions of an imported game",
        field: |l| &mut l.import_actions,
    },
    Limit {
        name: "analysis-boards-per-client",
        doc: "analysis boards one client may hold",
        field: |l| &mut l.analysis_boards_per_client,
    },
    Limit {
        name: "analysis-boards",
        doc: "analysis boards, all clients together",
        field: |l| &mut l.analysis_boards,
    },
    Limit {
        name: "analysis-idle-secs",
        doc: "seconds an analysis board that no page watches (no WebSocket open on it) and no request asks for \
              is kept; then it ends and its place goes back to the pool",
        field: |l| &mut l.analysis_idle_secs,
    },
    Limit {
        name: "analysis-nodes",
        doc: "work of one analysis run, in nodes searched: the engine stops when it is spent and the board says so \
              (`spent`); starting it again goes on, the table keeping what it found",
        field: |l| &mut l.analysis_nodes,
    },
    Limit {
        name: "sockets-per-client",
        doc: "WebSockets (games' and analysis boards') one client holds open",
        field: |l| &mut l.sockets_per_client,
    },
    Limit {
        name: "sockets",
        doc: "WebSockets open, all clients together",
        field: |l| &mut l.sockets,
    },
    Limit {
        name: "socket-idle-secs",
        doc: "seconds a WebSocket may send nothing, not even a pong to the server's pings (sent every third of it)",
        field: |l| &mut l.socket_idle_secs,
    },
    Limit {
        name: "socket-send-secs",
        doc: "seconds a WebSocket's client may leave what it is sent unread (its queue full); then the socket is closed",
        field: |l| &mut l.socket_send_secs,
    },
    Limit {
        name: "socket-frame-bytes",
        doc: "largest WebSocket frame or message a client may send (refused from the frame's header)",
        field: |l| &mut l.socket_frame_bytes,
    },
    Limit {
        name: "connections-per-client",
        doc: "TCP connections one address holds open (not applied --behind-proxy: the proxy's job)",
        field: |l| &mut l.connections_per_client,
    },
    Limit {
        name: "connections",
        doc: "TCP connections open, all clients together",
        field: |l| &mut l.connections,
    },
    Limit {
        name: "engines-per-client",
        doc: "engine players (each an engine process) of the games one client made, while the game is in memory",
        field: |l| &mut l.engines_per_client,
    },
    Limit {
        name: "engines",
        doc: "engine players of games made by clients, all together",
        field: |l| &mut l.engines,
    },
    Limit {
        name: "engine-nodes",
        doc: "work of one engine turn of a game, in nodes searched (the turn ends at its time or at this, whichever comes first)",
        field: |l| &mut l.engine_nodes,
    },
    Limit {
        name: "engine-hash-mb",
        doc: "hash table (the 5DUCI option `Hash`, in MB) of each engine process of games and analysis boards, \
              at most its part of 'engine-hash-total-mb'",
        field: |l| &mut l.engine_hash_mb,
    },
    Limit {
        name: "engine-hash-total-mb",
        doc: "hash tables of all the engines the server may run at once, in MB, shared out equally between the \
              places of 'engines', 'analysis-boards' and 'reviews': each engine's hash is the smaller of \
              'engine-hash-mb' and its part of this (at least 1)",
        field: |l| &mut l.engine_hash_total_mb,
    },
    Limit {
        name: "engine-turn-secs",
        doc: "a game whose engines are not at work and that nobody asked for during this long gives its engine \
              places to a client holding fewer (one holding none takes from anyone) when that client is refused; \
              the game keeps every action and its engine takes a place again when its turn comes",
        field: |l| &mut l.engine_turn_secs,
    },
    Limit {
        name: "analysis-turn-secs",
        doc: "an analysis board nobody asked for during this long ends when a client holding fewer boards (one \
              holding none: anyone's) is refused one, the board untouched longest first",
        field: |l| &mut l.analysis_turn_secs,
    },
    Limit {
        name: "engine-threads",
        doc: "search threads (the 5DUCI option `Threads`) of each engine of games, analysis boards and reviews; \
              each thread is a core kept busy while the engine thinks (a node budget counts the first thread's work)",
        field: |l| &mut l.engine_threads,
    },
    Limit {
        name: "games-in-memory",
        doc: "games held in memory at once, all clients together; past it the least recently used ones leave \
              memory (not those in use: watched, an engine at work, a clock running) and are read back from the \
              database when asked for",
        field: |l| &mut l.games_in_memory,
    },
    Limit {
        name: "games-memory-mb",
        doc: "memory the games held in memory take, in MiB, by each game's estimate (its boards, their written JSON, \
              its texts: about 0.1 MiB for a game of 30 actions, 1 MiB for a game of 15 actions over 60 timelines); \
              past it, as past `games-in-memory`, the least recently used ones leave memory",
        field: |l| &mut l.games_memory_mb,
    },
    Limit {
        name: "challenge-secs",
        doc: "seconds an open challenge stays in the lobby (then it expires: not listed, cannot be accepted)",
        field: |l| &mut l.challenge_secs,
    },
    Limit {
        name: "challenges-per-client",
        doc: "open challenges one client may have in the lobby",
        field: |l| &mut l.challenges_per_client,
    },
    Limit {
        name: "puzzles-per-client",
        doc: "puzzles one client may have made (kept for good)",
        field: |l| &mut l.puzzles_per_client,
    },
    Limit {
        name: "puzzles-per-hour",
        doc: "puzzle proofs one client may ask for per hour",
        field: |l| &mut l.puzzles_per_hour,
    },
    Limit {
        name: "page-size",
        doc: "most entries of one page of a shared list (the lobby, the puzzles)",
        field: |l| &mut l.page_size,
    },
    Limit {
        name: "imports-per-client",
        doc: "imports (of games and analysis boards) one client may have read at once",
        field: |l| &mut l.imports_per_client,
    },
    Limit {
        name: "imports",
        doc: "imports being read at once, all clients together",
        field: |l| &mut l.imports,
    },
    Limit {
        name: "imports-per-minute",
        doc: "imports (of games and analysis boards) one client may ask for per minute",
        field: |l| &mut l.imports_per_minute,
    },
    Limit {
        name: "state-bytes-per-sec",
        doc: "bytes of game states and records one client may read by GET per second, on average",
        field: |l| &mut l.state_bytes_per_sec,
    },
    Limit {
        name: "reviews-per-client",
        doc: "computer reviews of games one client may run at once (a newer one ends its oldest)",
        field: |l| &mut l.reviews_per_client,
    },
    Limit {
        name: "reviews",
        doc: "computer reviews running at once, all clients together (each a thread searching)",
        field: |l| &mut l.reviews,
    },
    Limit {
        name: "review-nodes",
        doc: "work of a review's search of one position, in nodes (besides its depth 4 and 1.2 s); \
              the default reviews a 40-action game in well under a minute",
        field: |l| &mut l.review_nodes,
    },
    Limit {
        name: "review-idle-secs",
        doc: "seconds a review runs on while nobody asks for its progress (its page went away); then it is cancelled",
        field: |l| &mut l.review_idle_secs,
    },
    Limit {
        name: "reviews-kept",
        doc: "reviews kept in memory (the oldest ended one leaves first; ended reviews are also stored with their games)",
        field: |l| &mut l.reviews_kept,
    },
    Limit {
        name: "reviews-kept-mb",
        doc: "memory the ended reviews kept take, in MiB (each kept as its answer's bytes); past it the oldest ended one leaves memory",
        field: |l| &mut l.reviews_kept_mb,
    },
    Limit {
        name: "review-turn-secs",
        doc: "seconds a review runs before it gives its place up to a client waiting for one (the oldest running \
              review first; it ends as cancelled, keeping the actions reviewed so far)",
        field: |l| &mut l.review_turn_secs,
    },
    Limit {
        name: "pairing-per-client",
        doc: "entries in the quick-pairing pool one anonymous address may have (each visitor cookie one); \
              an account has one entry (joining again replaces it)",
        field: |l| &mut l.pairing_per_client,
    },
    Limit {
        name: "pairing",
        doc: "entries in the quick-pairing pool, all clients together",
        field: |l| &mut l.pairing,
    },
];

impl Limits {
    /// Sets a limit from `NAME=N` (`--limit`) or the config file's `NAME = N`.
    pub fn set(&mut self, assignment: &str) -> Result<(), String> {
        let names = || LIMITS.iter().map(|l| l.name).collect::<Vec<_>>().join(", ");
        let (name, value) = assignment
            .split_once('=')
            .ok_or_else(|| format!("--limit wants NAME=N, got '{assignment}' (names: {})", names()))?;
        let (name, value) = (name.trim(), value.trim());
        let limit = LIMITS
            .iter()
            .find(|l| l.name == name)
            .ok_or_else(|| format!("--limit: unknown limit '{name}' (names: {})", names()))?;
        let n = value
            .replace('_', "")
            .parse::<u64>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("--limit {name}: '{value}' is not a positive number"))?;
        *(limit.field)(self) = n;
        Ok(())
    }
}

/// Descriptors the server keeps for itself besides its connections: the listening socket,
/// the database and its journal, logs, the threads' and the runtime's own.
pub const SPARE_DESCRIPTORS: u64 = 64;

/// Descriptors each engine process takes (its three pipes, both ends while it starts).
pub const ENGINE_DESCRIPTORS: u64 = 6;

/// Raises the process's soft limit of open descriptors to its hard limit (Unix; elsewhere
/// nothing): the soft limit it has then, `None` for no limit.
pub fn raise_descriptors() -> Option<u64> {
    #[cfg(unix)]
    {
        use rustix::process::{getrlimit, setrlimit, Resource};
        let now = getrlimit(Resource::Nofile);
        if now.current != now.maximum {
            let raised = rustix::process::Rlimit {
                current: now.maximum,
                maximum: now.maximum,
            };
            if setrlimit(Resource::Nofile, raised).is_err() {
                return now.current;
            }
        }
        getrlimit(Resource::Nofile).current
    }
    #[cfg(not(unix))]
    {
        None
    }
}

impl Limits {
    /// Fits `connections` (and `sockets`, which are connections) to `descriptors` open files:
    /// what the engines (games', analysis boards') and [`SPARE_DESCRIPTORS`] leave. Says what
    /// it lowered; refuses (naming the limits to lower) when fewer than 16 connections fit.
    pub fn fit_descriptors(&mut self, descriptors: u64) -> Result<Option<String>, String> {
        let engines = self
            .engines
            .saturating_add(self.analysis_boards)
            .saturating_add(self.proofs);
        let others = SPARE_DESCRIPTORS.saturating_add(engines.saturating_mul(ENGINE_DESCRIPTORS));
        let room = descriptors.saturating_sub(others);
        if room < 16 {
            return Err(format!(
                "the open-file limit is {descriptors} descriptors: too few for the engines ({engines} processes \
                 at most, limits 'engines', 'analysis-boards', 'proofs') and 16 connections; raise the limit \
                 (ulimit -n) or lower those limits"
            ));
        }
        let mut said = Vec::new();
        if self.connections > room {
            said.push(format!("connections {} -> {room}", self.connections));
            self.connections = room;
        }
        if self.sockets > self.connections {
            said.push(format!("sockets {} -> {}", self.sockets, self.connections));
            self.sockets = self.connections;
        }
        Ok((!said.is_empty()).then(|| {
            format!(
                "the open-file limit is {descriptors} descriptors: lowered {} to fit (raise it with ulimit -n)",
                said.join(", ")
            )
        }))
    }
}

/// Refuses (413) a text to import longer than the limit `import-bytes`, before it is read.
pub fn check_import_text(text: Option<&str>, limits: &Limits) -> Result<(), ServerError> {
    match text {
        Some(t) if t.len() as u64 > limits.import_bytes => Err(ServerError::TooLarge(format!(
            "the text to import is {} bytes long; at most {} (limit 'import-bytes')",
            t.len(),
            limits.import_bytes
        ))),
        _ => Ok(()),
    }
}

/// Refuses (413) an imported game of more actions than the limit `import-actions`.
pub fn check_import_actions(actions: usize, limits: &Limits) -> Result<(), ServerError> {
    if actions as u64 > limits.import_actions {
        return Err(ServerError::TooLarge(format!(
            "the imported game has {actions} actions (its variations' included); at most {} (limit 'import-actions')",
            limits.import_actions
        )));
    }
    Ok(())
}

/// How many times an anonymous address's `*-per-client` limits an account may hold: an
/// account (whose sign-ups are throttled) is one person; an address may be anyone.
pub const ACCOUNT_SHARE: u64 = 2;

/// A client, as every limit counts it: a logged-in account (whatever address it comes from:
/// several accounts behind one address are each a client of their own), else its address: an
/// IPv4 address, or an IPv6 network by its /64 (one machine gets a whole /64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ClientKey {
    /// An IPv4 address (an IPv4 address mapped in IPv6 too).
    V4(std::net::Ipv4Addr),
    /// An IPv6 /64: the address's first 64 bits.
    V6(u64),
    /// A logged-in account, by its id.
    Account(i64),
    /// A game read back from the database (after a restart, or after it left memory) whose
    /// maker is not known, by the game's id: its engines take places as a client of their own,
    /// so that the pool's total holds and others' turns can take them (as an address's).
    Restored(i64),
}

impl ClientKey {
    /// Whether the client is an account.
    pub fn is_account(self) -> bool {
        matches!(self, ClientKey::Account(_))
    }

    /// What this client may hold of a pool whose `*-per-client` limit is `per_client`: that
    /// for an address, [`ACCOUNT_SHARE`] times that for an account.
    pub fn per_client(self, per_client: u64) -> u64 {
        if self.is_account() {
            per_client.saturating_mul(ACCOUNT_SHARE)
        } else {
            per_client
        }
    }

    /// The client as a refusal names it: "your address" or "your account".
    pub fn yours(self) -> &'static str {
        if self.is_account() {
            "your account"
        } else {
            "your address"
        }
    }
}

impl From<IpAddr> for ClientKey {
    fn from(ip: IpAddr) -> ClientKey {
        client_key(ip)
    }
}

impl std::fmt::Display for ClientKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientKey::V4(a) => write!(f, "{a}"),
            ClientKey::V6(net) => {
                let ip = std::net::Ipv6Addr::from(u128::from(*net) << 64);
                write!(f, "{ip}/64")
            }
            ClientKey::Account(id) => write!(f, "account:{id}"),
            ClientKey::Restored(id) => write!(f, "restored game {id}"),
        }
    }
}

/// The key of a client: its address, an IPv6 address by its /64 (an IPv4 address mapped in
/// IPv6 as the IPv4 address).
pub fn client_key(ip: IpAddr) -> ClientKey {
    match ip {
        IpAddr::V4(v4) => ClientKey::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => ClientKey::V4(v4),
            None => ClientKey::V6((u128::from(v6) >> 64) as u64),
        },
    }
}

#[derive(Debug, Default)]
struct Counts {
    all: u64,
    by_client: HashMap<ClientKey, u64>,
    /// Clients that hold none of the pool waiting for a place (see [`Quota::take_waiting`]),
    /// first come first served: a place given back goes to the first of them.
    waiting: std::collections::VecDeque<(ClientKey, tokio::sync::oneshot::Sender<()>)>,
}

/// Whether a place held by a client holding `theirs` places of a pool may go to one holding
/// `mine` (engine and board turns): to a client holding none, or to one holding at least two
/// fewer (so that the turn makes the shares more even, never swaps them).
pub fn may_give_way(mine: u64, theirs: u64) -> bool {
    mine == 0 || theirs > mine.saturating_add(1)
}

/// Clients that may wait at once for a place of one pool ([`Quota::take_waiting`]).
pub const WAITERS: usize = 64;

/// How long a client that holds no place of a small pool (puzzle proofs, imports) waits for
/// one before a 429: those jobs end within a few seconds.
pub const SHORT_WAIT: std::time::Duration = std::time::Duration::from_secs(8);

/// How long a client that holds no review place waits for one before a 429: past
/// `review-turn-secs`, so that a review running that long gives its place up meanwhile.
pub fn review_wait(limits: &Limits) -> std::time::Duration {
    std::time::Duration::from_secs(limits.review_turn_secs.saturating_add(5).min(25))
}

/// The fair share of a pool of `all` places, when `others` other clients hold some: what one
/// client may hold, and the places it may take only as its first ones.
///
/// - Its **share** is `max(1, all / (others + 2))`: the clients holding some, itself, and room
///   for one more (never above the pool's per-client limit).
/// - A **reserve** of `all / 4` places (at least 1 for a pool of 2 or more) is kept for
///   newcomers: a client may take one of the last `reserve` free places only while it holds
///   fewer than its **newcomer** places, `max(1, min(reserve / 8, per_client / 4))`. So until
///   the reserve is shared by many clients (at least `reserve / newcomer`), a client that holds
///   nothing is always served.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    /// What one client may hold now.
    pub share: u64,
    /// The places kept for newcomers.
    pub reserve: u64,
    /// What a client may hold and still take from the reserve.
    pub newcomer: u64,
}

impl Share {
    /// The share of a pool of `all` places (at most `per_client` each) with `others` other
    /// clients holding some.
    pub fn of(all: u64, per_client: u64, others: u64) -> Share {
        let share = (all / others.saturating_add(2)).max(1).min(per_client);
        let reserve = if all >= 2 { (all / 4).max(1) } else { 0 };
        Share {
            share,
            reserve,
            newcomer: (reserve / 8).min(per_client / 4).max(1),
        }
    }
}

/// A pool of places held at once (proofs running, boards, processes, sockets, connections),
/// shared out fairly between clients (see [`Share`]); a [`Permit`] is one place, given back
/// when dropped.
#[derive(Clone, Debug)]
pub struct Quota {
    what: &'static str,
    counts: Arc<Mutex<Counts>>,
}

/// One place of a [`Quota`], held until dropped.
#[derive(Debug)]
pub struct Permit {
    client: ClientKey,
    counts: Arc<Mutex<Counts>>,
}

impl Permit {
    /// The client holding it.
    pub fn client(&self) -> ClientKey {
        self.client
    }
}

impl Quota {
    /// A quota of `what` (for the refusal's message: "puzzle proofs"...).
    pub fn new(what: &'static str) -> Quota {
        Quota {
            what,
            counts: Arc::default(),
        }
    }

    /// One more place for `client` if it holds fewer than `per_client` and its fair share of
    /// the `all` places (see [`Share`]), and the place is not one kept for newcomers; else a
    /// refusal (429) saying which limit and its setting.
    pub fn take(
        &self,
        client: impl Into<ClientKey>,
        per_client: u64,
        all: u64,
        setting: &str,
    ) -> Result<Permit, ServerError> {
        let client = client.into();
        let mut c = crate::sync::lock(&self.counts);
        self.admit(&mut c, client, per_client, all, setting)?;
        Ok(self.permit(client))
    }

    fn permit(&self, client: ClientKey) -> Permit {
        Permit {
            client,
            counts: Arc::clone(&self.counts),
        }
    }

    /// Counts one more place for `client` if the share rule allows it (see [`Quota::take`]).
    /// While newcomers wait for a place, the free places are theirs.
    fn admit(
        &self,
        c: &mut Counts,
        client: ClientKey,
        per_client: u64,
        all: u64,
        setting: &str,
    ) -> Result<(), ServerError> {
        c.waiting.retain(|(_, tx)| !tx.is_closed());
        if !c.waiting.is_empty() {
            return Err(ServerError::Limited(format!(
                "too many {} on this server: {} at once, and {} clients that held none wait for the next \
                 (limit '{setting}'); try again later",
                self.what,
                c.all,
                c.waiting.len()
            )));
        }
        let yours = client.yours();
        // An account may hold more than an address (the setting's name is the address's).
        let setting_per_client = if client.is_account() {
            format!("{setting}-per-client' times {ACCOUNT_SHARE} for an account")
        } else {
            format!("{setting}-per-client'")
        };
        let per_client = client.per_client(per_client);
        let mine = c.by_client.get(&client).copied().unwrap_or(0);
        if mine >= per_client {
            return Err(ServerError::Limited(format!(
                "too many {} from {yours}: {mine} at once, at most {per_client} (limit '{setting_per_client}); \
                 wait for one to end",
                self.what
            )));
        }
        if c.all >= all {
            return Err(ServerError::Limited(format!(
                "too many {} on this server: {} at once, at most {all} (limit '{setting}'); try again later",
                self.what, c.all
            )));
        }
        let others = c.by_client.len() as u64 - u64::from(mine > 0);
        let share = Share::of(all, per_client, others);
        if mine >= share.share {
            return Err(ServerError::Limited(format!(
                "too many {} from {yours}: {mine} at once, your fair share of the {all} of this server \
                 while {} other clients hold some (limit '{setting}'); wait for one to end",
                self.what, others
            )));
        }
        let free_after = all - c.all - 1;
        if free_after < share.reserve && mine >= share.newcomer {
            return Err(ServerError::Limited(format!(
                "too many {} from {yours}: {mine} at once, and the last {} of this server are kept for \
                 clients that hold none (limit '{setting}'); wait for one to end",
                self.what, share.reserve
            )));
        }
        c.all += 1;
        *c.by_client.entry(client).or_default() += 1;
        Ok(())
    }

    /// As [`Quota::take`], but a client that holds none of a full pool waits up to `wait` for
    /// a place: each place given back goes to the first client waiting (at most [`WAITERS`],
    /// one each), before anyone who holds some may take it again. So a newcomer is served as
    /// soon as one place frees, however quickly its holders ask again.
    pub async fn take_waiting(
        &self,
        client: impl Into<ClientKey>,
        per_client: u64,
        all: u64,
        setting: &str,
        wait: std::time::Duration,
    ) -> Result<Permit, ServerError> {
        let client = client.into();
        let (rx, refusal) = {
            let mut c = crate::sync::lock(&self.counts);
            match self.admit(&mut c, client, per_client, all, setting) {
                Ok(()) => return Ok(self.permit(client)),
                Err(e) => {
                    let newcomer = !c.by_client.contains_key(&client);
                    if !newcomer || c.waiting.len() >= WAITERS || c.waiting.iter().any(|(k, _)| *k == client) {
                        return Err(e);
                    }
                    let (tx, rx) = tokio::sync::oneshot::channel();
                    c.waiting.push_back((client, tx));
                    (rx, e)
                }
            }
        };
        // A place handed over while this future is dropped (its request gone) goes back.
        let mut w = Waiting {
            rx,
            place: Some(self.permit_unheld(client)),
        };
        let got = tokio::time::timeout(wait, &mut w.rx).await;
        let _c = crate::sync::lock(&self.counts);
        if matches!(got, Ok(Ok(()))) || w.rx.try_recv().is_ok() {
            return Ok(w.take());
        }
        // Not served: this client's entry (its sender) is dropped with `w`.
        Err(refusal)
    }

    /// A permit not counted yet (for [`Waiting`], which counts it only if handed over).
    fn permit_unheld(&self, client: ClientKey) -> Unheld {
        Unheld {
            client,
            counts: Arc::clone(&self.counts),
        }
    }

    /// Whether clients wait for a place (so holders of long work may give theirs up).
    pub fn has_waiting(&self) -> bool {
        let mut c = crate::sync::lock(&self.counts);
        c.waiting.retain(|(_, tx)| !tx.is_closed());
        !c.waiting.is_empty()
    }

    /// How many are held, in all.
    pub fn held(&self) -> u64 {
        crate::sync::lock(&self.counts).all
    }

    /// How many `client` holds.
    pub fn held_by(&self, client: ClientKey) -> u64 {
        crate::sync::lock(&self.counts)
            .by_client
            .get(&client)
            .copied()
            .unwrap_or(0)
    }

    /// The client holding the most places, with how many (none if nobody holds any).
    pub fn largest(&self) -> Option<(ClientKey, u64)> {
        let c = crate::sync::lock(&self.counts);
        c.by_client.iter().max_by_key(|(_, &n)| n).map(|(&k, &n)| (k, n))
    }
}

/// A place a waiting client will hold once it is handed over.
#[derive(Debug)]
struct Unheld {
    client: ClientKey,
    counts: Arc<Mutex<Counts>>,
}

/// A client waiting for a place: if the place is handed over after the wait was given up (its
/// request gone), it is given back when this is dropped.
struct Waiting {
    rx: tokio::sync::oneshot::Receiver<()>,
    place: Option<Unheld>,
}

impl Waiting {
    /// The place handed over.
    fn take(&mut self) -> Permit {
        let u = self.place.take().expect("taken once");
        Permit {
            client: u.client,
            counts: Arc::clone(&u.counts),
        }
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        if self.place.is_some() && self.rx.try_recv().is_ok() {
            drop(self.take());
        }
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut c = crate::sync::lock(&self.counts);
        // The place goes to the first client waiting for one, if any.
        while let Some((next, tx)) = c.waiting.pop_front() {
            if tx.send(()).is_ok() {
                *c.by_client.entry(next).or_default() += 1;
                if let Some(n) = c.by_client.get_mut(&self.client) {
                    *n -= 1;
                    if *n == 0 {
                        c.by_client.remove(&self.client);
                    }
                }
                return;
            }
        }
        c.all = c.all.saturating_sub(1);
        if let Some(n) = c.by_client.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                c.by_client.remove(&self.client);
            }
        }
    }
}

/// The quotas of a server.
#[derive(Debug)]
pub struct Quotas {
    /// Puzzle proofs running.
    pub proofs: Quota,
    /// Analysis boards held.
    pub analysis_boards: Quota,
    /// WebSockets open.
    pub sockets: Quota,
    /// TCP connections open.
    pub connections: Quota,
    /// Engine players of games in memory.
    pub engines: Quota,
    /// Imports being read.
    pub imports: Quota,
    /// Computer reviews running.
    pub reviews: Quota,
    /// Entries of the quick-pairing pool.
    pub pairing: Quota,
}

impl Default for Quotas {
    fn default() -> Quotas {
        Quotas {
            proofs: Quota::new("puzzle proofs"),
            analysis_boards: Quota::new("analysis boards"),
            sockets: Quota::new("WebSockets"),
            connections: Quota::new("connections"),
            engines: Quota::new("engine players"),
            imports: Quota::new("imports"),
            reviews: Quota::new("computer reviews"),
            pairing: Quota::new("entries in the pairing pool"),
        }
    }
}

/// A per-client budget that refills with time (a token bucket of `rate` per second, holding at
/// most `burst`): requests spend it, and a client whose budget is spent is refused until it
/// has refilled. A spending may run into debt (a large answer charged after it was made): the
/// client then waits longer.
#[derive(Debug)]
pub struct Bucket {
    what: &'static str,
    setting: &'static str,
    left: Mutex<HashMap<ClientKey, (f64, std::time::Instant)>>,
}

impl Bucket {
    /// A budget of `what` ("puzzle proofs"...), set by the limit `setting`.
    pub fn new(what: &'static str, setting: &'static str) -> Bucket {
        Bucket {
            what,
            setting,
            left: Mutex::default(),
        }
    }

    /// Spends `cost` of `client`'s budget (`rate` per second, at most `burst` saved), or
    /// refuses (429) if less than `need` is left (the budget is then not spent).
    pub fn spend(
        &self,
        client: impl Into<ClientKey>,
        cost: f64,
        need: f64,
        rate: f64,
        burst: f64,
    ) -> Result<(), ServerError> {
        let client = client.into();
        let now = std::time::Instant::now();
        let mut m = crate::sync::lock(&self.left);
        if m.len() > 100_000 {
            // Forget the clients whose budget is whole again.
            m.retain(|_, (left, at)| *left + now.duration_since(*at).as_secs_f64() * rate < burst);
        }
        let (left, at) = m.entry(client).or_insert((burst, now));
        *left = (*left + now.duration_since(*at).as_secs_f64() * rate).min(burst);
        *at = now;
        if *left < need {
            let wait = ((need - *left) / rate).ceil().max(1.0);
            return Err(ServerError::Limited(format!(
                "too many {} from {}: wait {wait} s (limit '{}')",
                self.what,
                client.yours(),
                self.setting
            )));
        }
        *left -= cost;
        Ok(())
    }
}

/// The budgets of a server.
#[derive(Debug)]
pub struct Buckets {
    /// Puzzle proofs asked for (`puzzles-per-hour`).
    pub proofs: Bucket,
    /// Bytes of game states read (`state-bytes-per-sec`).
    pub reads: Bucket,
    /// Imports asked for (`imports-per-minute`).
    pub imports: Bucket,
}

impl Default for Buckets {
    fn default() -> Buckets {
        Buckets {
            proofs: Bucket::new("puzzle proofs", "puzzles-per-hour"),
            reads: Bucket::new("bytes of game states read", "state-bytes-per-sec"),
            imports: Bucket::new("imports", "imports-per-minute"),
        }
    }
}

impl Limits {
    /// Charges a puzzle proof to `client` (`puzzles-per-hour`: a burst of a quarter of it).
    pub fn spend_proof(&self, buckets: &Buckets, client: ClientKey) -> Result<(), ServerError> {
        let per_hour = self.puzzles_per_hour as f64;
        buckets
            .proofs
            .spend(client, 1.0, 1.0, per_hour / 3600.0, (per_hour / 4.0).max(1.0))
    }

    /// An import of `client` (a text to read into a game or an analysis board): refused (429)
    /// over `imports-per-minute` (a burst of all of it) or while the client has
    /// `imports-per-client` being read (`imports` in all); the permit is held while it is read.
    /// A client that holds none waits its turn ([`SHORT_WAIT`]).
    pub async fn start_import(
        &self,
        quotas: &Quotas,
        buckets: &Buckets,
        client: ClientKey,
    ) -> Result<Permit, ServerError> {
        let permit = quotas
            .imports
            .take_waiting(client, self.imports_per_client, self.imports, "imports", SHORT_WAIT)
            .await?;
        let per_min = self.imports_per_minute as f64;
        buckets.imports.spend(client, 1.0, 1.0, per_min / 60.0, per_min)?;
        Ok(permit)
    }

    /// Refuses a `GET` of a game state while `client`'s reading budget is spent.
    pub fn may_read(&self, buckets: &Buckets, client: ClientKey) -> Result<(), ServerError> {
        let rate = self.state_bytes_per_sec as f64;
        buckets.reads.spend(client, 0.0, 0.0, rate, rate * 8.0)
    }

    /// Charges `bytes` read to `client` (after the answer was made).
    pub fn charge_read(&self, buckets: &Buckets, client: ClientKey, bytes: usize) {
        let rate = self.state_bytes_per_sec as f64;
        let _ = buckets.reads.spend(client, bytes as f64, f64::MIN, rate, rate * 8.0);
    }

    /// The page asked for by `offset` and `limit` (query parameters): (offset, count), the
    /// count `page-size` if not given; a bad one is a 400 that says why.
    pub fn page(&self, q: &chess5d_play::request::Query) -> Result<(usize, usize), ServerError> {
        use chess5d_play::PlayError;
        q.page(usize::try_from(self.page_size).unwrap_or(usize::MAX))
            .map_err(|e| match e {
                // The bound is this server's setting: say which.
                PlayError::BadQuery {
                    param: "limit",
                    expected,
                    got,
                } => PlayError::BadQuery {
                    param: "limit",
                    expected: format!("{expected} (limit 'page-size')"),
                    got,
                },
                e => e,
            })
            .map_err(ServerError::from)
    }
}

pub use chess5d_play::listing::page_json;

/// A flag set when dropped: held by a request's future, read by its blocking work, so that the
/// work stops when the request times out or its client goes away.
#[derive(Debug, Default)]
pub struct Cancel(Arc<std::sync::atomic::AtomicBool>);

impl Cancel {
    /// The flag, for the work.
    pub fn flag(&self) -> Arc<std::sync::atomic::AtomicBool> {
        Arc::clone(&self.0)
    }
}

impl Drop for Cancel {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clients_are_addresses_and_ipv6_slash_64s() {
        let a: IpAddr = "2001:db8:1:2:3:4:5:6".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff::1".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(client_key(a), client_key(b));
        assert_ne!(client_key(a), client_key(c));
        let mapped: IpAddr = "::ffff:10.0.0.1".parse().unwrap();
        assert_eq!(client_key(mapped), client_key("10.0.0.1".parse::<IpAddr>().unwrap()));
        assert_eq!(client_key(a).to_string(), "2001:db8:1:2::/64");
    }

    #[test]
    fn a_quota_counts_per_client_and_in_all() {
        let q = Quota::new("things");
        let (a, b, c): (IpAddr, IpAddr, IpAddr) = (
            "10.0.0.1".parse().unwrap(),
            "10.0.0.2".parse().unwrap(),
            "10.0.0.3".parse().unwrap(),
        );
        let p1 = q.take(a, 1, 2, "things").unwrap();
        assert!(q
            .take(a, 1, 2, "things")
            .unwrap_err()
            .to_string()
            .contains("things-per-client"));
        let _p2 = q.take(b, 1, 2, "things").unwrap();
        assert!(q
            .take(c, 1, 2, "things")
            .unwrap_err()
            .to_string()
            .contains("limit 'things'"));
        drop(p1);
        assert_eq!(q.held(), 1);
        q.take(c, 1, 2, "things").unwrap();
    }

    /// A pool held by a few clients up to what they may each hold leaves a place to a newcomer,
    /// in every pool of the default limits.
    #[test]
    fn a_newcomer_is_served_while_a_few_clients_hold_a_pool() {
        let l = Limits::default();
        for (per_client, all) in [
            (l.engines_per_client, l.engines),
            (l.analysis_boards_per_client, l.analysis_boards),
            (l.sockets_per_client, l.sockets),
            (l.connections_per_client, l.connections),
        ] {
            let q = Quota::new("things");
            let mut held = Vec::new();
            // As many addresses as filled the pool before (each to its per-client limit: 8
            // for the engines, 8 for the boards, 32 for the sockets, 12 for the connections)
            // take all they can.
            let few = all / per_client;
            for i in 0..few {
                let ip = IpAddr::from([10, 0, (i / 256) as u8, (i % 256) as u8]);
                while let Ok(p) = q.take(ip, per_client, all, "things") {
                    held.push(p);
                }
            }
            assert!(q.held() < all, "{all} places were all taken by {few} clients");
            let newcomer: IpAddr = "192.0.2.1".parse().unwrap();
            q.take(newcomer, per_client, all, "things")
                .unwrap_or_else(|e| panic!("pool of {all}, {per_client} each: the newcomer is refused: {e}"));
        }
    }

    /// A pool of 2 held by two clients (the reviews', proofs', imports'): a newcomer waits
    /// and is served by the first place given back, however quickly its holder asks again;
    /// a waiter that gives up leaves nothing held.
    #[tokio::test]
    async fn a_newcomer_served_in_a_small_pool() {
        let q = Quota::new("things");
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let (a, b, c) = (ip("10.0.0.1"), ip("10.0.0.2"), ip("10.0.0.3"));
        let pa = q.take(a, 1, 2, "things").unwrap();
        let _pb = q.take(b, 1, 2, "things").unwrap();
        assert!(q.take(c, 1, 2, "things").is_err());
        let q2 = q.clone();
        let waiter = tokio::spawn(async move {
            q2.take_waiting(c, 1, 2, "things", std::time::Duration::from_secs(5))
                .await
        });
        while !q.has_waiting() {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        drop(pa);
        // The holder asks again at once: the place is the newcomer's.
        assert!(q.take(a, 1, 2, "things").is_err());
        let pc = waiter.await.unwrap().unwrap();
        assert_eq!((q.held(), q.held_by(c.into()), q.held_by(a.into())), (2, 1, 0));
        // A holder does not wait; a newcomer that waits in vain leaves nothing behind.
        let quick = std::time::Duration::from_millis(30);
        assert!(q.take_waiting(c, 1, 2, "things", quick).await.is_err());
        assert!(q.take_waiting(a, 1, 2, "things", quick).await.is_err());
        assert!(!q.has_waiting());
        drop(pc);
        assert_eq!(q.held(), 1);
        q.take(a, 1, 2, "things").unwrap();
    }

    #[test]
    fn accounts_hold_twice_an_address_and_are_clients_of_their_own() {
        let q = Quota::new("things");
        let addr: IpAddr = "10.0.0.1".parse().unwrap();
        let mut held = Vec::new();
        while let Ok(p) = q.take(addr, 2, 100, "things") {
            held.push(p);
        }
        for id in [1, 2] {
            let mut n = 0;
            while let Ok(p) = q.take(ClientKey::Account(id), 2, 100, "things") {
                held.push(p);
                n += 1;
            }
            assert_eq!(n, (2 * ACCOUNT_SHARE) as usize, "account {id}");
        }
        assert_eq!(q.held_by(addr.into()), 2);
        let e = q.take(ClientKey::Account(1), 2, 100, "things").unwrap_err().to_string();
        assert!(e.contains("your account") && e.contains("for an account"), "{e}");
    }

    #[test]
    fn shares_shrink_as_clients_come_and_keep_a_reserve() {
        // 32 places, 4 each: a client alone takes 4; with 10 others it may take 2 (32 / 12).
        assert_eq!(Share::of(32, 4, 0).share, 4);
        assert_eq!(Share::of(32, 4, 10).share, 2);
        assert_eq!(Share::of(32, 4, 40).share, 1);
        assert_eq!(Share::of(32, 4, 0).reserve, 8);
        assert_eq!(Share::of(512, 16, 0).newcomer, 4);
        assert_eq!(Share::of(2, 1, 1).reserve, 1);
        assert_eq!(Share::of(1, 1, 0).reserve, 0);
    }

    #[test]
    fn connection_limits_fit_the_descriptors() {
        // The usual soft limit of 1,024 does not hold 768 connections beside 50 engines' pipes.
        let mut l = Limits::default();
        let said = l.fit_descriptors(1024).unwrap().unwrap();
        assert!(said.contains("connections 768 -> 660"), "{said}");
        assert_eq!(l.connections, 1024 - SPARE_DESCRIPTORS - 50 * ENGINE_DESCRIPTORS);
        assert!(l.sockets <= l.connections);
        // A large limit changes nothing; a tiny one refuses to start, naming the limits.
        let mut l = Limits::default();
        assert_eq!(l.fit_descriptors(1 << 20).unwrap(), None);
        assert_eq!(l, Limits::default());
        let e = Limits::default().fit_descriptors(200).unwrap_err();
        assert!(e.contains("ulimit -n") && e.contains("'engines'"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn the_soft_descriptor_limit_is_raised_to_the_hard_one() {
        use rustix::process::{getrlimit, Resource};
        let got = raise_descriptors();
        let now = getrlimit(Resource::Nofile);
        assert_eq!(got, now.current);
        if now.maximum.is_some() {
            assert_eq!(now.current, now.maximum);
        }
    }

    #[test]
    fn the_engines_hash_tables_share_one_budget() {
        let mut l = Limits::default();
        assert_eq!(l.engine_budget().hash_mb, 2);
        // 64 MB each asked for: 128 MB shared by 32 + 16 + 2 places.
        l.set("engine-hash-mb=64").unwrap();
        assert_eq!(l.engine_budget().hash_mb, 2);
        l.set("engine-hash-total-mb=1000").unwrap();
        assert_eq!(l.engine_budget().hash_mb, 20);
        // More places than megabytes: 1 MB each, never 0.
        l.set("engines=5000").unwrap();
        assert_eq!(l.engine_budget().hash_mb, 1);
    }

    #[test]
    fn turns_even_the_shares_and_never_swap_them() {
        assert!(may_give_way(0, 1));
        assert!(!may_give_way(1, 2));
        assert!(may_give_way(1, 3));
        assert!(!may_give_way(2, 2));
    }

    #[test]
    fn limits_are_set_by_name() {
        let mut l = Limits::default();
        l.set("proof-budget = 1_000").unwrap();
        assert_eq!(l.proof_budget, 1000);
        assert!(l.set("proof-budget=0").unwrap_err().contains("positive"));
        assert!(l.set("nonsense=3").unwrap_err().contains("unknown limit 'nonsense'"));
        assert!(l.set("proofs").unwrap_err().contains("NAME=N"));
    }
}
