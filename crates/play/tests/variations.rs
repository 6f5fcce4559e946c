//! chess5d-play: an imported game keeps the variations of its Branched 5DPGN: listed in its view
//! (line by line, each move numbered), shown read-only (`?variation=k`), stored with it and
//! exported again.

use chess5d_play::request::{parse, CreateReq, Query};
use chess5d_play::seats::Viewer;
use chess5d_play::{ErrorKind, Play, PlayError, Shown};
use serde_json::{json, Value};

/// A game with two variations, one with a variation of its own.
const BRANCHED: &str = "[Board \"Standard\"]\n[Event \"Variations\"]\n\n\
    1. e4 (/ c5 (2. Nc3 / Nc6) 2. Nf3 / d6) / e5\n\
    2. Nf3 (/ Nf6 3. Nxe5) / Nc6\n\
    3. Bc4 / Bc5\n";

fn import(text: &str) -> Result<Play, PlayError> {
    let req: CreateReq = parse(&json!({ "import": text }).to_string())?;
    Ok(req.check(&[], "2026-11-27 00:00:00".into())?.play)
}

fn view(p: &Play, shown: Shown) -> Value {
    serde_json::from_str(&p.view_text(Viewer::Seat([true, true]), shown, 1)).expect("JSON")
}

/// The texts of a view's variation lines: `depth at parent: number.color text...`.
fn lines(v: &Value) -> Vec<String> {
    v["variations"]
        .as_array()
        .expect("variations")
        .iter()
        .map(|l| {
            let moves: Vec<String> = l["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .map(|m| {
                    format!(
                        "{}:{}{} {}",
                        m["node"],
                        m["number"],
                        &m["color"].as_str().unwrap()[..1],
                        m["text"].as_str().unwrap()
                    )
                })
                .collect();
            format!("{} {} {}: {}", l["depth"], l["at"], l["parent"], moves.join(", "))
        })
        .collect()
}

#[test]
fn imported_variations_are_listed_under_the_action_they_branch_from() {
    let p = import(BRANCHED).unwrap();
    assert_eq!(p.game.actions().len(), 6, "the main line is the game");
    let v = view(&p, Shown::Live);
    assert_eq!(
        lines(&v),
        [
            "1 1 null: 0:1b c5, 1:2w Nf3, 2:2b d6",
            "2 1 0: 3:2w Nc3, 4:2b Nc6",
            "1 3 null: 5:2b Nf6, 6:3w Nxe5",
        ]
    );
    assert_eq!(p.variation_actions(), 7);
    assert_eq!(v["variation"], Value::Null);
    // A game without variations lists none.
    let plain = import("[Board \"Standard\"]\n\n1. e4 / e5\n").unwrap();
    assert_eq!(view(&plain, Shown::Live)["variations"], json!([]));
    assert_eq!(plain.variation_actions(), 0);
}

#[test]
fn a_variation_move_is_shown_read_only_and_the_game_is_unchanged() {
    let p = import(BRANCHED).unwrap();
    let live = view(&p, Shown::Live);
    // After 1... c5 of the first variation: Black's pawn on c5, White to move, nothing to play.
    let v = view(&p, Shown::Variation(0));
    assert_eq!(v["variation"], 0);
    assert_eq!(v["review"], 2, "the actions leading to it");
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["human_to_move"], false);
    assert_eq!(v["can_submit"], false);
    let last = v["boards"].as_array().unwrap().last().unwrap().clone();
    let pieces = last["pieces"].as_array().unwrap();
    let on = |sq: &str| {
        pieces
            .iter()
            .find(|x| x["sq"] == sq)
            .map(|x| format!("{} {}", x["c"].as_str().unwrap(), x["p"].as_str().unwrap()))
    };
    assert_eq!(on("c5").as_deref(), Some("black P"));
    assert_eq!(on("e5"), None, "not the game's 1... e5");
    assert!(last.get("playable").is_some_and(|b| b == false));
    assert_eq!(v["last_action"][0]["long"], "(0T1)c7(0T1)c5");
    // The nested line: after 2. Nc3 / Nc6.
    let nested = view(&p, Shown::Variation(4));
    assert_eq!(nested["review"], 4);
    assert_eq!(nested["to_move"], "white");
    // The game itself is as it was.
    let mut again = view(&p, Shown::Live);
    let mut before = live.clone();
    for x in [&mut again, &mut before] {
        x.as_object_mut().unwrap().remove("version");
    }
    assert_eq!(again, before);
    assert_eq!(live["review"], Value::Null);
    assert_eq!(live["human_to_move"], true);
}

#[test]
fn export_writes_the_variations_again_and_reads_back_the_same() {
    let p = import(BRANCHED).unwrap();
    let first = p.pgn();
    assert!(
        first.contains("1. e4 (/ c5 (2. Nc3 / Nc6) 2. Nf3 / d6) / e5\n"),
        "{first}"
    );
    assert!(first.contains("2. Nf3 (/ Nf6 3. Nxe5) / Nc6\n"), "{first}");
    let second = import(&first).unwrap().pgn();
    assert_eq!(first, second, "export, import, export");
    assert_eq!(
        lines(&view(&import(&first).unwrap(), Shown::Live)),
        lines(&view(&p, Shown::Live))
    );
}

#[test]
fn variations_are_stored_with_the_game_and_kept_when_it_is_played_on() {
    let mut p = import(BRANCHED).unwrap();
    let record = p.record(3, "2026-11-27 00:00:01".into());
    assert!(record.variations.contains("(/ c5"), "{}", record.variations);
    // Through JSON, as the static site's IndexedDB and the server's row keep it.
    let record: chess5d_play::Record = serde_json::from_str(&serde_json::to_string(&record).unwrap()).unwrap();
    let restored = Play::restore(&record).unwrap();
    assert_eq!(restored.pgn(), p.pgn());
    assert_eq!(
        view(&restored, Shown::Variation(5))["last_action"],
        view(&p, Shown::Variation(5))["last_action"]
    );
    assert_eq!(lines(&view(&restored, Shown::Live)), lines(&view(&p, Shown::Live)));
    // Played on: the new action is on the main line, the variations stay.
    p.play("(0T4)d2(0T4)d3").unwrap();
    p.submit().unwrap();
    let pgn = p.pgn();
    assert!(pgn.contains("3. Bc4 / Bc5\n4. d3\n"), "{pgn}");
    assert!(pgn.contains("(/ Nf6 3. Nxe5)"), "{pgn}");
    let record = p.record(3, "2026-11-27 00:00:02".into());
    let restored = Play::restore(&record).unwrap();
    assert_eq!(restored.pgn(), pgn);
    assert_eq!(lines(&view(&restored, Shown::Live)), lines(&view(&p, Shown::Live)));
    // A record from before variations were kept reads as a game without any.
    let mut old = serde_json::to_value(&record).unwrap();
    old.as_object_mut().unwrap().remove("variations");
    let old: chess5d_play::Record = serde_json::from_value(old).unwrap();
    assert_eq!(
        view(&Play::restore(&old).unwrap(), Shown::Live)["variations"],
        json!([])
    );
}

#[test]
fn an_illegal_variation_move_is_refused_saying_where() {
    let bad = BRANCHED.replace("Nxe5", "Nxe7");
    let e = import(&bad).unwrap_err();
    assert_eq!((e.kind(), e.code()), (ErrorKind::Invalid, "cannot_import"));
    assert_eq!(
        e.to_string(),
        "cannot import: action 5, 'Nxe7' at line 5, column 18: no legal move matches: no white knight can move to e7"
    );
}

#[test]
fn a_variation_move_is_asked_for_by_its_number() {
    let p = import(BRANCHED).unwrap();
    assert_eq!(Query::parse("variation=3").shown().unwrap(), Shown::Variation(3));
    assert_eq!(Query::parse("at=2").shown().unwrap(), Shown::At(2));
    assert_eq!(Query::parse("").shown().unwrap(), Shown::Live);
    let bad = Query::parse("variation=x").shown().unwrap_err();
    assert_eq!(
        bad.to_string(),
        "query parameter 'variation' must be a variation move's number, got 'x'"
    );
    let both = Query::parse("variation=1&at=2").shown().unwrap_err();
    assert_eq!(both.code(), "either_or");
    assert!(p.check_shown(Shown::Variation(6), 1).is_ok());
    let beyond = p.check_shown(Shown::Variation(7), 1).unwrap_err();
    assert_eq!((beyond.kind(), beyond.code()), (ErrorKind::Invalid, "no_variation"));
    assert_eq!(
        beyond.to_string(),
        "'variation' is 7 but game 1 has 7 variation moves (numbered from 0)"
    );
    let plain = import("[Board \"Standard\"]\n\n1. e4\n").unwrap();
    assert_eq!(
        plain.check_shown(Shown::Variation(0), 2).unwrap_err().to_string(),
        "'variation' is 0 but game 2 has no variations"
    );
}
