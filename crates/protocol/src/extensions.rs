//! The extensions of 5DUCI beyond the draft, and how an engine announces them (see
//! `PROTOCOL.md`): one `option` line, `option name 5DUCI_Extensions type string default
//! variant,clock,nodes,infinite,readyok,info`. An engine without that line speaks the draft alone.

use std::fmt;

/// The name of the option that lists an engine's extensions.
pub const EXTENSIONS_OPTION: &str = "5DUCI_Extensions";

/// Which extensions an engine has announced. The default is none: the draft alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extensions {
    /// `position variant "<name>" ...`.
    pub variant: bool,
    /// `go wtime <ms> btime <ms> winc <ms> binc <ms>`.
    pub clock: bool,
    /// `go nodes <n>`.
    pub nodes: bool,
    /// `go infinite` (searches until `stop`).
    pub infinite: bool,
    /// `isready` answered at once, even during a search.
    pub readyok: bool,
    /// `info depth .. score .. pv ..` lines while searching.
    pub info: bool,
}

impl Extensions {
    /// Every extension this project defines (what our engine announces).
    pub const ALL: Extensions = Extensions {
        variant: true,
        clock: true,
        nodes: true,
        infinite: true,
        readyok: true,
        info: true,
    };

    /// None: an engine that speaks the draft alone.
    pub const NONE: Extensions = Extensions {
        variant: false,
        clock: false,
        nodes: false,
        infinite: false,
        readyok: false,
        info: false,
    };

    fn fields(&self) -> [(&'static str, bool); 6] {
        [
            ("variant", self.variant),
            ("clock", self.clock),
            ("nodes", self.nodes),
            ("infinite", self.infinite),
            ("readyok", self.readyok),
            ("info", self.info),
        ]
    }

    /// The announced names, in the documented order.
    pub fn names(&self) -> Vec<&'static str> {
        self.fields().iter().filter(|(_, on)| *on).map(|(n, _)| *n).collect()
    }

    /// Reads a list of names (commas or spaces between them, any case); unknown names are
    /// ignored, so that an engine may announce extensions newer than this client.
    pub fn parse_list(list: &str) -> Extensions {
        let mut e = Extensions::NONE;
        for name in list.split([',', ' ', '\t']).map(str::trim).filter(|n| !n.is_empty()) {
            match name.to_ascii_lowercase().as_str() {
                "variant" => e.variant = true,
                "clock" => e.clock = true,
                "nodes" => e.nodes = true,
                "infinite" => e.infinite = true,
                "readyok" => e.readyok = true,
                "info" => e.info = true,
                _ => {}
            }
        }
        e
    }

    /// The extensions announced by these `option` lines (those of the handshake): the default
    /// of the `5DUCI_Extensions` option, none if it is missing.
    pub fn from_options<S: AsRef<str>>(options: &[S]) -> Extensions {
        options
            .iter()
            .find_map(|line| {
                let rest = line.as_ref().trim().strip_prefix("option")?.trim_start();
                let rest = rest.strip_prefix("name")?.trim_start();
                let (name, rest) = rest.split_once(" type ")?;
                if !name.trim().eq_ignore_ascii_case(EXTENSIONS_OPTION) {
                    return None;
                }
                let default = rest.split_once("default").map_or("", |(_, d)| d);
                Some(Extensions::parse_list(default))
            })
            .unwrap_or_default()
    }

    /// The `option` line announcing these extensions.
    pub fn option_line(&self) -> String {
        format!(
            "option name {EXTENSIONS_OPTION} type string default {}",
            self.names().join(",")
        )
    }
}

impl fmt::Display for Extensions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = self.names();
        if names.is_empty() {
            f.write_str("none (the draft alone)")
        } else {
            f.write_str(&names.join(", "))
        }
    }
}
