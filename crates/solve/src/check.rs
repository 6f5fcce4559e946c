//! Checking a proof file with the rules crate alone: none of the solver's code is used here
//! (this module imports only `chess5d_rules` and, to read the start position, the notation
//! crate's 5DFEN reader).
//!
//! # The proof format (version 1)
//!
//! A text file of lines:
//!
//! ```text
//! chess5d proof 1
//! claim win in 2 for white            (or: claim no win for white within 3 actions)
//! [Board "custom"]                    the start position: a 5DFEN block, as
//! [Size "4x4"]                        `chess5d convert --to 5dfen` writes it
//! [...:0:1:w]
//! tree
//! ACTION                              an action of the side to move (the attacker)
//!   ACTION                            a defence, indented two spaces more
//!     ACTION                          the attacker's answer to it
//!   ACTION                            another defence
//!     ...
//! end
//! ```
//!
//! An action is its moves in long form (`(0T1)Ka1(0T1)b2`), in the order played, separated by
//! single spaces, exactly as the rules crate lists its legal actions. The claim's colour is the
//! side to move (the attacker); N counts the attacker's actions.
//!
//! - **A win in N**: where the attacker is to move, one answer (its action); where the defender
//!   is to move, *every* legal defence, each followed by its answer. The defender must be
//!   checkmated (the rules' verdict) after at most N attacker actions on every line; a line
//!   after which the defender is mated has no defence under it.
//! - **No win within N**: where the attacker is to move, *every* legal action; where the
//!   defender is to move, one defence (none if it is stalemated, or if the attacker has no
//!   action left: then the rules' verdict must say the defender is not mated). A line where the
//!   attacker has no legal action (mated or stalemated) ends there.
//!
//! [`check`] lists the legal actions of every position where all must be answered (brute
//! force, within the rules' [`Budget`]), and takes the rules' verdicts at the leaves. A list or
//! verdict the budget cannot finish breaks the proof: it is never assumed.

use chess5d_rules::{Budget, Color, Move, Outcome, Position};
use std::collections::HashMap;

/// The first line of a proof file.
pub const MAGIC: &str = "chess5d proof 1";

/// Why a proof does not hold: the line of the file (from 1) and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Break {
    /// The line of the file.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl std::fmt::Display for Break {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "proof breaks at line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for Break {}

/// What a proof file claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Claim {
    Win(u32),
    NoWin(u32),
}

/// A line of the tree.
#[derive(Debug)]
struct Node {
    line: usize,
    action: String,
    children: Vec<Node>,
}

fn fail<T>(line: usize, reason: impl Into<String>) -> Result<T, Break> {
    Err(Break {
        line,
        reason: reason.into(),
    })
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn parse_claim(text: &str, line: usize) -> Result<(Claim, String), Break> {
    let words: Vec<&str> = text.split(' ').collect();
    let n = |w: &str| {
        w.parse::<u32>().map_err(|_| Break {
            line,
            reason: format!("not a number of actions: '{w}'"),
        })
    };
    match words.as_slice() {
        ["claim", "win", "in", k, "for", c] => Ok((Claim::Win(n(k)?), c.to_string())),
        ["claim", "no", "win", "for", c, "within", k, "actions"] => Ok((Claim::NoWin(n(k)?), c.to_string())),
        _ => fail(
            line,
            format!(
                "expected 'claim win in N for COLOUR' or 'claim no win for COLOUR within N actions', found '{text}'"
            ),
        ),
    }
}

/// Reads the tree's lines (from `first`, numbered from 1) into nodes, by indentation.
fn parse_tree(lines: &[(usize, &str)]) -> Result<Vec<Node>, Break> {
    let mut roots: Vec<Node> = Vec::new();
    // The path of open nodes, as indices into each level's children.
    for &(line, text) in lines {
        let body = text.trim_start_matches(' ');
        let indent = text.len() - body.len();
        if indent % 2 != 0 || body.is_empty() || body.trim_end() != body {
            return fail(
                line,
                "an action line is indented by an even number of spaces, with no trailing space",
            );
        }
        let depth = indent / 2;
        let mut level = &mut roots;
        for d in 0..depth {
            level = match level.last_mut() {
                Some(n) => &mut n.children,
                None => return fail(line, format!("indented to depth {depth} under no action of depth {d}")),
            };
        }
        level.push(Node {
            line,
            action: body.to_string(),
            children: Vec::new(),
        });
    }
    Ok(roots)
}

fn action_text(moves: &[Move], even: bool) -> String {
    moves.iter().map(|m| m.long(even)).collect::<Vec<_>>().join(" ")
}

fn after(pos: &Position, moves: &[Move]) -> Position {
    let mut p = pos.clone();
    for m in moves {
        p.play_unchecked(m);
    }
    p.submit_unchecked();
    p
}

struct Checker {
    budget: Budget,
    attacker: Color,
    win: bool,
    positions: u64,
}

impl Checker {
    /// Every legal action of the side to move, by its text.
    fn all(&mut self, pos: &Position, line: usize) -> Result<Vec<(String, Vec<Move>)>, Break> {
        self.positions += 1;
        let mut it = pos.legal_actions(self.budget);
        let even = pos.even();
        let all: Vec<(String, Vec<Move>)> = it.by_ref().map(|m| (action_text(&m, even), m)).collect();
        if it.exhausted() {
            return fail(
                line,
                "the legal actions here could not be listed within the rules' budget",
            );
        }
        Ok(all)
    }

    /// The position after the action of `node`, played move by move and submitted as the
    /// rules allow (each move legal where it is played, every board that must be played
    /// moved, no royal piece of the mover left capturable).
    fn play(&mut self, pos: &Position, node: &Node) -> Result<Position, Break> {
        self.positions += 1;
        let mover = side(pos.to_move());
        let moves = chess5d_notation::long::parse_action(&node.action).map_err(|e| Break {
            line: node.line,
            reason: format!("'{}' is not an action in long form: {e}", node.action),
        })?;
        if moves.is_empty() {
            return fail(node.line, "an empty action");
        }
        let mut p = pos.clone();
        for m in &moves {
            let mv = m.resolve(&p).map_err(|e| Break {
                line: node.line,
                reason: format!("'{}' is not a legal action of {mover} here: {m}: {e}", node.action),
            })?;
            p.play(&mv).map_err(|e| Break {
                line: node.line,
                reason: format!("'{}' is not a legal action of {mover} here: {m}: {e}", node.action),
            })?;
        }
        p.submit().map_err(|e| Break {
            line: node.line,
            reason: format!("'{}' is not a legal action of {mover} here: {e}", node.action),
        })?;
        Ok(p)
    }

    /// Checks the position `pos` (reached at `line`), `k` attacker actions left, answered by
    /// `children`.
    fn node(&mut self, pos: &Position, k: u32, children: &[Node], line: usize) -> Result<(), Break> {
        let attacker = pos.to_move() == self.attacker;
        let mover = side(pos.to_move());
        // Where every action must be answered: the defender's in a proof, the attacker's in a
        // disproof (while it has actions left).
        let every = attacker != self.win;
        if !attacker && k == 0 {
            // The attacker's last action has been played: the rules' verdict decides.
            if let Some(c) = children.first() {
                return fail(c.line, "no attacker action is left: nothing may follow here");
            }
            return match (pos.outcome(self.budget), self.win) {
                (Outcome::Checkmate, true) | (Outcome::Ongoing(_) | Outcome::Stalemate, false) => Ok(()),
                (Outcome::Checkmate, false) => fail(line, format!("{mover} is checkmated here: this line is a win")),
                (Outcome::Ongoing(_), true) => fail(
                    line,
                    format!("{mover} is not checkmated here and the attacker has no action left"),
                ),
                (Outcome::Stalemate, true) => fail(line, format!("{mover} is stalemated here: a draw, not a win")),
                (Outcome::Unknown, _) => fail(line, "the rules' budget could not decide whether this is mate"),
            };
        }
        let ck = if attacker { k - 1 } else { k };
        if every {
            let all = self.all(pos, line)?;
            if all.is_empty() {
                return self.no_action(pos, line);
            }
            let mut given: HashMap<&str, &Node> = HashMap::new();
            for c in children {
                if given.insert(c.action.as_str(), c).is_some() {
                    return fail(c.line, format!("'{}' is answered twice", c.action));
                }
            }
            for c in children {
                if !all.iter().any(|(t, _)| *t == c.action) {
                    return fail(c.line, format!("'{}' is not a legal action of {mover} here", c.action));
                }
            }
            for (text, moves) in &all {
                let Some(c) = given.get(text.as_str()) else {
                    let what = if attacker { "action" } else { "defence" };
                    return fail(line, format!("the {what} '{text}' of {mover} is not answered"));
                };
                self.node(&after(pos, moves), ck, &c.children, c.line)?;
            }
            Ok(())
        } else {
            match children {
                [] => {
                    if attacker {
                        // A proof needs an action of the attacker unless it has none (it never
                        // wins then).
                        return fail(line, format!("no action of {mover} is given"));
                    }
                    // The defender gives no defence: only a stalemate (or a defender with no
                    // action that is not in check) ends a disproof here.
                    let all = self.all(pos, line)?;
                    if all.is_empty() {
                        return self.no_action(pos, line);
                    }
                    fail(line, format!("no defence of {mover} is given"))
                }
                [c] => {
                    let next = self.play(pos, c)?;
                    self.node(&next, ck, &c.children, c.line)
                }
                [_, c, ..] => fail(c.line, format!("only one action of {mover} may be given here")),
            }
        }
    }

    /// The side to move has no legal action: mated or stalemated.
    fn no_action(&mut self, pos: &Position, line: usize) -> Result<(), Break> {
        let attacker = pos.to_move() == self.attacker;
        let mover = side(pos.to_move());
        let mated = pos.in_check();
        match (attacker, mated, self.win) {
            (false, true, true) | (_, false, false) | (true, true, false) => Ok(()),
            (false, true, false) => fail(line, format!("{mover} is checkmated here: this line is a win")),
            (false, false, true) => fail(line, format!("{mover} is stalemated here: a draw, not a win")),
            (true, _, true) => fail(line, format!("{mover}, the attacker, has no legal action here")),
        }
    }
}

/// Checks a proof file (see the module's documentation for the format) within the rules'
/// default budget per list of actions: `Ok` with the claim that holds (`win in 2 for white`),
/// or where the proof breaks.
pub fn check(text: &str) -> Result<String, Break> {
    check_with(text, Budget::DEFAULT)
}

/// [`check`] with `budget` for each list of legal actions.
pub fn check_with(text: &str, budget: Budget) -> Result<String, Break> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
        .collect();
    match lines.first() {
        Some((_, l)) if *l == MAGIC => {}
        _ => return fail(1, format!("not a proof file: the first line must be '{MAGIC}'")),
    }
    let Some(&(claim_line, claim_text)) = lines.get(1) else {
        return fail(2, "the claim is missing");
    };
    let (claim, colour) = parse_claim(claim_text, claim_line)?;
    let Some(tree_at) = lines.iter().position(|(_, l)| *l == "tree") else {
        return fail(lines.len(), "the line 'tree' is missing");
    };
    let Some(end_at) = lines.iter().rposition(|(_, l)| *l == "end").filter(|&e| e > tree_at) else {
        return fail(
            lines.len(),
            "the last line 'end' is missing (the file may be cut short)",
        );
    };
    if let Some((line, _)) = lines[end_at + 1..].iter().find(|(_, l)| !l.trim().is_empty()) {
        return fail(*line, "text after 'end'");
    }
    let fen: String = lines[2..tree_at].iter().map(|(_, l)| format!("{l}\n")).collect();
    let loaded = chess5d_notation::load(&fen).map_err(|e| Break {
        line: 3,
        reason: format!("the start position cannot be read: {e}"),
    })?;
    let pos = loaded.game().position().clone();
    if side(pos.to_move()) != colour {
        return fail(
            claim_line,
            format!("the claim is for {colour} but {} is to move", side(pos.to_move())),
        );
    }
    let tree = parse_tree(&lines[tree_at + 1..end_at])?;
    let (win, k) = match claim {
        Claim::Win(k) => (true, k),
        Claim::NoWin(k) => (false, k),
    };
    if win && k == 0 {
        return fail(claim_line, "a win takes at least one action");
    }
    let mut checker = Checker {
        budget,
        attacker: pos.to_move(),
        win,
        positions: 0,
    };
    if !win && k == 0 {
        if let Some(c) = tree.first() {
            return fail(c.line, "no attacker action is left: nothing may follow here");
        }
    } else {
        checker.node(&pos, k, &tree, tree_at + 1)?;
    }
    Ok(claim_text.trim_start_matches("claim ").to_string())
}
