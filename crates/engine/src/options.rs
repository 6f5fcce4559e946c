//! The engine's options, declared once.
//!
//! Every option is one entry of the table below (the `options!` invocation, as Stockfish's
//! `OptionsMap`): its field of [`EngineOptions`] with the field's doc and its default (or, for
//! the evaluation's terms, the part of the `weights` field it sets), its 5DUCI name, its kind
//! (spin, check, combo or string, with its range) and, when setting it must do more than store
//! the value, the method of the engine that does it (see `Host`). The defaults
//! ([`EngineOptions::default`]), the `option` lines
//! ([`Engine::option_specs`](crate::Engine::option_specs)), `setoption`
//! ([`Engine::set_option`](crate::Engine::set_option)) and what the search reads all come from
//! it: the search reads the fields themselves. Adding an option is adding an entry.

use crate::terms::Weights;
use crate::weights::WEIGHTS;
use std::fmt;

/// Which player the engine is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bot {
    /// The full search.
    #[default]
    AlphaBeta,
    /// One ply: the action with the best static evaluation.
    Greedy,
    /// A uniformly random action among the first `ActionCap` legal ones.
    Random,
}

impl Bot {
    /// All bots, in the order of the `Bot` option's values.
    pub const ALL: [Bot; 3] = [Bot::AlphaBeta, Bot::Greedy, Bot::Random];

    /// The option value naming this bot (`alphabeta`, `greedy`, `random`).
    pub fn name(self) -> &'static str {
        match self {
            Bot::AlphaBeta => "alphabeta",
            Bot::Greedy => "greedy",
            Bot::Random => "random",
        }
    }

    /// The bot of an option value, case-insensitively.
    pub fn from_name(s: &str) -> Option<Bot> {
        Bot::ALL.into_iter().find(|b| b.name().eq_ignore_ascii_case(s.trim()))
    }
}

/// The type and range of an option, as 5DUCI announces it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// A switch, `true` or `false`.
    Check {
        /// Default value.
        default: bool,
    },
    /// One of a list of words.
    Combo {
        /// Default value.
        default: String,
        /// Allowed values.
        vars: Vec<String>,
    },
    /// Any text.
    String {
        /// Default value.
        default: String,
    },
}

/// One option of the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The option's name.
    pub name: &'static str,
    /// Its type.
    pub kind: OptionKind,
    /// What it does: the doc of its field of [`EngineOptions`], on one line.
    pub doc: String,
}

impl OptionSpec {
    /// The `option name ... type ...` line of 5DUCI.
    pub fn uci_line(&self) -> String {
        let name = self.name;
        match &self.kind {
            OptionKind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionKind::Check { default } => format!("option name {name} type check default {default}"),
            OptionKind::Combo { default, vars } => {
                let mut s = format!("option name {name} type combo default {default}");
                for v in vars {
                    s.push_str(" var ");
                    s.push_str(v);
                }
                s
            }
            OptionKind::String { default } => format!("option name {name} type string default {default}"),
        }
    }
}

/// Why an option could not be set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown(String),
    /// The value is not valid for the option.
    BadValue {
        /// The option.
        name: String,
        /// The value given.
        value: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "unknown option '{n}'"),
            OptionError::BadValue { name, value } => write!(f, "invalid value '{value}' for option '{name}'"),
        }
    }
}

impl std::error::Error for OptionError {}

/// How an option of a field of type `T` is announced and read.
trait Kind<T> {
    /// The option's type, with `default` as its default.
    fn announce(&self, default: &T) -> OptionKind;
    /// The value of a `setoption` text, if valid.
    fn parse(&self, text: &str) -> Option<T>;
}

/// `type spin`, from the first number to the second, for an integer field or a switch given as
/// 0 or 1.
struct Spin(i64, i64);

/// `type check` (`true` or `false`), for a switch. (No option is one yet: the switches of the
/// table are spins from 0 to 1, as clients already send them.)
#[allow(dead_code)]
struct Check;

/// `type combo`, for a field whose values are words ([`ComboValue`]).
struct Combo;

/// `type string`, for a text field. (No option is one yet.)
#[allow(dead_code)]
struct Text;

/// A field type that a spin option sets.
trait SpinValue: Sized {
    fn to_spin(&self) -> i64;
    fn from_spin(v: i64) -> Self;
}

macro_rules! spin_value {
    ($($t:ty),*) => {$(
        impl SpinValue for $t {
            fn to_spin(&self) -> i64 {
                *self as i64
            }
            fn from_spin(v: i64) -> Self {
                v as $t
            }
        }
    )*};
}

spin_value!(usize, u64, u32, i32);

/// A switch as a spin from 0 to 1 (1 is on).
impl SpinValue for bool {
    fn to_spin(&self) -> i64 {
        i64::from(*self)
    }
    fn from_spin(v: i64) -> Self {
        v == 1
    }
}

impl<T: SpinValue> Kind<T> for Spin {
    fn announce(&self, default: &T) -> OptionKind {
        OptionKind::Spin {
            default: default.to_spin(),
            min: self.0,
            max: self.1,
        }
    }
    fn parse(&self, text: &str) -> Option<T> {
        let v: i64 = text.trim().parse().ok()?;
        (self.0..=self.1).contains(&v).then(|| T::from_spin(v))
    }
}

impl Kind<bool> for Check {
    fn announce(&self, default: &bool) -> OptionKind {
        OptionKind::Check { default: *default }
    }
    fn parse(&self, text: &str) -> Option<bool> {
        let text = text.trim();
        [true, false]
            .into_iter()
            .find(|b| b.to_string().eq_ignore_ascii_case(text))
    }
}

/// A field type whose values are words, set by a combo option.
trait ComboValue: Sized {
    /// Every value, in the announced order.
    fn all() -> Vec<Self>;
    /// The word of a value.
    fn word(&self) -> &'static str;
    /// The value of a word (any case).
    fn from_word(word: &str) -> Option<Self>;
}

impl ComboValue for Bot {
    fn all() -> Vec<Bot> {
        Bot::ALL.to_vec()
    }
    fn word(&self) -> &'static str {
        self.name()
    }
    fn from_word(word: &str) -> Option<Bot> {
        Bot::from_name(word)
    }
}

impl<T: ComboValue> Kind<T> for Combo {
    fn announce(&self, default: &T) -> OptionKind {
        OptionKind::Combo {
            default: default.word().to_string(),
            vars: T::all().iter().map(|v| v.word().to_string()).collect(),
        }
    }
    fn parse(&self, text: &str) -> Option<T> {
        T::from_word(text)
    }
}

impl Kind<String> for Text {
    fn announce(&self, default: &String) -> OptionKind {
        OptionKind::String {
            default: default.clone(),
        }
    }
    fn parse(&self, text: &str) -> Option<String> {
        Some(text.trim().to_string())
    }
}

/// What setting an option may do to the engine beyond storing its value (the engine is the
/// host of its options).
pub(crate) trait Host {
    /// Makes a transposition table of the size the options say.
    fn resize_table(&mut self);
    /// Restarts the random stream from the seed the options say.
    fn reseed(&mut self);
}

/// What the engine does once an option's value is stored: a method of [`Host`].
pub(crate) type Then = fn(&mut (dyn Host + 'static));

/// One entry of the table: an option's name, doc, announcement and setter.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// The 5DUCI name.
    pub name: &'static str,
    /// The doc of its field, a line of text per line of the doc.
    pub doc: &'static str,
    /// Its kind, with the default read from the default options.
    pub kind: fn(&EngineOptions) -> OptionKind,
    /// Reads a value and stores it (`None`, nothing stored: the value is not valid).
    pub set: fn(&mut EngineOptions, &str) -> Option<()>,
    /// What the engine does after the value is stored, if anything.
    pub then: Option<Then>,
}

/// Makes [`EngineOptions`] and [`TABLE`] from the entries. In the first block each entry is
/// the field's doc, then `field: Type = default, "Name", Kind` and optionally `, then function`
/// (what the engine does once the value is stored). Then a field made of parts (the
/// evaluation's weights): its doc, `field: Type = default`, and a block of entries, one per
/// part set by an option: the option's doc, then `part: Type, "Name", Kind`.
macro_rules! options {
    (
        options {$(
            $(#[doc = $doc:literal])*
            $field:ident: $ty:ty = $default:expr, $name:literal, $kind:expr $(, then $then:expr)?;
        )*}
        $(#[doc = $gdoc:literal])*
        $group:ident: $gty:ty = $gdefault:expr, options {$(
            $(#[doc = $pdoc:literal])*
            $part:ident: $pty:ty, $pname:literal, $pkind:expr;
        )*}
    ) => {
        /// The engine's settings; each one is also a 5DUCI option (see
        /// [`Engine::option_specs`](crate::Engine::option_specs)), declared once in the table of
        /// `options.rs`.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct EngineOptions {
            $(
                $(#[doc = $doc])*
                pub $field: $ty,
            )*
            $(#[doc = $gdoc])*
            pub $group: $gty,
        }

        impl Default for EngineOptions {
            fn default() -> Self {
                EngineOptions {
                    $($field: $default,)*
                    $group: $gdefault,
                }
            }
        }

        /// Every option, in the order 5DUCI announces them.
        pub(crate) const TABLE: &[Entry] = &[$(
            Entry {
                name: $name,
                doc: concat!($($doc, "\n"),*),
                kind: |d| Kind::<$ty>::announce(&$kind, &d.$field),
                set: |o, text| {
                    o.$field = Kind::<$ty>::parse(&$kind, text)?;
                    Some(())
                },
                then: options!(@then $($then)?),
            },
        )* $(
            Entry {
                name: $pname,
                doc: concat!($($pdoc, "\n"),*),
                kind: |d| Kind::<$pty>::announce(&$pkind, &d.$group.$part),
                set: |o, text| {
                    o.$group.$part = Kind::<$pty>::parse(&$pkind, text)?;
                    Some(())
                },
                then: None,
            },
        )*];
    };
    (@then) => { None };
    (@then $then:expr) => { Some($then as Then) };
}

options! {
    options {
        /// Transposition table size in MB (`Hash`).
        hash_mb: usize = 16, "Hash", Spin(1, 4096), then <dyn Host>::resize_table;
        /// Search threads (`Threads`): helpers scout the main thread's principal line and search
        /// ahead of it, sharing the table (one in WebAssembly).
        threads: usize = 1, "Threads", Spin(1, 256);
        /// Which player (`Bot`).
        bot: Bot = Bot::AlphaBeta, "Bot", Combo;
        /// Most legal actions examined per interior node (`ActionCap`); the root takes four times
        /// as many.
        action_cap: usize = 96, "ActionCap", Spin(1, 100_000);
        /// Candidate tests allowed to find a node's actions (`NodeBudget`), see
        /// [`Budget`](chess5d_rules::Budget).
        node_budget: u64 = 10_000, "NodeBudget", Spin(100, 100_000_000);
        /// Seed of the random bot and of tie-breaks (`Seed`); 0 takes one from the clock, so that
        /// the games of a match differ. The stream goes on from game to game.
        seed: u64 = 0, "Seed", Spin(0, i64::MAX), then <dyn Host>::reseed;
        /// Time kept in reserve per action for process and pipe latency (`MoveOverhead`, ms).
        move_overhead_ms: u64 = 50, "MoveOverhead", Spin(0, 10_000);
        /// How many of an interior node's actions get a capture or a check on a board the mover
        /// need not play added (`OptionalTactics`; 0 turns it off).
        optional_tactics: usize = 0, "OptionalTactics", Spin(0, 1000);
        /// How many best actions a search reports, each with its score and line (`MultiPV`;
        /// 1: only the best). Every line is searched with an exact score, so more lines cost time.
        multipv: usize = 1, "MultiPV", Spin(1, 256);
        /// Whether the quick generator shares its cap among the moves of the first board it plays
        /// (`QuickSpread`, 0 or 1): with few moves there, each gets more combinations of the other
        /// boards' moves (otherwise four at most).
        quick_spread: bool = true, "QuickSpread", Spin(0, 1);
        /// Whether a search skips an iteration predicted to end after its hard limit
        /// (`PredictIterations`, 0 or 1), keeping the time for later actions.
        predict_iterations: bool = false, "PredictIterations", Spin(0, 1);
        /// The share of the clock planned for one action: the remaining time divided by this, plus
        /// three quarters of the increment (`TimeDivisor`).
        time_divisor: u32 = 15, "TimeDivisor", Spin(2, 1000);
        /// The quick generator's ordering bonus for a move that attacks an enemy royal piece on the
        /// board it lands on (`CheckBonus`, centipawn-like units; 0 turns the test off).
        check_bonus: i32 = 300, "CheckBonus", Spin(0, 1_000_000);
        /// Null-move pruning (`NullMove`, 0 or 1): at depth 3 or more, a side not in check whose
        /// static score beats beta passes; if a reduced search still beats beta, the node is cut.
        null_move: bool = true, "NullMove", Spin(0, 1);
        /// Late-move reductions (`LMR`, 0 or 1): quiet actions late in the order (no capture,
        /// promotion or check) are searched a ply shallower first, and again fully if they raise
        /// alpha.
        lmr: bool = true, "LMR", Spin(0, 1);
        /// More time for critical actions (`TimeCritical`, per cent; 0 turns it off): the soft
        /// limit (no new iteration after it) moves this much further in check or with several
        /// timelines, and half as much again whenever an iteration changes its best action or
        /// its score falls; the hard limit stays.
        time_critical: u32 = 0, "TimeCritical", Spin(0, 1000);
        /// Filling a short action list (`FillActions`, per cent of the cap; 0 turns it off): when
        /// the quick generator gives up on a node (its combinations of per-board moves keep failing
        /// the submission test, as with several timelines in check across time) having found fewer
        /// actions than this share of the cap, the full legal-action search adds more.
        fill_actions: u32 = 25, "FillActions", Spin(0, 100);
        /// Captures at the leaves (`LeafThreat`, per cent; 0 turns it off): a leaf whose side to
        /// move (not in check) can capture a piece worth more than the capturer on a playable board
        /// scores that much more (the victim's value less the capturer's, weighted as the
        /// evaluation weighs that board's material), scaled by this.
        leaf_threat: i32 = 0, "LeafThreat", Spin(0, 1000);
        /// The most timelines a position may have for `LeafThreat` to look at it (`LeafThreatLines`).
        leaf_threat_lines: usize = 1000, "LeafThreatLines", Spin(1, 1000);
        /// Aspiration window at the root (`Aspiration`, centipawns; 0 turns it off): from depth 3,
        /// an iteration searches within this much of the last score first.
        aspiration: i32 = 0, "Aspiration", Spin(0, 100_000);
        /// Reverse futility pruning (`Futility`, centipawns per ply; 0 turns it off): at a depth of
        /// at most `FutilityDepth`, a side not in check whose static score beats beta by this much
        /// per ply of depth left is cut without a search (no action generated).
        futility: i32 = 100, "Futility", Spin(0, 100_000);
        /// The deepest remaining depth `Futility` cuts at (`FutilityDepth`).
        futility_depth: i32 = 3, "FutilityDepth", Spin(1, 100);
        /// Late-move pruning (`LateMovePrune`; 0 turns it off): at depth 2, a side not in check
        /// searches no quiet action (no capture, promotion or check as far as tested, not the
        /// stored best nor a killer) after this many actions.
        late_move_prune: usize = 0, "LateMovePrune", Spin(0, 100_000);
        /// The least depth null-move pruning is tried at (`NullMinDepth`).
        null_min_depth: i32 = 3, "NullMinDepth", Spin(1, 100);
    }
    /// The weights this engine evaluates with: [`WEIGHTS`] by default; the `Eval...` options
    /// below set some of them, for tuning matches. They belong to the engine (each engine of a
    /// process has its own).
    weights: Weights = WEIGHTS, options {
        /// The evaluation's weight of an extra active timeline of one's own
        /// (`EvalActiveTimeline`; [`Weights::active_timeline`]).
        active_timeline: i32, "EvalActiveTimeline", Spin(-10_000, 10_000);
        /// The evaluation's weight of an extra inactive timeline of one's own
        /// (`EvalInactiveTimeline`; [`Weights::inactive_timeline`]).
        inactive_timeline: i32, "EvalInactiveTimeline", Spin(-10_000, 10_000);
        /// The evaluation's weight of an enemy piece near a royal piece (`EvalRoyalDanger`;
        /// [`Weights::royal_danger`]).
        royal_danger: i32, "EvalRoyalDanger", Spin(-10_000, 10_000);
        /// The evaluation's weight of an own piece shielding a royal piece (`EvalRoyalShield`;
        /// [`Weights::royal_shield`]).
        royal_shield: i32, "EvalRoyalShield", Spin(-10_000, 10_000);
        /// The evaluation's cost of being in check (`EvalInCheck`; [`Weights::in_check`]).
        in_check: i32, "EvalInCheck", Spin(-10_000, 10_000);
        /// The evaluation's value of having the move (`EvalTempo`; [`Weights::tempo`]).
        tempo: i32, "EvalTempo", Spin(-10_000, 10_000);
        /// The evaluation's weight of a piece that can travel to a past (`EvalTraveller`;
        /// [`Weights::traveller`]).
        traveller: i32, "EvalTraveller", Spin(-10_000, 10_000);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_announces_and_reads_its_values() {
        assert_eq!(Kind::<u32>::parse(&Spin(0, 10), " 7 "), Some(7));
        assert_eq!(Kind::<u32>::parse(&Spin(0, 10), "11"), None);
        assert_eq!(Kind::<bool>::parse(&Spin(0, 1), "1"), Some(true));
        assert_eq!(Kind::<bool>::parse(&Spin(0, 1), "0"), Some(false));
        assert_eq!(Check.parse("TRUE"), Some(true));
        assert_eq!(Check.parse("false"), Some(false));
        assert_eq!(Check.parse("1"), None);
        assert_eq!(Combo.parse("Greedy"), Some(Bot::Greedy));
        assert_eq!(Kind::<Bot>::parse(&Combo, "genius"), None);
        assert_eq!(Text.parse(" a b "), Some("a b".to_string()));
        let line = |name, kind| {
            OptionSpec {
                name,
                kind,
                doc: String::new(),
            }
            .uci_line()
        };
        assert_eq!(
            line("S", Spin(1, 9).announce(&3u32)),
            "option name S type spin default 3 min 1 max 9"
        );
        assert_eq!(
            line("C", Check.announce(&true)),
            "option name C type check default true"
        );
        assert_eq!(
            line("B", Combo.announce(&Bot::Random)),
            "option name B type combo default random var alphabeta var greedy var random"
        );
        assert_eq!(
            line("T", Text.announce(&"x".to_string())),
            "option name T type string default x"
        );
    }

    #[test]
    fn the_table_names_each_option_once_and_its_defaults_are_valid() {
        let defaults = EngineOptions::default();
        for (i, e) in TABLE.iter().enumerate() {
            assert!(
                TABLE[..i].iter().all(|f| !f.name.eq_ignore_ascii_case(e.name)),
                "{} twice",
                e.name
            );
            assert!(!e.doc.trim().is_empty(), "{} has no doc", e.name);
            let default = match (e.kind)(&defaults) {
                OptionKind::Spin { default, min, max } => {
                    assert!((min..=max).contains(&default), "{}", e.name);
                    default.to_string()
                }
                OptionKind::Check { default } => default.to_string(),
                OptionKind::Combo { default, .. } | OptionKind::String { default } => default,
            };
            let mut o = EngineOptions::default();
            assert_eq!((e.set)(&mut o, &default), Some(()), "{}", e.name);
            assert_eq!(o, defaults, "{}: setting the default changes nothing", e.name);
        }
        let specs = crate::Engine::option_specs();
        assert_eq!(specs.len(), TABLE.len());
        assert_eq!(specs[0].doc, "Transposition table size in MB (`Hash`).");
        assert!(specs.iter().all(|s| !s.doc.contains('\n') && !s.doc.starts_with(' ')));
    }
}
