//! The text of 5DUCI: moves in long form with the draft's timeline numbering, 5DFEN boards,
//! and the `position` and `go` commands.

use crate::extensions::Extensions;
use chess5d_notation::{BoardRef, LongMove, Timeline};
use chess5d_rules::{Coord, Move, Position, Role, Setup, Size, Variant};
use std::fmt;
use std::time::Duration;

/// Why a piece of 5DUCI text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

fn err<T>(msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError(msg.into()))
}

/// A move as 5DUCI writes it: long form, the timeline as the internal index (the draft's
/// numbering: in even games `0` is `+0`, `-1` is `-0`), e.g. `(0T1)e2(0T1)e4`, `(-1T3)g7(-1T3)g8Q`.
/// A promotion is written as the draft writes it (section 2.1.5), the letter without `=`: the
/// draft's own engine rejects `g8=Q`. [`parse_move_text`] reads both. Written by the rules'
/// [`Move::long_as`] (the draft's numbers are the labels of an odd game).
pub fn format_move(m: &Move) -> String {
    m.long_as(false, false)
}

/// The moves of an action in 5DUCI form, separated by spaces.
pub fn format_action(action: &[Move]) -> String {
    action.iter().map(format_move).collect::<Vec<_>>().join(" ")
}

/// A move's coordinates, as read: source, destination (board and square) and promotion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// The source square.
    pub from: Coord,
    /// The destination square.
    pub to: Coord,
    /// The promotion piece, if written.
    pub promotion: Option<Role>,
}

/// The timeline index of a label in the draft's numbering (the internal index, the labels of
/// an odd game); `-0`, not a draft number, is read as the label it looks like (`-1`).
fn draft_index(t: Timeline) -> i32 {
    if t.sign == Some('-') && t.number == 0 {
        -1
    } else {
        t.index(false)
    }
}

/// Reads a move in long form with the notation crate's one reader ([`LongMove`]):
/// `(0T1)e2(0T1)e4`, `(0T1)e2>(0T1)e4`, the same-board short form `(0T1)e2e4`, and a promotion
/// as `Q` (the draft) or `=Q`. The timelines are the draft's numbers; the side to move decides
/// the colour of the boards (`T` is the turn).
pub fn parse_move_text(text: &str, side_black: bool) -> Result<MoveText, ParseError> {
    let m: LongMove = text
        .parse()
        .map_err(|e| ParseError(format!("long-form move '{}': {e}", text.trim())))?;
    let coord = |board: BoardRef, square| {
        let turn = board.turn.min(1_000_000) as i32;
        Coord::new(draft_index(board.timeline), 2 * turn + i32::from(side_black), square)
    };
    Ok(MoveText {
        from: coord(m.from_board, m.from),
        to: coord(m.to_board, m.to),
        promotion: m.promotion,
    })
}

/// Reads a move and finds it among the pseudo-legal moves of `pos`.
pub fn parse_move(text: &str, pos: &Position) -> Result<Move, ParseError> {
    let mt = parse_move_text(text, pos.to_move() == chess5d_rules::Color::Black)?;
    pos.find_move(mt.from, mt.to, mt.promotion)
        .map_err(|e| ParseError(format!("illegal move '{text}': {e}")))
}

/// Reads 5DFEN boards `[<pieces>:<L>:<T>[:<w|b>]]...` (spaces between blocks allowed; the
/// draft lets a board leave out its colour, then White's) with the notation crate's one 5DFEN
/// reader ([`chess5d_notation::fen::read_setup`]). The size is taken from `size` or from the
/// first board; `even` from the argument or from labels `-0`/`+0`. Timeline labels are read as
/// 5DFEN writes them.
pub fn parse_fen_boards(text: &str, size: Option<Size>, even: Option<bool>) -> Result<Setup, ParseError> {
    chess5d_notation::fen::read_setup(text, size, even, true).map_err(|e| ParseError(format!("5DFEN {e}")))
}

/// Writes a setup as 5DFEN boards, for `position ... fen` (the notation crate's
/// [`chess5d_notation::fen::write_setup`]).
pub fn write_fen_boards(setup: &Setup) -> String {
    chess5d_notation::fen::write_setup(setup)
}

/// The variant the draft's `startpos` means.
const TURN_ZERO: &str = "Standard - Turn Zero";

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPos {
    /// `startpos`: Standard - Turn Zero, as the draft says.
    StartPos,
    /// `variant "<name>"`: an official variant.
    Variant(String),
    /// `[size WxH] [odd|even] fen ...`: custom boards.
    Fen(Setup),
}

impl StartPos {
    /// The starting position.
    pub fn position(&self) -> Result<Position, ParseError> {
        match self {
            StartPos::StartPos => Ok(Variant::by_name(TURN_ZERO).expect("a known variant").position()),
            StartPos::Variant(name) => Variant::by_name(name)
                .map(Variant::position)
                .ok_or_else(|| ParseError(format!("unknown variant '{name}'"))),
            StartPos::Fen(setup) => {
                Position::from_setup(setup.clone()).map_err(|e| ParseError(format!("invalid position: {e}")))
            }
        }
    }

    /// The start in the draft's forms alone, for an engine without the `variant` extension:
    /// `startpos` for Standard - Turn Zero (what the draft means by it), every other start as
    /// `size WxH odd|even fen <5DFEN boards>` with `*` on unmoved pieces.
    pub fn draft_text(&self) -> Result<String, ParseError> {
        match self {
            StartPos::StartPos => Ok("startpos".into()),
            StartPos::Variant(name) => {
                let v = Variant::by_name(name).ok_or_else(|| ParseError(format!("unknown variant '{name}'")))?;
                if v.name == TURN_ZERO {
                    Ok("startpos".into())
                } else {
                    Ok(StartPos::Fen(v.setup()).command_text())
                }
            }
            StartPos::Fen(_) => Ok(self.command_text()),
        }
    }

    /// The start as it follows `position ` for an engine with these extensions: the
    /// `variant` form if it has that extension, the draft's forms otherwise.
    pub fn command_text_for(&self, ext: &Extensions) -> Result<String, ParseError> {
        if ext.variant {
            Ok(self.command_text())
        } else {
            self.draft_text()
        }
    }

    /// The start as it follows `position ` in 5DUCI with every extension (`variant "<name>"`
    /// for an official variant).
    pub fn command_text(&self) -> String {
        match self {
            StartPos::StartPos => "startpos".into(),
            StartPos::Variant(name) => format!("variant \"{name}\""),
            StartPos::Fen(setup) => format!(
                "size {} {} fen {}",
                setup.size,
                if setup.even { "even" } else { "odd" },
                write_fen_boards(setup)
            ),
        }
    }
}

/// A parsed `position` command: the start, and the moves with `submit` between actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    /// The start.
    pub start: StartPos,
    /// The move tokens after `moves`, `submit` included.
    pub moves: Vec<String>,
}

impl PositionCommand {
    /// Reads the arguments of `position` (the text after the word).
    pub fn parse(args: &str) -> Result<PositionCommand, ParseError> {
        let (head, moves) = match args.find(" moves") {
            Some(i) => (&args[..i], args[i + 6..].split_whitespace().map(String::from).collect()),
            None => (args.strip_suffix("moves").unwrap_or(args), Vec::new()),
        };
        let head = head.trim();
        let start = if head == "startpos" {
            StartPos::StartPos
        } else if let Some(rest) = head.strip_prefix("variant") {
            StartPos::Variant(rest.trim().trim_matches('"').to_string())
        } else {
            let mut size = None;
            let mut even = None;
            let mut rest = head;
            loop {
                rest = rest.trim_start();
                if let Some(r) = rest.strip_prefix("size") {
                    let r = r.trim_start();
                    let end = r.find(char::is_whitespace).unwrap_or(r.len());
                    let (w, h) = r[..end]
                        .split_once('x')
                        .ok_or_else(|| ParseError(format!("bad size '{}'", &r[..end])))?;
                    size = Some(
                        w.parse()
                            .ok()
                            .zip(h.parse().ok())
                            .and_then(|(w, h)| Size::new(w, h))
                            .ok_or_else(|| ParseError(format!("bad size '{}'", &r[..end])))?,
                    );
                    rest = &r[end..];
                } else if let Some(r) = rest.strip_prefix("even") {
                    even = Some(true);
                    rest = r;
                } else if let Some(r) = rest.strip_prefix("odd") {
                    even = Some(false);
                    rest = r;
                } else if let Some(r) = rest.strip_prefix("fen") {
                    break StartPos::Fen(parse_fen_boards(r, size, even)?);
                } else {
                    return err(format!("expected startpos, variant or fen in 'position {args}'"));
                }
            }
        };
        Ok(PositionCommand { start, moves })
    }

    /// The position after the moves. Ends between actions or in the middle of one.
    pub fn position(&self) -> Result<Position, ParseError> {
        let mut pos = self.start.position()?;
        for tok in &self.moves {
            if tok == "submit" {
                pos.submit().map_err(|e| ParseError(format!("cannot submit: {e}")))?;
            } else {
                let mv = parse_move(tok, &pos)?;
                pos.play(&mv).map_err(|e| ParseError(format!("{tok}: {e}")))?;
            }
        }
        Ok(pos)
    }

    /// The full command line.
    pub fn to_command(&self) -> String {
        let mut s = format!("position {}", self.start.command_text());
        if !self.moves.is_empty() {
            s.push_str(" moves ");
            s.push_str(&self.moves.join(" "));
        }
        s
    }
}

/// The arguments of a `go` command, as 5DUCI sends them (an engine turns them into the limits
/// of its own search). Without any, the draft's `go` searches until `stop`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `wtime`: White's remaining time.
    pub wtime: Option<Duration>,
    /// `btime`: Black's remaining time.
    pub btime: Option<Duration>,
    /// `winc`: White's increment per action.
    pub winc: Option<Duration>,
    /// `binc`: Black's increment per action.
    pub binc: Option<Duration>,
    /// `movetime`: exactly this long.
    pub movetime: Option<Duration>,
    /// `depth`: at most this many plies (actions).
    pub depth: Option<u32>,
    /// `nodes`: at most this many nodes.
    pub nodes: Option<u64>,
    /// `infinite`: until `stop`.
    pub infinite: bool,
}

impl Go {
    /// `go depth <depth>`.
    pub fn depth(depth: u32) -> Go {
        Go {
            depth: Some(depth),
            ..Go::default()
        }
    }

    /// `go movetime <t>`.
    pub fn movetime(t: Duration) -> Go {
        Go {
            movetime: Some(t),
            ..Go::default()
        }
    }
}

/// Reads the arguments of `go` (unknown words are skipped).
pub fn parse_go(args: &str) -> Go {
    let mut go = Go::default();
    let toks: Vec<&str> = args.split_whitespace().collect();
    let mut i = 0;
    while i < toks.len() {
        let num = toks.get(i + 1).and_then(|v| v.parse::<i64>().ok());
        let ms = num.map(|v| Duration::from_millis(v.max(0) as u64));
        let mut used = true;
        match toks[i] {
            "wtime" => go.wtime = ms,
            "btime" => go.btime = ms,
            "winc" => go.winc = ms,
            "binc" => go.binc = ms,
            "movetime" => go.movetime = ms,
            "depth" => go.depth = num.map(|v| v.max(1) as u32),
            "nodes" => go.nodes = num.map(|v| v.max(1) as u64),
            "infinite" => {
                go.infinite = true;
                used = false;
            }
            _ => used = false,
        }
        i += if used && num.is_some() { 2 } else { 1 };
    }
    go
}

/// The `go` command for an engine with these extensions: the clock, `nodes` and `infinite`
/// only if it announced them (the draft's `go` alone searches until `stop`, which is what
/// `infinite` asks for). See [`crate::EngineProcess::limits_for`] for limits a draft engine can
/// keep.
pub fn go_text_for(limits: &Go, ext: &Extensions) -> String {
    let mut l = limits.clone();
    if !ext.clock {
        (l.wtime, l.btime, l.winc, l.binc) = (None, None, None, None);
    }
    if !ext.nodes {
        l.nodes = None;
    }
    if !ext.infinite {
        l.infinite = false;
    }
    go_text(&l)
}

/// The `go` command for these limits, with every extension.
pub fn go_text(limits: &Go) -> String {
    let mut parts = Vec::new();
    let ms = |d: Duration| d.as_millis().to_string();
    for (name, v) in [
        ("wtime", limits.wtime),
        ("btime", limits.btime),
        ("winc", limits.winc),
        ("binc", limits.binc),
        ("movetime", limits.movetime),
    ] {
        if let Some(v) = v {
            parts.push(format!("{name} {}", ms(v)));
        }
    }
    if let Some(d) = limits.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(n) = limits.nodes {
        parts.push(format!("nodes {n}"));
    }
    if limits.infinite {
        parts.push("infinite".into());
    }
    if parts.is_empty() {
        "go".into()
    } else {
        format!("go {}", parts.join(" "))
    }
}
