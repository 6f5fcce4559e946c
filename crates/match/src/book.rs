//! The default openings of a match: deterministic engines replay the same game from the same
//! start, so a match of them would count one game many times. A book gives every game pair a
//! start of its own: a few random legal actions from a variant's start, kept when a shallow
//! search finds the position roughly balanced, all drawn from the match seed (the same seed
//! gives the same book, so shards and reruns agree).

use crate::Opening;
use chess5d_engine::{Bot, Engine, EngineOptions, Limits, Score};
use chess5d_protocol::StartPos;
use chess5d_rules::{Move, Position};

/// How a book is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookOptions {
    /// The fewest and the most random actions from the start (both sides' actions count).
    pub actions: (usize, usize),
    /// A position is kept when the shallow search scores it within this many centipawns.
    pub max_cp: i32,
    /// The depth of that search, in actions (iterative deepening: every finished depth is
    /// judged: no mate, the last two depths within the bound).
    pub depth: u32,
    /// The most nodes that search may spend (a count of work, so the same seed gives the same
    /// book on any machine); when it runs out, the deepest finished iterations are judged.
    pub nodes: u64,
    /// Attempts per opening before it falls back to the variant's start.
    pub attempts: usize,
}

/// The depth of the default book's search: three actions, so that an opening in which the
/// side to move forces mate in two (common in the small variants, and decided before the
/// engines play) is not kept as balanced. Depth 5 was measured (session 9): the books took
/// minutes to make and a 200-game match had about as many pairs decided within 12 plies in
/// both games (28 of 100 against 32): those are lost by the engines' blindness in positions
/// with many timelines, not by the openings.
const BOOK_DEPTH: u32 = 3;

/// The node budget of that search (a count of work: the same book on any machine).
const BOOK_NODES: u64 = 150_000;

impl Default for BookOptions {
    fn default() -> Self {
        BookOptions {
            actions: (2, 4),
            max_cp: 100,
            depth: BOOK_DEPTH,
            nodes: BOOK_NODES,
            attempts: 12,
        }
    }
}

/// One opening of a book: its base start, the actions played from it, and the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The start the actions are played from (`board` names the variant).
    pub base: Opening,
    /// The random actions.
    pub actions: Vec<Vec<Move>>,
    /// The shallow search's score of the final position, for the side to move.
    pub score: Option<i32>,
    /// The opening to play: the position after the actions, sent as 5DFEN.
    pub opening: Opening,
}

/// A SplitMix64 step: small, fast and well mixed, enough to draw seeds from seeds.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Makes `count` openings, cycling over `bases` (the variants of the match), from `seed`.
///
/// No two openings of a book are the same position: in a small variant a few random actions
/// often reach a position already in the book (and a deterministic pair of engines would then
/// replay a game move for move), so such a draw counts as a failed attempt, and when every
/// attempt fails the book tries again with longer random openings before it gives up.
pub fn make_book(bases: &[Opening], count: usize, seed: u64, options: &BookOptions) -> Vec<BookEntry> {
    make_book_reporting(bases, count, seed, options, &|_| {})
}

/// [`make_book`], calling `drafted` with the number of openings drafted so far each time one
/// more is (from the threads that draft them): a large book takes minutes, most of it there.
pub fn make_book_reporting(
    bases: &[Opening],
    count: usize,
    seed: u64,
    options: &BookOptions,
    drafted: &(dyn Fn(usize) + Sync),
) -> Vec<BookEntry> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    make_book_on(bases, count, seed, options, cores, drafted)
}

/// [`make_book_reporting`] on `threads` threads (the same book on any number).
fn make_book_on(
    bases: &[Opening],
    count: usize,
    seed: u64,
    options: &BookOptions,
    threads: usize,
    drafted: &(dyn Fn(usize) + Sync),
) -> Vec<BookEntry> {
    if bases.is_empty() {
        return Vec::new();
    }
    let base = |i: usize| &bases[i % bases.len()];
    let seed_of = |i: usize| mix(seed ^ mix(i as u64));
    // Each opening drafted on its own, on every core (the balance searches are the cost of a
    // book): a draft depends only on its index, so any thread and any order give the same.
    let threads = threads.clamp(1, count.max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let mut drafts: Vec<Option<Draft>> = vec![None; count];
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= count {
                            return out;
                        }
                        // A base's first opening falls back to its start (not yet in the book).
                        let first = i < bases.len();
                        out.push((i, draft(base(i), seed_of(i), options, !first)));
                        drafted(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
                    }
                })
            })
            .collect();
        for worker in workers {
            // A worker that failed leaves its openings to be drawn again below.
            for (i, d) in worker.join().unwrap_or_default() {
                drafts[i] = Some(d);
            }
        }
    });
    // Then in order, knowing the book so far: the drafts decide as the whole search would have
    // (see `Draft`), and only an opening already in the book is drawn again.
    let mut used = std::collections::HashSet::new();
    drafts
        .into_iter()
        .enumerate()
        .map(|(i, d)| {
            let (base, seed) = (base(i), seed_of(i));
            match d {
                Some(Draft::Balanced(e)) if used.insert(entry_key(&e)) => e,
                Some(Draft::Unbalanced { start, relaxed }) => {
                    if used.insert(position_key(&start)) {
                        return start_entry(base);
                    }
                    match relaxed {
                        Some(e) if used.insert(entry_key(&e)) => e,
                        _ => unbalanced(base, &start, seed, options, &mut used).unwrap_or_else(|| start_entry(base)),
                    }
                }
                _ => make_entry(base, seed, options, &mut used),
            }
        })
        .collect()
}

/// What the parallel pass finds for one opening, with an empty book. The book's search is
/// deterministic and a larger book only excludes more positions, so a draft decides what
/// [`make_entry`] would find with the book so far: a balanced opening stands unless the book
/// already has it; when no balanced opening exists with an empty book, none exists with a
/// fuller one, so only the fallbacks remain: the variant's start if the book lacks it, else
/// `relaxed` (found with the start excluded) unless the book has it, else what the search finds
/// with the book so far.
#[derive(Clone, Debug)]
enum Draft {
    Balanced(BookEntry),
    Unbalanced {
        start: Box<Position>,
        relaxed: Option<BookEntry>,
    },
}

/// With `fallback` false, `relaxed` is not searched (None: the in-order pass searches it if it
/// is needed after all).
fn draft(base: &Opening, seed: u64, options: &BookOptions, fallback: bool) -> Draft {
    let Ok(start) = base.start.position() else {
        return Draft::Balanced(start_entry(base));
    };
    let mut alone = std::collections::HashSet::new();
    if let Some(e) = balanced_entry(base, &start, seed, options, &mut alone) {
        return Draft::Balanced(e);
    }
    alone.insert(position_key(&start));
    let relaxed = fallback
        .then(|| unbalanced(base, &start, seed, options, &mut alone))
        .flatten();
    Draft::Unbalanced {
        start: Box::new(start),
        relaxed,
    }
}

/// An entry's key in the book (see [`position_key`]).
fn entry_key(e: &BookEntry) -> String {
    e.opening
        .start
        .position()
        .map_or_else(|_| format!("{:?}", e.opening.start), |p| position_key(&p))
}

/// The entry that plays the variant's start itself.
fn start_entry(base: &Opening) -> BookEntry {
    BookEntry {
        base: base.clone(),
        actions: vec![],
        score: None,
        opening: base.clone(),
    }
}

/// How many times a book lengthens its random openings to find a position it does not have.
const LONGER_TRIES: usize = 4;

fn make_entry(
    base: &Opening,
    seed: u64,
    options: &BookOptions,
    used: &mut std::collections::HashSet<String>,
) -> BookEntry {
    let Ok(start) = base.start.position() else {
        return start_entry(base);
    };
    if let Some(e) = balanced_entry(base, &start, seed, options, used) {
        return e;
    }
    // No balanced opening (a variant its first mover wins by force): its start, once; after
    // that, any opening not yet in the book, balanced or not, rather than a repeated game.
    if used.insert(position_key(&start)) {
        return start_entry(base);
    }
    unbalanced(base, &start, seed, options, used).unwrap_or_else(|| start_entry(base))
}

/// A balanced opening not in `used`, lengthening the random openings when none is found.
fn balanced_entry(
    base: &Opening,
    start: &Position,
    seed: u64,
    options: &BookOptions,
    used: &mut std::collections::HashSet<String>,
) -> Option<BookEntry> {
    (0..=LONGER_TRIES).find_map(|extra| {
        let seed = mix(seed ^ extra as u64);
        let (lo, hi) = (options.actions.0 + extra, options.actions.1 + 2 * extra);
        try_entry(base, start, seed, (lo, hi), options, used, false)
    })
}

/// An opening not in `used` for a variant without a balanced one: rather one a side leads by
/// up to three times the bound than one already lost, else any that is not over.
fn unbalanced(
    base: &Opening,
    start: &Position,
    seed: u64,
    options: &BookOptions,
    used: &mut std::collections::HashSet<String>,
) -> Option<BookEntry> {
    let relaxed = BookOptions {
        max_cp: options.max_cp * 3,
        ..*options
    };
    [false, true].into_iter().find_map(|any| {
        (0..=LONGER_TRIES).find_map(|extra| {
            let seed = mix(seed ^ mix(extra as u64 + 1000));
            let (lo, hi) = (1 + extra, options.actions.1 + 2 * extra);
            try_entry(base, start, seed, (lo, hi), &relaxed, used, any)
        })
    })
}

/// What tells the openings of a book apart: the whole position (every board, the side to
/// move), written out.
fn position_key(pos: &Position) -> String {
    format!("{:?}", pos.to_setup())
}

/// An opening of `lo..=hi` random actions that is balanced (or, with `any`, just not over)
/// and not in `used` (then added).
fn try_entry(
    base: &Opening,
    start: &Position,
    seed: u64,
    (lo, hi): (usize, usize),
    options: &BookOptions,
    used: &mut std::collections::HashSet<String>,
    any: bool,
) -> Option<BookEntry> {
    for attempt in 0..options.attempts {
        let s = mix(seed.wrapping_add(attempt as u64));
        let n = lo + (s % (hi.saturating_sub(lo) as u64 + 1)) as usize;
        let mut random = Engine::new(EngineOptions {
            bot: Bot::Random,
            seed: s | 1,
            ..EngineOptions::default()
        });
        let mut pos = start.clone();
        let mut actions = Vec::new();
        for _ in 0..n {
            let Some(a) = random.search(&pos, &Limits::default(), &mut |_| {}).best else {
                break;
            };
            for m in &a {
                pos.play_unchecked(m);
            }
            pos.submit_unchecked();
            actions.push(a);
        }
        if actions.len() < n {
            continue;
        }
        let key = position_key(&pos);
        if used.contains(&key) {
            continue;
        }
        let score = balanced(&pos, options);
        let mut playable = || random.search(&pos, &Limits::default(), &mut |_| {}).best.is_some();
        if score.is_some() || (any && playable()) {
            used.insert(key);
            return Some(BookEntry {
                base: base.clone(),
                actions,
                score,
                opening: Opening {
                    board: "custom".into(),
                    start: StartPos::Fen(pos.to_setup()),
                },
            });
        }
    }
    None
}

/// The shallow search's score when the position is roughly balanced and not over: the last
/// two finished iterations (an odd and an even depth, which see the position from either
/// side's last action) both score it within the bound, and no iteration found a mate.
fn balanced(pos: &Position, options: &BookOptions) -> Option<i32> {
    let mut engine = Engine::new(EngineOptions {
        bot: Bot::AlphaBeta,
        seed: 1,
        hash_mb: 4,
        ..EngineOptions::default()
    });
    let limits = Limits {
        nodes: Some(options.nodes),
        ..Limits::depth(options.depth)
    };
    // A mate, or an iteration from the one before the last on that finds the position
    // unbalanced, decides: the judgement below always reads that iteration (it is one of
    // the last two), so the deeper ones, the costly ones, are not searched.
    let stop = engine.stop_flag();
    let cp = |s: &Score| match s {
        Score::Cp(cp) if cp.abs() <= options.max_cp => Some(*cp),
        _ => None,
    };
    let mut scores = Vec::new();
    let r = engine.search(pos, &limits, &mut |info| {
        let off = cp(&info.score).is_none();
        if off && (info.depth + 1 >= options.depth || matches!(info.score, Score::Mate(_))) {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        scores.push((info.depth, info.score));
    });
    r.best.as_ref()?;
    if scores.iter().any(|(_, s)| matches!(s, Score::Mate(_))) {
        return None;
    }
    let last = scores.len().checked_sub(2).map_or(&scores[..], |i| &scores[i..]);
    last.iter().try_for_each(|(_, s)| cp(s).map(drop))?;
    cp(&r.score)
}

/// The book as a multi-game 5DPGN: each opening as its variant's start and actions, with a
/// comment giving the shallow score (read back with `--openings FILE`).
pub fn book_5dpgn(book: &[BookEntry]) -> String {
    let mut out = String::new();
    for (i, e) in book.iter().enumerate() {
        let Ok(start) = e.base.start.position() else {
            continue;
        };
        let mut game = chess5d_rules::Game::new(start.clone());
        for a in &e.actions {
            if game.play_action(a).is_err() {
                break;
            }
        }
        let mut headers = vec![
            ("Event".to_string(), format!("chess5d book opening {}", i + 1)),
            ("Result".to_string(), "*".to_string()),
        ];
        if let Some(cp) = e.score {
            headers.push((
                "Annotator".to_string(),
                format!("depth-{BOOK_DEPTH} score {cp:+} cp for the side to move"),
            ));
        }
        match &e.base.start {
            StartPos::Fen(_) => headers.push(("Board".into(), "custom".into())),
            _ => headers.push(("Board".into(), e.base.board.clone())),
        }
        out.push_str(&chess5d_notation::pgn::write(&game, &headers, Some("*")));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn books_are_deterministic_distinct_and_balanced() {
        let bases = vec![
            Opening::variant("Standard").unwrap(),
            Opening::variant("Small").unwrap(),
        ];
        let options = BookOptions::default();
        let a = make_book(&bases, 6, 7, &options);
        let b = make_book(&bases, 6, 7, &options);
        assert_eq!(a, b, "the same seed makes the same book");
        for threads in [1, 3] {
            assert_eq!(
                a,
                make_book_on(&bases, 6, 7, &options, threads, &|_| {}),
                "{threads} threads"
            );
        }
        let c = make_book(&bases, 6, 8, &options);
        assert_ne!(a, c, "another seed, another book");
        let reported = std::sync::Mutex::new(Vec::new());
        let d = make_book_reporting(&bases, 6, 7, &options, &|n| reported.lock().unwrap().push(n));
        assert_eq!(a, d, "reporting does not change the book");
        let mut reported = reported.into_inner().unwrap();
        reported.sort_unstable();
        assert_eq!(reported, [1, 2, 3, 4, 5, 6], "each opening drafted is reported once");
        let starts: std::collections::HashSet<String> = a.iter().map(|e| format!("{:?}", e.opening.start)).collect();
        assert_eq!(starts.len(), 6, "every opening differs");
        for (i, e) in a.iter().enumerate() {
            assert_eq!(e.base, bases[i % 2]);
            // 2 to 4 actions, balanced; or more actions, or a wider bound, when no such
            // opening was found; or (once per variant) the variant's start.
            match e.score {
                Some(cp) => {
                    assert!(cp.abs() <= 3 * options.max_cp, "{e:?}");
                    assert!((1..=4 + 2 * LONGER_TRIES).contains(&e.actions.len()), "{e:?}");
                }
                None => assert!(e.actions.is_empty(), "{e:?}"),
            }
            e.opening.start.position().unwrap();
        }
    }

    /// A book is what drawing its openings one at a time, in order, gives (the definition the
    /// parallel drafts must keep): on a variant won from its start (its start once, then
    /// unbalanced openings), a tiny one (repeated drafts) and a plain one, at any thread count.
    #[test]
    fn a_book_is_its_openings_drawn_one_at_a_time() {
        let bases = vec![
            Opening::variant("Misc - Timeline Fragments").unwrap(),
            Opening::variant("Very Small").unwrap(),
            Opening::variant("Standard").unwrap(),
        ];
        let options = BookOptions {
            nodes: 30_000,
            attempts: 2,
            ..BookOptions::default()
        };
        let (count, seed) = (7, 11);
        let mut used = std::collections::HashSet::new();
        let one_at_a_time: Vec<BookEntry> = (0..count)
            .map(|i| make_entry(&bases[i % 3], mix(seed ^ mix(i as u64)), &options, &mut used))
            .collect();
        assert!(one_at_a_time[0].actions.is_empty(), "Timeline Fragments' start, once");
        assert!(!one_at_a_time[3].actions.is_empty(), "then other openings");
        for threads in [1, 2, 3] {
            assert_eq!(
                make_book_on(&bases, count, seed, &options, threads, &|_| {}),
                one_at_a_time,
                "{threads} threads"
            );
        }
    }

    /// The number of different positions the openings of a book start from.
    fn distinct_positions(book: &[BookEntry]) -> usize {
        book.iter()
            .map(|e| position_key(&e.opening.start.position().unwrap()))
            .collect::<std::collections::HashSet<_>>()
            .len()
    }

    #[test]
    fn a_book_of_a_tiny_variant_never_repeats_an_opening() {
        // 30 openings of a 4x4 variant: few random actions reach few positions, so without
        // the check some would repeat (and deterministic engines would replay their games).
        let bases = vec![Opening::variant("Very Small").unwrap()];
        let book = make_book(&bases, 30, 3, &BookOptions::default());
        assert_eq!(distinct_positions(&book), 30, "every opening differs");
    }

    #[test]
    fn a_variant_won_from_its_start_still_gets_distinct_openings() {
        // White mates in two from the start of this variant and soon after any random start:
        // few openings are balanced, and the start may serve once only.
        let bases = vec![Opening::variant("Misc - Timeline Fragments").unwrap()];
        let book = make_book(&bases, 6, 5, &BookOptions::default());
        assert_eq!(distinct_positions(&book), 6, "every opening differs");
    }

    #[test]
    fn a_forced_mate_is_not_balanced() {
        let options = BookOptions::default();
        // White mates in two from the start of Timeline Fragments.
        let fragments = Opening::variant("Misc - Timeline Fragments").unwrap();
        assert_eq!(balanced(&fragments.start.position().unwrap(), &options), None);
        let standard = Opening::variant("Standard").unwrap();
        let cp = balanced(&standard.start.position().unwrap(), &options);
        assert!(cp.is_some_and(|cp| cp.abs() <= options.max_cp), "{cp:?}");
        // A budget of work, not of time: the same verdict on any machine, however loaded.
        let tiny = BookOptions { nodes: 1, ..options };
        let a = balanced(&standard.start.position().unwrap(), &tiny);
        assert_eq!(a, balanced(&standard.start.position().unwrap(), &tiny));
    }

    #[test]
    fn a_book_reads_back_as_openings() {
        let bases = vec![Opening::variant("Very Small").unwrap()];
        let book = make_book(&bases, 3, 1, &BookOptions::default());
        let text = book_5dpgn(&book);
        let dir = std::env::temp_dir().join(format!("chess5d-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.5dpgn");
        std::fs::write(&path, &text).unwrap();
        let read = Opening::read_file(path.to_str().unwrap()).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(read.len(), 3, "{text}");
        for (r, e) in read.iter().zip(&book) {
            assert_eq!(
                r.start.position().unwrap().to_setup(),
                e.opening.start.position().unwrap().to_setup(),
                "{text}"
            );
        }
    }
}
