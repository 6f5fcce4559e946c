//! A game's lines as text: moves as the API writes them, numbered SAN of a line, principal
//! variations and scores as the analysis board shows them, and the analysis board's export.

use crate::cache::MoveView;
use crate::error::PlayError;
use crate::terms::color_name;
use chess5d_engine::Score;
use chess5d_notation::{san, GameTree};
use chess5d_rules::{Color, Game, Move, Position};
use serde_json::{json, Value};

/// A move as the API writes it (from, to, long form, kind...).
pub fn move_json(pos: &Position, m: &Move) -> Value {
    serde_json::to_value(MoveView::new(pos, m)).unwrap_or(Value::Null)
}

/// The variant name of a start position (`custom` if none).
pub fn variant_name(start: &Position) -> String {
    chess5d_notation::start::variant_of(start).map_or_else(|| "custom".to_string(), |v| v.name.to_string())
}

/// A principal variation as the page shows it (the analysis board's `pv`): per action its SAN,
/// the side that plays it and its moves (for arrows); at most 12 actions.
pub fn pv_json(pos: &Position, pv: &[Vec<Move>]) -> Vec<Value> {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for a in pv.iter().take(12) {
        let multi = pos.timeline_count() > 1;
        let mut texts = Vec::new();
        let mut moves = Vec::new();
        for m in a {
            texts.push(san::write(&pos, m, multi));
            moves.push(move_json(&pos, m));
            pos.play_unchecked(m);
        }
        pos.submit_unchecked();
        out.push(json!({ "color": color_name(pos.to_move().other()), "text": texts.join(" "), "moves": moves }));
    }
    out
}

/// A score from White's point of view (`white`: White is to move in the position searched).
pub fn white_score(s: Score, white: bool) -> Score {
    match (s, white) {
        (s, true) => s,
        (Score::Cp(c), false) => Score::Cp(-c),
        (Score::Mate(n), false) => Score::Mate(-n),
    }
}

/// A score as the analysis board's `eval` says it: `"35"` (centipawns) or `"mate -2"`.
pub fn eval_text(s: Score) -> String {
    match s {
        Score::Cp(c) => c.to_string(),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// One line of an analysis: what the engine last reported for one of its best actions.
#[derive(Clone, Debug)]
pub struct AnalysisLine {
    /// The engine's rank of the line (1: the best).
    pub rank: u32,
    /// The depth searched, in actions.
    pub depth: u32,
    /// From White's point of view.
    pub score: Score,
    /// The line's first action (to tell lines apart whatever the order of its moves).
    first: Vec<Move>,
    /// Its actions as [`pv_json`] writes them.
    pub pv: Vec<Value>,
    /// The line in numbered SAN (`1. e4 / e5 2. Nf3`), as [`game_movetext`] writes it.
    pub text: String,
}

/// The best lines of an analysis (the engine searching with `MultiPV` N), kept as the engine
/// reports them, line by line after each depth: at most N lines, each with its own first action,
/// in the engine's order (best first). A line reported at a new depth replaces the line of that
/// rank; if another rank held a line starting with the same action, the replaced line takes that
/// rank (a search cut in the middle of a depth reports only its new best line: the old best
/// moves to where the new one was, until the next depth reports every line).
#[derive(Clone, Debug, Default)]
pub struct AnalysisLines {
    lines: Vec<AnalysisLine>,
}

impl AnalysisLines {
    /// The engine's report of line `rank` (1 is the best; `None` from a search of one line)
    /// after `game`'s last action (between actions): its depth, its score from the side to move's point of view and
    /// its actions. A report without a line is left out.
    pub fn update(&mut self, game: &Game, rank: Option<u32>, depth: u32, score: Score, pv: &[Vec<Move>]) {
        let pos = game.position();
        let Some(first) = pv.first() else { return };
        let rank = rank.unwrap_or(1).max(1);
        let same = |a: &[Move]| a.len() == first.len() && a.iter().all(|m| first.contains(m));
        // The line already starting with this action gives its place to the line it displaces.
        let dup = self.lines.iter().position(|l| same(&l.first));
        let old_rank = dup.map(|j| self.lines.remove(j).rank);
        if let Some(i) = self.lines.iter().position(|l| l.rank == rank) {
            match old_rank {
                Some(r) => self.lines[i].rank = r,
                None => drop(self.lines.remove(i)),
            }
        }
        let pv = &pv[..pv.len().min(12)];
        self.lines.push(AnalysisLine {
            rank,
            depth,
            score: white_score(score, pos.to_move() == Color::White),
            first: first.clone(),
            pv: pv_json(pos, pv),
            text: game_movetext(game, pv),
        });
        self.lines.sort_by_key(|l| l.rank);
    }

    /// The lines, best first.
    pub fn lines(&self) -> &[AnalysisLine] {
        &self.lines
    }

    /// The best line, if any was reported.
    pub fn best(&self) -> Option<&AnalysisLine> {
        self.lines.first()
    }

    /// The lines as the analysis board's `lines`: `[{rank, depth, eval, score: {cp} or {mate},
    /// text, pv}]`, best first, ranked 1, 2, 3... as shown (scores from White's point of view).
    pub fn json(&self) -> Value {
        let lines: Vec<Value> = self
            .lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let score = match l.score {
                    Score::Cp(c) => json!({ "cp": c }),
                    Score::Mate(n) => json!({ "mate": n }),
                };
                json!({
                    "rank": i + 1, "depth": l.depth, "eval": eval_text(l.score), "score": score,
                    "text": l.text, "pv": l.pv,
                })
            })
            .collect();
        Value::Array(lines)
    }
}

/// Numbered SAN of `actions` played from `pos` (`1. e4 / e5 2. ...`, `1b. e5 / ...` from Black):
/// a variation from a position. Turns are numbered as 5DPGN numbers them, by the actions played
/// since `pos` (from its present turn), not by the present, which time travel moves back.
pub fn movetext(pos: &Position, actions: &[Vec<Move>]) -> String {
    let numbering = GameTree::new(pos.clone());
    numbered(pos, actions, |i| numbering.serial(i))
}

/// Numbered SAN of `actions` played after `game`'s last action, numbered as the game's own
/// actions are (5DPGN's turn numbers, counted from the game's start, as the notation panel
/// shows them): the line of an analysis of the game.
pub fn game_movetext(game: &Game, actions: &[Vec<Move>]) -> String {
    let numbering = GameTree::new(game.start().clone());
    let played = game.actions().len();
    numbered(game.position(), actions, |i| numbering.serial(played + i))
}

/// SAN of `actions` played from `pos`, the `i`-th numbered `serial(i)`; a line starting with
/// Black's action says `Nb.`, later Black actions `/`.
fn numbered(pos: &Position, actions: &[Vec<Move>], serial: impl Fn(usize) -> (u32, Color)) -> String {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for (i, a) in actions.iter().enumerate() {
        match serial(i) {
            (turn, Color::White) => out.push(format!("{turn}.")),
            (turn, Color::Black) if i == 0 => out.push(format!("{turn}b.")),
            (_, Color::Black) => out.push("/".into()),
        }
        let multi = pos.timeline_count() > 1;
        for m in a {
            out.push(san::write(&pos, m, multi));
            pos.play_unchecked(m);
        }
        pos.submit_unchecked();
    }
    out.join(" ")
}

/// The analysis board's export: the game it was opened on (`game_pgn`, the whole game with its
/// headers and any variations) with the actions tried on the board (`board`, whose first `base`
/// actions are the game's) as a variation branching after action `base`. Written as Branched
/// 5DPGN, so it reads back to the same tree; a tried line the game itself played is merged
/// into it.
pub fn export_variation(game_pgn: &str, base: usize, board: &Game) -> Result<String, PlayError> {
    let mut loaded = chess5d_notation::load(game_pgn)
        .map_err(|e| PlayError::internal(format!("the analysed game does not read back: {e}")))?;
    let result = loaded
        .result
        .clone()
        .or_else(|| loaded.header("Result").map(str::to_string));
    let headers = std::mem::take(&mut loaded.headers);
    let mut tree = loaded.into_tree();
    let main = tree.main_line();
    let Some(&from) = (if base == 0 {
        Some(&GameTree::ROOT)
    } else {
        main.get(base - 1)
    }) else {
        return Err(PlayError::internal(format!(
            "the analysis board branches after action {base}, but the game has {} actions",
            main.len()
        )));
    };
    let tried: Vec<Vec<Move>> = board.actions()[base.min(board.actions().len())..]
        .iter()
        .map(|a| a.moves.clone())
        .collect();
    if tree.children(from).is_empty() && !tried.is_empty() {
        // The game stops where the board branched: the tried line is still written as a
        // variation, after the game's last action (a reader makes it the continuation, as there
        // is no other), and the game's result stays the game's.
        let end = *main.last().unwrap_or(&GameTree::ROOT);
        tree.set_result(end, None);
        let mut out = chess5d_notation::pgn::write_tree(&tree, &headers, None);
        let pos = tree.game_at(from).position().clone();
        let line = numbered(&pos, &tried, |i| tree.serial(base + i));
        let token = result.as_deref().filter(|r| chess5d_notation::pgn::is_result(r));
        out.push_str(&format!("({line})\n{}\n", token.unwrap_or("*")));
        return Ok(out);
    }
    let mut node = from;
    for (i, moves) in tried.iter().enumerate() {
        // The game's own continuation stays the main line; the tried one is a variation.
        node = tree.play(node, moves, false).map_err(|e| {
            PlayError::internal(format!(
                "tried action {} does not replay on the game: {e}",
                base + i + 1
            ))
        })?;
    }
    Ok(chess5d_notation::pgn::write_tree(&tree, &headers, result.as_deref()))
}
