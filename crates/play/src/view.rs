//! The JSON view of a game (API.md's game state), written straight from the game by serde:
//! no intermediate `serde_json::Value` tree. The server answers every move and submit with it,
//! so it is a loaded server's hot path (`crates/server/examples/load.rs` under perf: building
//! and then writing a `Value` took over half the server's time). The parts that change only
//! when an action is submitted (the action list, the last action) are kept written out.

use crate::cache::{empty_list, raw, CoordView, MoveView, PieceCache};
use crate::game::Play;
use crate::seats::Viewer;
use crate::terms::color_name;
use chess5d_rules::{BoardId, Color, Move, Position};
use serde::ser::{SerializeSeq, Serializer};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};
use std::borrow::Cow;
use std::sync::atomic::Ordering;

/// An arrow from one square to another (a check).
#[derive(Debug, Serialize)]
struct Arrow {
    from: CoordView,
    to: CoordView,
}

/// One board with its pieces.
#[derive(Debug, Serialize)]
struct BoardView<'a> {
    l: i32,
    t: i32,
    label: String,
    turn: i32,
    color: &'static str,
    playable: bool,
    mandatory: bool,
    pieces: &'a RawValue,
}

#[derive(Debug, Serialize)]
struct TimelineView {
    l: i32,
    label: String,
    active: bool,
    start: Option<i32>,
    end: Option<i32>,
    origin: Option<Origin>,
}

/// The board a timeline branched from.
#[derive(Debug, Serialize)]
struct Origin {
    l: i32,
    t: i32,
}

#[derive(Debug, Serialize)]
struct Size {
    w: u8,
    h: u8,
}

#[derive(Debug, Serialize)]
struct PlayerView<'a> {
    display: String,
    engine: bool,
    config: &'a crate::game::Player,
}

#[derive(Debug, Serialize)]
struct Players<'a> {
    white: PlayerView<'a>,
    black: PlayerView<'a>,
}

#[derive(Debug, Serialize)]
struct Present {
    t: i32,
    turn: i32,
    color: &'static str,
}

#[derive(Debug, Serialize)]
struct ClockView {
    initial_ms: u64,
    increment_ms: u64,
    white_ms: i64,
    black_ms: i64,
    running: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    days: Option<u32>,
}

#[derive(Debug, Serialize)]
struct Online {
    white: bool,
    black: bool,
}

/// Which position of a game a view shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shown {
    /// The game now.
    #[default]
    Live,
    /// The position after the game's first `n` actions (review; live if `n` is all of them).
    At(usize),
    /// The position after move `k` of the game's variations (`variations[].moves[].node`),
    /// read-only.
    Variation(usize),
}

impl From<Option<usize>> for Shown {
    /// `at` of a request: review when given, else live.
    fn from(at: Option<usize>) -> Shown {
        at.map_or(Shown::Live, Shown::At)
    }
}

/// The game state as the page reads it (API.md), borrowed from a [`Play`].
#[derive(Debug, Serialize)]
pub struct View<'a> {
    id: i64,
    version: u64,
    variant: &'a str,
    created: &'a str,
    size: Size,
    even: bool,
    players: Players<'a>,
    to_move: &'static str,
    human_to_move: bool,
    present: Present,
    boards: Boards<'a>,
    timelines: Vec<TimelineView>,
    pending: Vec<MoveView>,
    last_action: Cow<'a, RawValue>,
    check: Option<Arrow>,
    checks: Vec<Arrow>,
    can_submit: bool,
    submit_error: Option<String>,
    promotions: Vec<char>,
    result: &'a Option<String>,
    termination: &'a Option<String>,
    actions: &'a RawValue,
    action_count: usize,
    review: Option<usize>,
    variations: Cow<'a, RawValue>,
    variation: Option<usize>,
    pgn: &'a str,
    clock: Option<ClockView>,
    puzzle: Option<Cow<'a, crate::game::PuzzleRun>>,
    engine_busy: bool,
    thinking_ms: Option<u64>,
    engine_error: &'a Option<String>,
    engine_info: &'a Option<String>,
    draw_offer: Option<&'static str>,
    draw_declined: Option<&'static str>,
    online: Online,
    seated: bool,
    /// The server's: the sides whose invite link nobody has taken yet.
    #[serde(skip_serializing_if = "Option::is_none")]
    invites_open: Option<Vec<&'static str>>,
}

/// The boards of the position shown, written one by one as the view is written.
#[derive(Debug)]
struct Boards<'a> {
    pos: Cow<'a, Position>,
    cache: &'a PieceCache,
    /// Whether moves can be played on them (the live position of a game not over).
    open: bool,
    mandatory: Vec<BoardId>,
    /// The boards moved from in the action being built (no longer playable).
    played: Vec<BoardId>,
}

impl Serialize for Boards<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let pos = &*self.pos;
        self.cache.write(pos, s, |id, pieces, seq| {
            seq.serialize_element(&BoardView {
                l: id.l,
                t: id.t,
                label: pos.timeline_label(id.l),
                turn: id.turn(),
                color: color_name(id.color()),
                playable: self.open && pos.is_playable(id) && !self.played.contains(&id),
                mandatory: self.open && self.mandatory.contains(&id),
                pieces,
            })
        })
    }
}

impl Play {
    /// The view of the game for `viewer` (live, or the position `shown`: see [`Shown`]) as a typed
    /// value to write: what each viewer may see is decided here. The side to move's tries (the
    /// moves of its action not submitted yet) are its seat's alone: anyone else sees the
    /// position as last submitted. `id`, `online` (seat holders connected) and `seated` are the
    /// server's; the local back-end gives its own id, no presence and no seats. `invites_open`
    /// (the server's) lists the sides whose invite link is still open; `None` leaves it out.
    pub fn view_for(
        &self,
        viewer: Viewer,
        shown: Shown,
        id: i64,
        online: [bool; 2],
        seated: bool,
        invites_open: Option<Vec<&'static str>>,
    ) -> View<'_> {
        let n = self.game.actions().len();
        // A variation move shown: its number, the position after it and its action.
        let (variation, variation_pos, variation_last) = match shown {
            Shown::Variation(k) => match self.variations.as_ref().and_then(|v| v.shown(k)) {
                Some((depth, pos, last)) => (Some((k, depth)), Some(pos), Some(last)),
                None => (None, None, None),
            },
            _ => (None, None, None),
        };
        let review = match (variation, shown) {
            (Some((_, depth)), _) => Some(depth),
            (None, Shown::At(a)) => Some(a).filter(|&a| a < n),
            _ => None,
        };
        let variation = variation.map(|(k, _)| k);
        let tries = self.game.position().action_moves().next().is_some();
        let hide = tries && !viewer.sees_tries_of(self.to_move());
        let pos: Cow<'_, Position> = match (variation_pos, review) {
            (Some(p), _) => Cow::Owned(p),
            (None, Some(a)) => Cow::Owned(self.position_after(a)),
            (None, None) if hide => {
                let mut g = self.game.clone();
                while g.undo_move().is_some() {}
                Cow::Owned(g.position().clone())
            }
            (None, None) => Cow::Borrowed(self.game.position()),
        };
        let live = review.is_none();
        let over = self.is_over();
        let pending: Vec<&Move> = if live { pos.action_moves().collect() } else { Vec::new() };
        let played: Vec<_> = pending.iter().map(|m| m.from.board).collect();
        let last_action = match (variation_last, review) {
            (Some(last), _) => Cow::Owned(last),
            (None, None) => Cow::Borrowed(&*self.texts.last),
            (None, Some(0)) => Cow::Owned(empty_list()),
            (None, Some(a)) => {
                let before = self.position_after(a - 1);
                let moves: Vec<MoveView> = self.game.actions()[a - 1]
                    .moves
                    .iter()
                    .map(|m| MoveView::new(&before, m))
                    .collect();
                Cow::Owned(raw(&moves))
            }
        };
        let check = if live && !hide { self.check } else { pos.checking_move() };
        // Every capture of a royal piece the opponent would have (at a mate, more than one:
        // each is drawn, so no defence looks possible where there is none).
        let checks = if check.is_some() {
            pos.checks_after_pass()
                .iter()
                .map(|m| Arrow {
                    from: CoordView::new(&pos, m.from),
                    to: CoordView::new(&pos, m.to),
                })
                .collect()
        } else {
            Vec::new()
        };
        let submit = if live {
            pos.can_submit().map_err(|e| e.to_string())
        } else {
            Err("reviewing".into())
        };
        let to_move = pos.to_move();
        let player = |c: Color| PlayerView {
            display: self.players[c.index()].display(),
            engine: self.players[c.index()].is_engine(),
            config: &self.players[c.index()],
        };
        let timelines = pos
            .timelines()
            .map(|l| TimelineView {
                l,
                label: pos.timeline_label(l),
                active: pos.is_active(l),
                start: pos.timeline_start(l),
                end: pos.timeline_end(l),
                origin: pos.timeline_origin(l).map(|b| Origin { l: b.l, t: b.t }),
            })
            .collect();
        let pending = pending.iter().map(|m| MoveView::new(&pos, m)).collect();
        let check = check.map(|(a, r)| Arrow {
            from: CoordView::new(&pos, a),
            to: CoordView::new(&pos, r),
        });
        let size = Size {
            w: pos.size().width,
            h: pos.size().height,
        };
        let present = Present {
            t: pos.present(),
            turn: pos.present_turn(),
            color: color_name(Color::of_time(pos.present())),
        };
        let even = pos.even();
        let promotions = pos.promotions().iter().map(|r| r.letter()).collect();
        let mandatory = pos.mandatory_boards();
        View {
            id,
            version: self.version_for(viewer),
            variant: &self.variant,
            created: &self.created,
            size,
            even,
            players: Players {
                white: player(Color::White),
                black: player(Color::Black),
            },
            to_move: color_name(to_move),
            human_to_move: live && !over && !self.players[to_move.index()].is_engine(),
            present,
            boards: Boards {
                pos,
                cache: &self.pieces,
                open: live && !over,
                mandatory,
                played,
            },
            timelines,
            pending,
            last_action,
            check,
            checks,
            can_submit: submit.is_ok() && live && !over,
            submit_error: submit.err(),
            promotions,
            result: &self.result,
            termination: &self.termination,
            actions: &self.texts.list,
            action_count: n,
            review,
            variations: self
                .variations
                .as_ref()
                .map_or_else(|| Cow::Owned(empty_list()), |v| Cow::Borrowed(&*v.list)),
            variation,
            pgn: &self.pgn_text,
            clock: self.clock.as_ref().map(|c| ClockView {
                initial_ms: c.initial_ms,
                increment_ms: c.increment_ms,
                white_ms: c.now_ms(Color::White, self.to_move()).max(0),
                black_ms: c.now_ms(Color::Black, self.to_move()).max(0),
                running: c.turn_started.is_some() && !over,
                days: c.days,
            }),
            // A puzzle from a mistake keeps the engine's best from its solver until it is over.
            puzzle: self.puzzle.as_ref().map(|p| match &p.better {
                Some(b) if p.status == "playing" && b.best.is_some() => {
                    let mut p = p.clone();
                    if let Some(b) = &mut p.better {
                        b.best = None;
                        b.best_text = None;
                    }
                    Cow::Owned(p)
                }
                _ => Cow::Borrowed(p),
            }),
            engine_busy: self.engine_busy,
            thinking_ms: self
                .engine_busy
                .then(|| self.thinking_since.map_or(0, |t| t.elapsed().as_millis() as u64)),
            engine_error: &self.engine_error,
            engine_info: &self.engine_info,
            draw_offer: self.draw_offer.map(color_name),
            draw_declined: self.draw_declined.map(color_name),
            online: Online {
                white: online[0],
                black: online[1],
            },
            seated,
            invites_open,
        }
    }

    /// The JSON view of the game for `viewer` (see [`Play::view_for`]) as text, without seats:
    /// what the static site answers.
    pub fn view_text(&self, viewer: Viewer, shown: Shown, id: i64) -> String {
        view_text(&self.view_for(viewer, shown, id, [false, false], false, None))
    }

    /// Refuses a position to show that the game does not have (a variation move beyond its
    /// variations'; an `at` beyond its actions shows it live).
    pub fn check_shown(&self, shown: Shown, id: i64) -> Result<(), crate::error::PlayError> {
        match shown {
            Shown::Variation(k) if k >= self.variation_actions() => Err(crate::error::PlayError::NoVariation {
                variation: k,
                game: id,
                moves: self.variation_actions(),
            }),
            _ => Ok(()),
        }
    }
}

/// A view written as JSON text.
pub fn view_text(v: &View<'_>) -> String {
    let hint = &v.boards.cache.last_len;
    let mut out = Vec::with_capacity(hint.load(Ordering::Relaxed) + 1024);
    match serde_json::to_writer(&mut out, v) {
        Ok(()) => {
            hint.store(out.len(), Ordering::Relaxed);
            // serde_json writes valid UTF-8 only.
            String::from_utf8(out).unwrap_or_default()
        }
        Err(e) => json!({ "error": e.to_string() }).to_string(),
    }
}

/// A view as a JSON value.
pub fn view_value(v: &View<'_>) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}
