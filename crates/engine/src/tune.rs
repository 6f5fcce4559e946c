//! Texel tuning: fit the evaluation's [`Weights`] on positions labelled with the result of the
//! game they were played in.
//!
//! The evaluation is linear in its weights: [`features`] gives, for a position, the vector
//! whose dot product with the weights (in the order of [`Weights::NAMES`]) is
//! [`evaluate_weights`](crate::evaluate_weights), up to the rounding of two integer divisions
//! (under 2 centipawns). A position's label is the game's result from the side to move's view
//! (1 a win, 0.5 a draw, 0 a loss); the loss is the mean squared error between the label and
//! `sigmoid(K * eval / 400)`, `sigmoid(x) = 1 / (1 + 10^-x)`. [`fit_k`] fits `K` with given
//! weights (the engine's, so that the scale of the evaluation stays that of the search's
//! margins), then [`fit`] fits the weights with `K` fixed (Adam on the whole data set).
//!
//! [`read_games`] reads a multi-game 5DPGN file (as `chess5d match --pgn` writes), replays
//! every game and keeps its quiet positions (see [`ReadOptions`]). `chess5d tune` is the
//! command over all of it; [`weights_source`] writes the fitted weights as the source of
//! `weights.rs`.

use crate::eval::{centralised, centre_steps, has_past, pawn_advance, royal_neighbours, timeline_weight};
use crate::terms::{Weights, WEIGHT_COUNT};
use chess5d_notation::Games;
use chess5d_rules::{BoardId, Color, Game, Position};
use std::fmt;
use std::io::BufRead;
use std::path::Path;

/// The feature vector of a position, in the order of [`Weights::NAMES`], from the side to
/// move's point of view.
pub type Features = [f64; WEIGHT_COUNT];

/// Weights as real numbers (what the fit works on), in the order of [`Weights::NAMES`].
pub type RealWeights = [f64; WEIGHT_COUNT];

const ACTIVE_TIMELINE: usize = 12;
const INACTIVE_TIMELINE: usize = 13;
const ROYAL_DANGER: usize = 14;
const ROYAL_SHIELD: usize = 15;
const IN_CHECK: usize = 16;
const TRAVELLER: usize = 17;
const TEMPO: usize = 18;
const PAWN_ADVANCE: usize = 19;
const CENTRE: usize = 20;

/// The features of `pos` (whether its side to move is in check is computed).
pub fn features(pos: &Position) -> Features {
    features_checked(pos, pos.in_check())
}

/// The features of `pos` when whether its side to move is in check is known.
///
/// Mirrors the evaluation term by term: material, pawn advancement, centralisation and
/// travellers are averaged over the latest boards of the timelines (weighted by activity),
/// royal safety is summed (a quarter per unit of weight), extra timelines are counted (White's
/// positive, Black's negative), check is -1 and the tempo is 1.
pub fn features_checked(pos: &Position, in_check: bool) -> Features {
    let size = pos.size();
    let (w, h) = (size.width as i32, size.height as i32);
    let (init_min, init_max) = pos.initial_timelines();
    let mut averaged = [0i64; WEIGHT_COUNT]; // sums of weight * count, over `weights`
    let mut weights = 0i64;
    let mut f = [0f64; WEIGHT_COUNT];
    let mut pieces = Vec::new();
    for l in pos.timelines() {
        let Some(t) = pos.timeline_end(l) else { continue };
        let Some(board) = pos.board(BoardId::new(l, t)) else {
            continue;
        };
        let active = pos.is_active(l);
        let weight = i64::from(timeline_weight(active));
        let past = has_past(pos, l, t);
        let timeline = if active { ACTIVE_TIMELINE } else { INACTIVE_TIMELINE };
        if l > init_max {
            f[timeline] += 1.0;
        } else if l < init_min {
            f[timeline] -= 1.0;
        }
        pieces.clear();
        pieces.extend(board.pieces());
        for &(sq, p) in &pieces {
            let sign = if p.color() == Color::White { 1i64 } else { -1 };
            let role = p.role();
            averaged[Weights::role_index(role)] += sign * weight;
            if role.is_pawnlike() {
                averaged[PAWN_ADVANCE] += sign * weight * i64::from(pawn_advance(p, sq.y(), h));
            } else if centralised(role) {
                averaged[CENTRE] += sign * weight * i64::from(centre_steps(sq, w, h));
            }
            if role.is_royal() {
                let (danger, shield) = royal_neighbours(&pieces, sq, p);
                f[ROYAL_DANGER] -= (sign * weight * i64::from(danger)) as f64 / 4.0;
                f[ROYAL_SHIELD] += (sign * weight * i64::from(shield)) as f64 / 4.0;
            } else if past && !role.is_pawnlike() {
                averaged[TRAVELLER] += sign * weight;
            }
        }
        weights += weight;
    }
    if weights > 0 {
        for (i, &a) in averaged.iter().enumerate() {
            f[i] += a as f64 / weights as f64;
        }
    }
    if pos.to_move() == Color::Black {
        for x in &mut f {
            *x = -*x;
        }
    }
    f[IN_CHECK] = if in_check { -1.0 } else { 0.0 };
    f[TEMPO] = 1.0;
    f
}

/// Weights as real numbers.
pub fn real(w: &Weights) -> RealWeights {
    w.to_array().map(f64::from)
}

/// Real weights rounded to the nearest integers.
pub fn rounded(w: &RealWeights) -> Weights {
    Weights::from_array(w.map(|x| x.round() as i32))
}

/// The evaluation the weights give to features: their dot product.
#[inline]
pub fn dot(w: &RealWeights, f: &Features) -> f64 {
    w.iter().zip(f).map(|(a, b)| a * b).sum()
}

/// The Texel sigmoid: the expected score of an evaluation `eval` (centipawns) at scale `k`.
#[inline]
pub fn sigmoid(eval: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// A labelled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Its features (see [`features`]).
    pub features: Features,
    /// The result of its game from its side to move's view: 1, 0.5 or 0.
    pub result: f64,
    /// The roles present in it (bit [`Weights::role_index`]), for the statistics.
    pub roles: u16,
}

/// The mean squared error of the weights' predictions on the samples, at scale `k`.
pub fn loss(samples: &[Sample], w: &RealWeights, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let e = s.result - sigmoid(dot(w, &s.features), k);
            e * e
        })
        .sum();
    sum / samples.len() as f64
}

/// The scale `K` (in 0.01..10) that minimises the loss of fixed weights (a golden-section
/// search; the loss is unimodal in `K`).
pub fn fit_k(samples: &[Sample], w: &RealWeights) -> f64 {
    let (mut a, mut b) = (0.01f64, 10.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (loss(samples, w, c), loss(samples, w, d));
    while b - a > 1e-4 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = loss(samples, w, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = loss(samples, w, d);
        }
    }
    (a + b) / 2.0
}

/// How [`fit`] runs.
#[derive(Clone, Debug, PartialEq)]
pub struct FitOptions {
    /// Adam steps over the whole data set at most.
    pub iterations: usize,
    /// Adam's step size, in centipawns.
    pub learning_rate: f64,
    /// Weights kept at their start value (besides those whose feature is 0 in every sample,
    /// which the data cannot determine and are always kept).
    pub frozen: [bool; WEIGHT_COUNT],
    /// Stop when the loss improved by less than this over 100 steps.
    pub tolerance: f64,
    /// A ridge toward the start weights (a prior: the fit moves a weight only as far as the
    /// data ask): `l2 * sum(((w - start) / 100)^2)` is added to the loss.
    pub l2: f64,
    /// Weights the ridge does not hold (fitted on the data alone).
    pub unridged: [bool; WEIGHT_COUNT],
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            iterations: 20_000,
            learning_rate: 1.0,
            frozen: [false; WEIGHT_COUNT],
            tolerance: 1e-9,
            l2: 0.0,
            unridged: [false; WEIGHT_COUNT],
        }
    }
}

/// The result of [`fit`].
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The fitted weights.
    pub weights: RealWeights,
    /// Which weights were kept at their start value.
    pub frozen: [bool; WEIGHT_COUNT],
    /// The loss of the fitted weights on the samples (without the ridge).
    pub loss: f64,
    /// Adam steps taken.
    pub iterations: usize,
}

/// Fits the weights on the samples at scale `k`, from `start`: Adam on the whole data set
/// (the gradient of the mean squared error, plus the ridge's), until the loss stops
/// improving.
pub fn fit(samples: &[Sample], start: &RealWeights, k: f64, opts: &FitOptions) -> Fit {
    let mut frozen = opts.frozen;
    for (i, fr) in frozen.iter_mut().enumerate() {
        if samples.iter().all(|s| s.features[i] == 0.0) {
            *fr = true;
        }
    }
    let mut w = *start;
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut m = [0f64; WEIGHT_COUNT];
    let mut v = [0f64; WEIGHT_COUNT];
    let scale = k * std::f64::consts::LN_10 / 400.0;
    let n = samples.len().max(1) as f64;
    let l2: [f64; WEIGHT_COUNT] = std::array::from_fn(|i| if opts.unridged[i] { 0.0 } else { opts.l2 });
    let ridge = |w: &RealWeights| -> f64 {
        (0..WEIGHT_COUNT)
            .map(|i| l2[i] * ((w[i] - start[i]) / 100.0).powi(2))
            .sum::<f64>()
    };
    // The best weights seen (checked every 100 steps): Adam's steps do not settle exactly, so
    // the fit stops when the best has not improved by `tolerance` five checks in a row.
    let mut best = (loss(samples, &w, k) + ridge(&w), w);
    let mut stalled = 0;
    let mut steps = 0;
    for step in 1..=opts.iterations {
        let mut grad = [0f64; WEIGHT_COUNT];
        for s in samples {
            let p = sigmoid(dot(&w, &s.features), k);
            let g = 2.0 * (p - s.result) * p * (1.0 - p) * scale;
            for (gi, fi) in grad.iter_mut().zip(&s.features) {
                *gi += g * fi;
            }
        }
        for i in 0..WEIGHT_COUNT {
            if frozen[i] {
                continue;
            }
            let g = grad[i] / n + 2.0 * l2[i] * (w[i] - start[i]) / 10_000.0;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(step as i32));
            let vh = v[i] / (1.0 - b2.powi(step as i32));
            w[i] -= opts.learning_rate * mh / (vh.sqrt() + eps);
        }
        steps = step;
        if step % 100 == 0 {
            let now = loss(samples, &w, k) + ridge(&w);
            if now < best.0 - opts.tolerance {
                stalled = 0;
            } else {
                stalled += 1;
            }
            if now < best.0 {
                best = (now, w);
            }
            if stalled >= 5 {
                break;
            }
        }
    }
    let w = best.1;
    Fit {
        loss: loss(samples, &w, k),
        weights: w,
        frozen,
        iterations: steps,
    }
}

/// Splits games in two: a game goes to the second part when the hash of its file, its pair
/// (games `2p + 1` and `2p + 2` of a file: a match plays each opening twice, colours swapped,
/// so the two stay together) and `seed` is 0 modulo `every` (`every` 0: none does). A hash
/// rather than the index, because a match over the variants gives pair `p` variant `p mod 39`:
/// a fixed stride over the pairs would follow the variants' order, and a stride sharing a
/// factor with their number would hold out only some variants.
pub fn split_games(games: &[GameSamples], every: usize, seed: u64) -> (Vec<Sample>, Vec<Sample>) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for g in games {
        if every > 0 && in_split(g, every, seed) {
            b.extend_from_slice(&g.samples);
        } else {
            a.extend_from_slice(&g.samples);
        }
    }
    (a, b)
}

/// A key of a file's name for [`GameSamples::file`]: its base name's FNV-1a hash (the same
/// file splits the same way from any directory and among any other files).
pub fn file_key(path: &Path) -> u64 {
    let name = path
        .file_name()
        .map_or_else(|| path.to_string_lossy(), |n| n.to_string_lossy());
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Whether [`split_games`] puts a game in the second part.
pub fn in_split(g: &GameSamples, every: usize, seed: u64) -> bool {
    every > 0 && bucket(g, every, seed) == 0
}

/// The bucket (of `n`, from 0) of a game's pair, by a hash of its file, its pair and `seed`.
pub fn bucket(g: &GameSamples, n: usize, seed: u64) -> usize {
    // SplitMix64 of the file, the pair and the seed.
    let mut z = g.file ^ (g.number.saturating_sub(1) / 2) as u64 ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z % n.max(1) as u64) as usize
}

/// The `folds`-fold cross-validated loss of a fit: the games' pairs go to `folds` buckets (by
/// [`bucket`] with `seed`); each bucket's positions are predicted by the (rounded) weights
/// fitted on the others. Returns the mean squared error over every position.
pub fn cross_validate(
    games: &[GameSamples],
    folds: usize,
    seed: u64,
    start: &RealWeights,
    k: f64,
    opts: &FitOptions,
) -> f64 {
    let (mut sum, mut count) = (0.0, 0usize);
    for f in 0..folds {
        let (mut fit_on, mut check) = (Vec::new(), Vec::new());
        for g in games {
            if bucket(g, folds, seed) == f {
                check.extend_from_slice(&g.samples);
            } else {
                fit_on.extend_from_slice(&g.samples);
            }
        }
        if check.is_empty() {
            continue;
        }
        let w = real(&rounded(&fit(&fit_on, start, k, opts).weights));
        sum += loss(&check, &w, k) * check.len() as f64;
        count += check.len();
    }
    if count == 0 {
        0.0
    } else {
        sum / count as f64
    }
}

/// Which positions of a game become samples.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadOptions {
    /// Positions before this many actions of the game (from its start position, which for a
    /// match game is the position after its opening) are skipped.
    pub skip_actions: usize,
}

impl Default for ReadOptions {
    fn default() -> ReadOptions {
        ReadOptions { skip_actions: 2 }
    }
}

/// The samples of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSamples {
    /// Which file it came from: the `file_key` given to [`read_games`] (`chess5d tune` gives
    /// [`file_key`] of the file's name, so that a split does not depend on the other files).
    pub file: u64,
    /// Its number in its file, from 1.
    pub number: usize,
    /// Its quiet positions.
    pub samples: Vec<Sample>,
}

/// What [`read_games`] read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// Games read with a result.
    pub games: usize,
    /// Games without a result (`*` or none), skipped.
    pub unfinished: usize,
    /// Positions kept.
    pub positions: usize,
    /// Positions skipped because the side to move was in check.
    pub in_check: usize,
    /// Positions skipped because they came within the first actions.
    pub opening: usize,
}

/// A file or game the tuner could not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TuneError {
    /// The file.
    pub file: String,
    /// The game (its number in the file, from 1), if the error is in one.
    pub game: Option<usize>,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for TuneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.game {
            Some(g) => write!(f, "{}: game {}: {}", self.file, g, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for TuneError {}

/// White's score in a game of result `r` (`1-0`, `0-1`, `1/2-1/2`), `None` for anything else.
pub fn white_score(r: &str) -> Option<f64> {
    match r.trim() {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" | "½-½" => Some(0.5),
        _ => None,
    }
}

/// Reads every game of a multi-game 5DPGN file, replays it and appends the samples of each
/// game with a result to `out`. A file that cannot be opened, a game that cannot be read, and
/// an action that cannot be replayed are errors naming the file and the game.
pub fn read_games(
    path: &Path,
    file_key: u64,
    opts: &ReadOptions,
    out: &mut Vec<GameSamples>,
) -> Result<ReadStats, TuneError> {
    let file = path.display().to_string();
    let err = |game: Option<usize>, message: String| TuneError {
        file: file.clone(),
        game,
        message,
    };
    let f = std::fs::File::open(path).map_err(|e| err(None, format!("cannot open: {e}")))?;
    read_games_from(std::io::BufReader::new(f), &file, file_key, opts, out)
}

/// [`read_games`] on a stream; `name` names it in errors.
pub fn read_games_from<R: BufRead>(
    reader: R,
    name: &str,
    file_key: u64,
    opts: &ReadOptions,
    out: &mut Vec<GameSamples>,
) -> Result<ReadStats, TuneError> {
    let err = |game: Option<usize>, message: String| TuneError {
        file: name.to_string(),
        game,
        message,
    };
    let mut stats = ReadStats::default();
    let mut seen = 0;
    for item in Games::new(reader) {
        seen += 1;
        let text = item.map_err(|e| err(Some(e.number), format!("line {}: {}", e.line, e.message)))?;
        let number = text.number;
        let loaded = text
            .load()
            .map_err(|e| err(Some(number), format!("(from line {}) {e}", text.line)))?;
        let result = loaded
            .header("Result")
            .map(str::to_string)
            .or_else(|| loaded.result.clone())
            .and_then(|r| white_score(&r));
        let Some(white) = result else {
            stats.unfinished += 1;
            continue;
        };
        stats.games += 1;
        let mut game = Game::new(loaded.start().clone());
        let actions = loaded.game().actions();
        let mut samples = Vec::new();
        for i in 0..=actions.len() {
            let pos = game.position();
            if i < opts.skip_actions {
                stats.opening += 1;
            } else if pos.in_check() {
                stats.in_check += 1;
            } else {
                let mut roles = 0u16;
                for (_, board) in pos.boards() {
                    for (_, p) in board.pieces() {
                        roles |= 1 << Weights::role_index(p.role());
                    }
                }
                samples.push(Sample {
                    features: features_checked(pos, false),
                    result: if pos.to_move() == Color::White {
                        white
                    } else {
                        1.0 - white
                    },
                    roles,
                });
            }
            if let Some(a) = actions.get(i) {
                game.play_action(&a.moves)
                    .map_err(|e| err(Some(number), format!("action {} does not replay: {e}", i + 1)))?;
            }
        }
        stats.positions += samples.len();
        out.push(GameSamples {
            file: file_key,
            number,
            samples,
        });
    }
    if seen == 0 {
        return Err(err(None, "no game in the file".to_string()));
    }
    Ok(stats)
}

/// The source of `weights.rs`: `provenance` as its header comment (each line prefixed with
/// `//! `), then `WEIGHTS` and `HAND_WEIGHTS`.
pub fn weights_source(weights: &Weights, hand: &Weights, provenance: &str) -> String {
    let mut s = String::from("//! The weights of the evaluation (see [`Weights`] for what each one means).\n//!\n");
    for line in provenance.lines() {
        if line.is_empty() {
            s.push_str("//!\n");
        } else {
            s.push_str("//! ");
            s.push_str(line);
            s.push('\n');
        }
    }
    s.push_str("\nuse crate::terms::Weights;\n\n");
    let write = |s: &mut String, doc: &str, name: &str, w: &Weights| {
        s.push_str(&format!("/// {doc}\npub const {name}: Weights = Weights {{\n"));
        for (n, v) in Weights::NAMES.iter().zip(w.to_array()) {
            s.push_str(&format!("    {n}: {v},\n"));
        }
        s.push_str("};\n");
    };
    write(&mut s, "The weights the engine evaluates with.", "WEIGHTS", weights);
    s.push('\n');
    write(
        &mut s,
        "The hand-set weights the engine used before they were fitted on games (kept to compare).",
        "HAND_WEIGHTS",
        hand,
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate_weights;
    use crate::WEIGHTS;

    /// A small deterministic generator (xorshift).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        /// In `lo..hi`.
        fn range(&mut self, lo: i32, hi: i32) -> i32 {
            lo + (self.next() % (hi - lo) as u64) as i32
        }

        fn unit(&mut self) -> f64 {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    fn load(pgn: &str) -> Vec<Position> {
        let lg = chess5d_notation::load(pgn).expect("the test game reads");
        let mut game = Game::new(lg.start().clone());
        let mut out = vec![game.position().clone()];
        for a in lg.game().actions() {
            game.play_action(&a.moves).unwrap();
            out.push(game.position().clone());
        }
        out
    }

    /// Positions of every variant: the first 80 games of the ladder's self-play file
    /// (`selfplay-800.5dpgn` of data/ladder/MANIFEST.tsv, copied to tests/data; two per official
    /// variant: fairy pieces, several timelines active and inactive, checks, both sides to
    /// move), and random legal actions from the starts of the fairy variants.
    fn positions() -> Vec<Position> {
        let mut all = Vec::new();
        all.extend(load(
            "[Board \"Standard\"]\n\n1. e4 / e5\n2. Qh5 / Nc6\n3. Bc4 / Nf6\n4. Qxf7\n",
        ));
        // A royal queen whose twin has left the board (as royal pieces travelling do).
        all.extend(load(
            "[Board \"custom\"]\n[Mode \"5D\"]\n[Size \"5x5\"]\n[3k1/5/5/5/Y1K2:0:1:w]\n\n1. Kd2\n",
        ));
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/selfplay-80.5dpgn");
        let file = std::fs::File::open(path).expect("the self-play games");
        let mut games = 0;
        for text in Games::new(std::io::BufReader::new(file)) {
            games += 1;
            let lg = text.unwrap().load().unwrap();
            let mut game = Game::new(lg.start().clone());
            all.push(game.position().clone());
            for a in lg.game().actions() {
                game.play_action(&a.moves).unwrap();
                all.push(game.position().clone());
            }
        }
        assert_eq!(games, 80, "the fixture holds the first 80 games of the self-play file");
        for v in [
            "Standard - Princess",
            "Focused - Just Unicorns",
            "Focused - Just Dragons",
            "Focused - Just Brawns",
            "Misc - King of Kings",
            "Misc - Royal Queen Showdown",
            "Misc - Excessive",
        ] {
            let lg = chess5d_notation::load(&format!("[Board \"{v}\"]\n\n")).expect("a variant");
            let mut game = Game::new(lg.start().clone());
            let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ v.len() as u64);
            for _ in 0..12 {
                all.push(game.position().clone());
                let actions: Vec<_> = game.legal_actions().take(40).collect();
                if actions.is_empty() {
                    break;
                }
                let a = &actions[rng.next() as usize % actions.len()];
                game.play_action(a).unwrap();
            }
        }
        all
    }

    fn random_weights(rng: &mut Rng) -> Weights {
        let mut a = [0i32; WEIGHT_COUNT];
        for x in &mut a {
            *x = rng.range(-900, 900);
        }
        Weights::from_array(a)
    }

    #[test]
    fn the_dot_product_of_weights_and_features_is_the_evaluation() {
        let positions = positions();
        assert!(positions.len() > 1000, "{} positions", positions.len());
        let mut rng = Rng(12345);
        let mut sets = vec![WEIGHTS, crate::HAND_WEIGHTS, crate::FITTED_WEIGHTS];
        sets.extend((0..20).map(|_| random_weights(&mut rng)));
        // Every feature is non-zero somewhere (even the royal pieces' material: a king can
        // travel to another board): the check below compares every weight's term.
        let feats: Vec<Features> = positions.iter().map(features).collect();
        for (i, name) in Weights::NAMES.iter().enumerate() {
            let nonzero = feats.iter().filter(|f| f[i] != 0.0).count();
            assert!(nonzero > 0, "the feature {name} is 0 in every test position");
        }
        for w in &sets {
            let rw = real(w);
            for (pos, f) in positions.iter().zip(&feats) {
                let eval = evaluate_weights(pos, w);
                let d = dot(&rw, f);
                assert!(
                    (f64::from(eval) - d).abs() < 2.0,
                    "eval {eval} but weights . features = {d} with {w:?} on\n{}",
                    pos.describe()
                );
            }
        }
        // And the engine's evaluation is the one of its weights.
        for pos in &positions {
            assert_eq!(crate::evaluate(pos), evaluate_weights(pos, &WEIGHTS));
        }
    }

    #[test]
    fn each_weight_moves_the_evaluation_by_its_feature() {
        // One weight changed by 1000: the evaluation moves by 1000 times that feature.
        let positions = positions();
        let base = crate::HAND_WEIGHTS;
        for i in 0..WEIGHT_COUNT {
            let mut a = base.to_array();
            a[i] += 1000;
            let changed = Weights::from_array(a);
            for pos in &positions {
                let f = features(pos)[i];
                let moved = f64::from(evaluate_weights(pos, &changed) - evaluate_weights(pos, &base));
                assert!(
                    (moved - 1000.0 * f).abs() < 2.0,
                    "{}: {moved} vs {}",
                    Weights::NAMES[i],
                    1000.0 * f
                );
            }
        }
    }

    /// Samples with random features, labelled with the expected score of known weights.
    fn synthetic(truth: &RealWeights, k: f64, n: usize) -> Vec<Sample> {
        let mut rng = Rng(777);
        (0..n)
            .map(|_| {
                let mut f = [0f64; WEIGHT_COUNT];
                for (i, x) in f.iter_mut().enumerate() {
                    // Two weights stay unused (as the royal pieces' are in games).
                    if i != 10 && i != 11 {
                        *x = (rng.unit() - 0.5) * 4.0;
                    }
                }
                Sample {
                    result: sigmoid(dot(truth, &f), k),
                    features: f,
                    roles: 0,
                }
            })
            .collect()
    }

    #[test]
    fn the_fit_recovers_known_weights() {
        let mut truth = [0f64; WEIGHT_COUNT];
        for (i, t) in truth.iter_mut().enumerate() {
            *t = ((i as f64) * 37.0) % 200.0 - 100.0;
        }
        truth[10] = 0.0;
        truth[11] = 0.0;
        let k = 1.3;
        let samples = synthetic(&truth, k, 4000);
        // K first, with the true weights.
        let fitted_k = fit_k(&samples, &truth);
        assert!((fitted_k - k).abs() < 1e-3, "K {fitted_k}");
        // Then the weights from elsewhere (all zero but the unused two at 5).
        let mut start = [0f64; WEIGHT_COUNT];
        start[10] = 5.0;
        start[11] = 5.0;
        let before = loss(&samples, &start, k);
        let result = fit(&samples, &start, k, &FitOptions::default());
        assert!(result.loss < before / 100.0, "{} -> {}", before, result.loss);
        for (i, (&got, &want)) in result.weights.iter().zip(&truth).enumerate() {
            if i == 10 || i == 11 {
                assert!(result.frozen[i]);
                assert_eq!(got, 5.0, "an undetermined weight stays where it was");
            } else {
                assert!((got - want).abs() < 1.0, "{}: {got} vs {want}", Weights::NAMES[i]);
            }
        }
    }

    #[test]
    fn the_ridge_holds_weights_near_their_start() {
        let truth = [50.0; WEIGHT_COUNT];
        let samples = synthetic(&truth, 1.0, 500);
        let start = [0.0; WEIGHT_COUNT];
        let free = fit(&samples, &start, 1.0, &FitOptions::default());
        let held = fit(
            &samples,
            &start,
            1.0,
            &FitOptions {
                l2: 0.001,
                ..FitOptions::default()
            },
        );
        for i in [0, 5, 20] {
            assert!((free.weights[i] - 50.0).abs() < 1.0, "{}", free.weights[i]);
            assert!(held.weights[i] > 1.0 && held.weights[i] < 45.0, "{}", held.weights[i]);
        }
        assert!(held.loss > free.loss);
    }

    #[test]
    fn games_split_by_pairs_spread_over_the_file() {
        let games: Vec<GameSamples> = (0..2u64)
            .flat_map(|file| {
                (1..=2000).map(move |number| GameSamples {
                    file,
                    number,
                    samples: vec![Sample {
                        features: [(file as usize * 10_000 + number) as f64; WEIGHT_COUNT],
                        result: 1.0,
                        roles: 0,
                    }],
                })
            })
            .collect();
        let (a, b) = split_games(&games, 10, 1);
        assert_eq!(a.len() + b.len(), 4000);
        // About a tenth, both games of a pair together, spread over the pairs' variants
        // (pair p of a match over the 39 official variants plays variant p mod 39).
        assert!((300..500).contains(&b.len()), "{}", b.len());
        let key = |s: &Sample| s.features[0] as usize;
        let held: std::collections::BTreeSet<usize> = b.iter().map(key).collect();
        for &g in &held {
            let number = g % 10_000;
            let twin = if number % 2 == 1 { g + 1 } else { g - 1 };
            assert!(held.contains(&twin), "game {g} without {twin}");
        }
        let variants: std::collections::BTreeSet<usize> = held.iter().map(|g| ((g % 10_000 - 1) / 2) % 39).collect();
        assert_eq!(variants.len(), 39);
        // Another seed, another split; no split at all with 0.
        assert_ne!(split_games(&games, 10, 2).1, b);
        assert!(split_games(&games, 0, 1).1.is_empty());
    }

    #[test]
    fn cross_validation_prefers_the_true_model() {
        let truth = [40.0; WEIGHT_COUNT];
        let samples = synthetic(&truth, 1.0, 600);
        let games: Vec<GameSamples> = samples
            .chunks(10)
            .enumerate()
            .map(|(i, c)| GameSamples {
                file: 7,
                number: i + 1,
                samples: c.to_vec(),
            })
            .collect();
        let start = [0.0; WEIGHT_COUNT];
        let free = cross_validate(&games, 5, 3, &start, 1.0, &FitOptions::default());
        let held = cross_validate(
            &games,
            5,
            3,
            &start,
            1.0,
            &FitOptions {
                l2: 0.01,
                ..FitOptions::default()
            },
        );
        assert!(free < held, "{free} vs {held}");
        assert!(free < 1e-4, "{free}");
    }

    #[test]
    fn frozen_weights_keep_their_value() {
        let truth = [10.0; WEIGHT_COUNT];
        let samples = synthetic(&truth, 1.0, 500);
        let mut opts = FitOptions {
            iterations: 300,
            ..FitOptions::default()
        };
        opts.frozen[3] = true;
        let result = fit(&samples, &[0.0; WEIGHT_COUNT], 1.0, &opts);
        assert_eq!(result.weights[3], 0.0);
        assert!(result.weights[4] > 1.0);
    }

    const TWO_GAMES: &str =
        "[Board \"Standard\"]\n[Result \"1-0\"]\n\n1. e4 / e5\n2. Qh5 / Nc6\n3. Bc4 / Nf6\n4. Qxf7#\n\n\
        [Board \"Standard\"]\n[Result \"1/2-1/2\"]\n\n1. e4 / e5\n2. Nf3 / Nc6\n";

    #[test]
    fn games_become_labelled_quiet_positions() {
        let mut out = Vec::new();
        let stats = read_games_from(TWO_GAMES.as_bytes(), "two.5dpgn", 0, &ReadOptions::default(), &mut out).unwrap();
        // Game 1: positions after 0..=7 actions; 2 skipped (opening), the mate skipped (check).
        // Game 2: after 0..=4 actions, 2 skipped.
        assert_eq!(stats.games, 2);
        assert_eq!(stats.opening, 4);
        assert_eq!(stats.in_check, 1);
        assert_eq!(stats.positions, 5 + 3);
        assert_eq!(out[0].samples.len(), 5);
        // After 2 actions White is to move and won; after 3, Black is to move and lost.
        assert_eq!(out[0].samples[0].result, 1.0);
        assert_eq!(out[0].samples[1].result, 0.0);
        assert!(out[1].samples.iter().all(|s| s.result == 0.5));
        assert!(out[0]
            .samples
            .iter()
            .all(|s| s.features[TEMPO] == 1.0 && s.features[IN_CHECK] == 0.0));
    }

    #[test]
    fn bad_input_is_an_error_naming_the_file_and_the_game() {
        let mut out = Vec::new();
        let bad = format!("{TWO_GAMES}\n[Board \"Standard\"]\n[Result \"0-1\"]\n\n1. e4 / e5\n2. Ke3 / Qh4\n");
        let e = read_games_from(bad.as_bytes(), "bad.5dpgn", 0, &ReadOptions::default(), &mut out).unwrap_err();
        assert_eq!((e.file.as_str(), e.game), ("bad.5dpgn", Some(3)));
        assert!(e.to_string().starts_with("bad.5dpgn: game 3: "), "{e}");
        let e = read_games(
            Path::new("/nonexistent/games.5dpgn"),
            0,
            &ReadOptions::default(),
            &mut out,
        )
        .unwrap_err();
        assert!(
            e.to_string().starts_with("/nonexistent/games.5dpgn: cannot open"),
            "{e}"
        );
        let e = read_games_from("".as_bytes(), "empty.5dpgn", 0, &ReadOptions::default(), &mut out).unwrap_err();
        assert_eq!(e.to_string(), "empty.5dpgn: no game in the file");
    }

    #[test]
    fn the_weights_source_reads_back() {
        let src = weights_source(&WEIGHTS, &crate::HAND_WEIGHTS, "Fitted on nothing.\n\nTwo lines.");
        assert!(src.starts_with("//! The weights"));
        assert!(src.contains("//! Fitted on nothing.\n//!\n//! Two lines.\n"));
        for (n, v) in Weights::NAMES.iter().zip(WEIGHTS.to_array()) {
            assert!(src.contains(&format!("    {n}: {v},\n")), "{n}");
        }
    }
}
