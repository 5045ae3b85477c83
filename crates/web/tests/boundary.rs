//! The JavaScript boundary in a real browser: every call with bad arguments
//! throws an `Error` with a stable `code` and changes nothing.
#![cfg(target_arch = "wasm32")]

use js_sys::Reflect;
use uttt_web::worker::{read_request, Reply, Request, Timing, Worker};
use uttt_web::{View, WebGame};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn s(text: &str) -> JsValue {
    JsValue::from_str(text)
}

fn n(value: f64) -> JsValue {
    JsValue::from_f64(value)
}

/// The `code` of a thrown error, checking it is a real `Error`.
fn code(error: &JsValue) -> String {
    assert!(
        error.is_instance_of::<js_sys::Error>(),
        "not an Error: {error:?}"
    );
    Reflect::get(error, &s("code"))
        .unwrap()
        .as_string()
        .unwrap()
}

/// Everything observable about a game, to compare before and after a call.
fn fingerprint(g: &WebGame) -> (Option<String>, Option<String>, String, View) {
    (
        g.record(),
        g.tree_record(),
        g.position_string(),
        g.snapshot(),
    )
}

/// Values that are not a cell number, whatever JavaScript coerces them to.
fn not_indexes() -> Vec<JsValue> {
    vec![
        JsValue::UNDEFINED,
        JsValue::NULL,
        s("4"),
        JsValue::TRUE,
        n(-1.0),
        n(9.0),
        n(4.5),
        n(f64::NAN),
        n(f64::INFINITY),
        js_sys::Array::new().into(),
    ]
}

#[wasm_bindgen_test]
fn constructor_refuses_unknown_names_and_non_strings() {
    for (kind, rules) in [
        (s("chess"), s("standard")),
        (s("ultimate"), s("fast")),
        (JsValue::UNDEFINED, s("standard")),
        (s("ultimate"), n(1.0)),
        (JsValue::NULL, JsValue::NULL),
    ] {
        let e = WebGame::new(kind, rules).expect_err("must be refused");
        assert_eq!(code(&e), "bad-argument");
    }
    assert!(WebGame::new(s("classic"), s("standard")).is_ok());
}

#[wasm_bindgen_test]
fn play_refuses_bad_arguments_and_illegal_moves_without_change() {
    let mut g = WebGame::new(s("ultimate"), s("standard")).unwrap();
    g.play(n(4.0), n(4.0)).unwrap();
    let before = fingerprint(&g);
    for bad in not_indexes() {
        let e = g.play(bad.clone(), n(4.0)).unwrap_err();
        assert_eq!(code(&e), "bad-argument", "board {bad:?}");
        let e = g.play(n(4.0), bad.clone()).unwrap_err();
        assert_eq!(code(&e), "bad-argument", "cell {bad:?}");
        assert_eq!(fingerprint(&g), before);
    }
    assert_eq!(code(&g.play(n(0.0), n(0.0)).unwrap_err()), "wrong-board");
    assert_eq!(code(&g.play(n(4.0), n(4.0)).unwrap_err()), "cell-taken");
    assert_eq!(fingerprint(&g), before);
}

#[wasm_bindgen_test]
fn finished_games_refuse_moves() {
    let mut g = WebGame::from_text(s("classic:a1a2b1b2c1")).unwrap();
    let before = fingerprint(&g);
    assert_eq!(code(&g.play(n(0.0), n(8.0)).unwrap_err()), "game-over");
    assert_eq!(code(&g.play(n(1.0), n(8.0)).unwrap_err()), "bad-argument");
    assert_eq!(fingerprint(&g), before);
}

#[wasm_bindgen_test]
fn jump_undo_redo_at_the_ends_change_nothing() {
    let mut g = WebGame::from_text(s("ultimate-standard:e5e4")).unwrap();
    let before = fingerprint(&g);
    for bad in not_indexes().into_iter().chain([n(3.0), n(1e9)]) {
        let e = g.jump(bad.clone()).unwrap_err();
        assert!(
            ["bad-argument", "no-such-ply"].contains(&code(&e).as_str()),
            "{bad:?}"
        );
        assert_eq!(fingerprint(&g), before);
    }
    assert!(!g.redo());
    assert_eq!(fingerprint(&g), before);
    g.jump(n(0.0)).unwrap();
    assert!(!g.undo());
    assert_eq!(View::of(g.any()).ply, 0);
    assert!(g.redo() && g.redo());
    assert_eq!(fingerprint(&g), before);
}

#[wasm_bindgen_test]
fn loading_bad_text_says_where() {
    for bad in [
        s(""),
        s("chess:e4"),
        s("ultimate-standard:e5zz"),
        JsValue::UNDEFINED,
        n(3.0),
    ] {
        assert!(WebGame::from_text(bad).is_err());
    }
    let e = WebGame::from_text(s("ultimate-standard:e5a1"))
        .err()
        .unwrap();
    assert_eq!(code(&e), "parse-error");
    assert_eq!(Reflect::get(&e, &s("at")).unwrap().as_f64(), Some(20.0));
    assert_eq!(Reflect::get(&e, &s("ply")).unwrap().as_f64(), Some(1.0));
    assert_eq!(
        Reflect::get(&e, &s("reason"))
            .unwrap()
            .as_string()
            .as_deref(),
        Some("wrong-board")
    );
}

fn get(object: &JsValue, key: &str) -> JsValue {
    Reflect::get(object, &s(key)).unwrap()
}

#[wasm_bindgen_test]
fn lines_refuse_bad_ids_without_change_and_cross_as_plain_objects() {
    let mut g = WebGame::from_text(s("ultimate-standard:e5e4(f5)d2")).unwrap();
    let before = fingerprint(&g);
    for bad in not_indexes().into_iter().chain([n(99.0), n(1e12)]) {
        let e = g.jump_to(bad.clone()).unwrap_err();
        assert!(
            ["bad-argument", "no-such-position"].contains(&code(&e).as_str()),
            "{bad:?}"
        );
        assert!(!g.promote(bad.clone()), "{bad:?}");
        assert!(!g.delete_line(bad.clone()), "{bad:?}");
        assert_eq!(fingerprint(&g), before);
    }
    // The start is no line to promote or delete.
    assert!(!g.promote(n(0.0)) && !g.delete_line(n(0.0)));
    assert_eq!(fingerprint(&g), before);

    let items = js_sys::Array::from(&g.lines().unwrap());
    let kinds: Vec<String> = items
        .iter()
        .map(|i| get(&i, "kind").as_string().unwrap())
        .collect();
    assert_eq!(kinds, ["move", "move", "open", "move", "close", "move"]);
    let f5 = items.get(3);
    assert_eq!(get(&f5, "notation").as_string().as_deref(), Some("f5"));
    assert_eq!(get(&f5, "ply").as_f64(), Some(2.0));
    assert_eq!(get(&f5, "shown").as_bool(), Some(false));
    assert_eq!(get(&f5, "main").as_bool(), Some(false));
    let id = get(&f5, "id");
    g.jump_to(id.clone()).unwrap();
    assert_eq!(g.record().as_deref(), Some("ultimate-standard:e5f5"));
    let v = g.view().unwrap();
    assert_eq!(get(&v, "node").as_f64(), id.as_f64());
    assert_eq!(get(&v, "lineEnd").as_f64(), id.as_f64());
    assert_eq!(get(&v, "sideLines").as_bool(), Some(true));
    assert_eq!(
        g.tree_record().as_deref(),
        Some("ultimate-standard:e5e4(f5)d2")
    );
}

fn json(text: &str) -> JsValue {
    js_sys::JSON::parse(text).unwrap()
}

#[wasm_bindgen_test]
fn the_view_crosses_as_a_plain_object_in_camel_case_with_null_for_none() {
    let g = WebGame::from_text(s("ultimate-standard:e5")).unwrap();
    let v = g.view().unwrap();
    assert_eq!(get(&v, "kind").as_string().as_deref(), Some("ultimate"));
    assert_eq!(get(&v, "sideToMove").as_string().as_deref(), Some("o"));
    assert_eq!(get(&v, "requiredBoard").as_f64(), Some(4.0));
    assert!(get(&v, "outcome").is_null());
    assert!(get(&v, "redoBoard").is_null());
    let cells = get(&v, "cells");
    assert!(js_sys::Array::is_array(&cells));
    assert_eq!(js_sys::Array::from(&cells).length(), 81);
    assert_eq!(
        js_sys::Array::from(&get(&v, "moves"))
            .get(0)
            .as_string()
            .as_deref(),
        Some("e5")
    );
}

#[wasm_bindgen_test]
fn the_worker_reads_only_requests_it_knows() {
    let good = read_request(&json(
        r#"{"type":"search","id":5,"text":"classic:","level":"easy","budgetMs":100}"#,
    ));
    assert_eq!(
        good,
        Ok(Request::Search {
            id: 5,
            text: "classic:".into(),
            level: "easy".into(),
            budget_ms: 100.0,
            ponder: false,
        })
    );
    assert!(matches!(
        read_request(&json(
            r#"{"type":"search","id":5,"text":"classic:","level":"hard","budgetMs":100,"ponder":true}"#,
        )),
        Ok(Request::Search { ponder: true, .. })
    ));
    assert_eq!(read_request(&json(r#"{"type":"stop"}"#)), Ok(Request::Stop));
    assert_eq!(
        read_request(&json(r#"{"type":"analyse","id":3,"text":"classic:a1"}"#)),
        Ok(Request::Analyse {
            id: 3,
            text: "classic:a1".into()
        })
    );
    assert_eq!(
        read_request(&json(r#"{"type":"review","id":4,"text":"classic:a1"}"#)),
        Ok(Request::Review {
            id: 4,
            text: "classic:a1".into()
        })
    );
    assert_eq!(
        read_request(&json(r#"{"type":"survey","id":5,"text":"classic:a1"}"#)),
        Ok(Request::Survey {
            id: 5,
            text: "classic:a1".into(),
            ponder: false
        })
    );
    assert!(matches!(
        read_request(&json(
            r#"{"type":"survey","id":6,"text":"classic:","ponder":true}"#
        )),
        Ok(Request::Survey { ponder: true, .. })
    ));
    assert_eq!(
        read_request(&json(r#"{"type":"newGame","level":"hard"}"#)),
        Ok(Request::NewGame {
            level: "hard".into()
        })
    );
    for (bad, id) in [
        (
            r#"{"type":"search","id":6,"text":"classic:","level":"easy"}"#,
            Some(6),
        ),
        (
            r#"{"type":"search","id":7,"text":"classic:","level":"easy","budgetMs":100,"extra":1}"#,
            Some(7),
        ),
        (
            r#"{"type":"search","id":-1,"text":"classic:","level":"easy","budgetMs":100}"#,
            None,
        ),
        (
            r#"{"type":"search","id":8,"text":3,"level":"easy","budgetMs":100}"#,
            Some(8),
        ),
        (r#"{"type":"launch","id":9}"#, Some(9)),
        (
            r#"{"type":"search","id":11,"text":"classic:","level":"easy","budgetMs":100,"ponder":1}"#,
            Some(11),
        ),
        (r#"{"type":"stop","id":12}"#, Some(12)),
        (r#"{"type":"stop","level":"hard"}"#, None),
        (r#"{"type":"newGame","level":"hard","ponder":false}"#, None),
        (r#"{"id":10}"#, Some(10)),
        (r#"{"type":"analyse","id":13}"#, Some(13)),
        (
            r#"{"type":"analyse","id":14,"text":"classic:","level":"hard"}"#,
            Some(14),
        ),
        (
            r#"{"type":"analyse","id":15,"text":"classic:","budgetMs":100}"#,
            Some(15),
        ),
        (r#"{"type":"review","id":16}"#, Some(16)),
        (
            r#"{"type":"review","id":17,"text":"classic:","level":"hard"}"#,
            Some(17),
        ),
        (r#"{"type":"review","text":"classic:","ponder":true}"#, None),
        (r#"{"type":"survey","id":18}"#, Some(18)),
        (
            r#"{"type":"survey","id":19,"text":"classic:","level":"hard"}"#,
            Some(19),
        ),
        (
            r#"{"type":"survey","id":20,"text":"classic:","budgetMs":5}"#,
            Some(20),
        ),
        ("null", None),
        (r#""search""#, None),
    ] {
        match read_request(&json(bad)) {
            Err(Reply::Error { id: got, code, .. }) => {
                assert_eq!(
                    (got, code),
                    (id, uttt_web::error::ErrorCode::BadRequest),
                    "{bad}"
                );
            }
            other => panic!("{bad}: {other:?}"),
        }
    }
}

#[wasm_bindgen_test]
fn worker_replies_cross_as_the_messages_the_page_reads() {
    let mut worker = Worker::new(Box::new(|| 11), Timing::BROWSER);
    let mut out = Vec::new();
    let clock = || js_sys::Date::now();
    worker.handle(
        Request::Search {
            id: 2,
            text: "ultimate-standard:e5".into(),
            level: "medium".into(),
            budget_ms: 200.0,
            ponder: false,
        },
        &clock,
        &mut |r| out.push(uttt_web::convert::to_js(&r).unwrap()),
    );
    while worker.work(&clock, &mut |r| {
        out.push(uttt_web::convert::to_js(&r).unwrap())
    }) {}
    let types: Vec<String> = out
        .iter()
        .map(|m| get(m, "type").as_string().unwrap())
        .collect();
    assert_eq!(&types[..2], ["received", "started"]);
    assert_eq!(types.last().map(String::as_str), Some("result"));
    assert!(types.iter().any(|t| t == "progress"));
    for m in &out {
        assert_eq!(get(m, "id").as_f64(), Some(2.0));
    }
    let progress = get(&out[2], "report");
    assert!(js_sys::Array::is_array(&get(&progress, "pv")));
    assert!(get(&progress, "nodes").as_f64().is_some());
    let result = get(out.last().unwrap(), "reply");
    let result = &result;
    assert_eq!(
        get(result, "board").as_f64(),
        Some(4.0),
        "after e5, O must play in the centre board"
    );
    let cell = get(result, "cell").as_f64().unwrap();
    assert!(get(result, "move").as_string().is_some());
    assert!(get(result, "elapsedMs").as_f64().is_some());
    assert!(js_sys::Array::is_array(&get(result, "pv")));
    assert!(get(result, "mate").is_null() || get(result, "mate").as_f64().is_some());
    let mut g = WebGame::from_text(s("ultimate-standard:e5")).unwrap();
    g.play(n(4.0), n(cell)).unwrap();
}

/// Every message a fresh worker posts for the review `id` of `text`, as
/// the page receives them.
fn review_messages(id: u32, text: &str) -> Vec<JsValue> {
    let mut worker = Worker::new(Box::new(|| 11), Timing::BROWSER);
    let mut out = Vec::new();
    let clock = || js_sys::Date::now();
    let mut post = |r: Reply| out.push(uttt_web::convert::to_js(&r).unwrap());
    let text = text.into();
    worker.handle(Request::Review { id, text }, &clock, &mut post);
    while worker.work(&clock, &mut post) {}
    out
}

#[wasm_bindgen_test]
fn review_replies_cross_as_the_messages_the_page_reads() {
    let out = review_messages(8, "classic:a1b2c3c1a3");
    assert_eq!(out.len(), 7);
    let blunder = &out[3];
    assert_eq!(
        get(blunder, "type").as_string().as_deref(),
        Some("reviewMove")
    );
    assert_eq!(get(blunder, "done").as_f64(), Some(4.0));
    assert_eq!(get(blunder, "total").as_f64(), Some(5.0));
    let reviewed = get(blunder, "reviewed");
    assert_eq!(get(&reviewed, "played").as_string().as_deref(), Some("c1"));
    assert_eq!(
        get(&reviewed, "mark").as_string().as_deref(),
        Some("blunder")
    );
    for field in ["loss", "xBefore", "xAfter", "ply"] {
        assert!(get(&reviewed, field).as_f64().is_some(), "{field}");
    }
    assert!(js_sys::Array::is_array(&get(&reviewed, "line")));
    // O's blunder is a candidate puzzle, checked and dropped: four moves
    // would have saved the game.
    let checked = &out[5];
    assert_eq!(
        get(checked, "type").as_string().as_deref(),
        Some("puzzleChecked")
    );
    assert_eq!(get(checked, "done").as_f64(), Some(1.0));
    assert_eq!(get(checked, "total").as_f64(), Some(1.0));
    let end = &out[6];
    assert_eq!(get(end, "type").as_string().as_deref(), Some("reviewed"));
    let none = get(end, "puzzles");
    assert!(js_sys::Array::is_array(&none));
    assert_eq!(js_sys::Array::from(&none).length(), 0);
    let o = get(end, "o");
    assert!(get(&o, "accuracy").as_f64().unwrap() < 80.0);
    let counts = get(&o, "counts");
    assert!(js_sys::Array::is_array(&counts));
    assert_eq!(
        js_sys::Reflect::get_u32(&counts, 4).unwrap().as_f64(),
        Some(1.0)
    );
}

#[wasm_bindgen_test]
fn a_review_ends_with_its_puzzles_as_the_page_reads_them() {
    // O's a2 loses to X's corner: only the centre would have held.
    let out = review_messages(9, "classic:a1a2b2b3c3");
    let end = out.last().unwrap();
    assert_eq!(get(end, "type").as_string().as_deref(), Some("reviewed"));
    let puzzles = js_sys::Array::from(&get(end, "puzzles"));
    assert_eq!(puzzles.length(), 1);
    let p = puzzles.get(0);
    assert_eq!(get(&p, "ply").as_f64(), Some(1.0));
    assert_eq!(get(&p, "mover").as_string().as_deref(), Some("o"));
    assert_eq!(get(&p, "goal").as_string().as_deref(), Some("save"));
    assert_eq!(get(&p, "played").as_string().as_deref(), Some("a2"));
    let solution = js_sys::Array::from(&get(&p, "solution"));
    assert_eq!(solution.get(0).as_string().as_deref(), Some("b2"));
    assert!(get(&p, "expected").as_f64().is_some());
}

#[cfg(feature = "bench")]
#[wasm_bindgen_test]
fn perft_counts_and_refuses_bad_arguments() {
    assert_eq!(
        uttt_web::bench::perft_count(s("ultimate"), n(2.0)).unwrap(),
        720.0
    );
    assert_eq!(
        uttt_web::bench::perft_count(s("classic"), n(9.0)).unwrap(),
        127_872.0
    );
    for (kind, depth) in [
        (s("chess"), n(1.0)),
        (s("ultimate"), n(82.0)),
        (s("ultimate"), s("3")),
        (n(1.0), n(1.0)),
    ] {
        assert_eq!(
            code(&uttt_web::bench::perft_count(kind, depth).unwrap_err()),
            "bad-argument"
        );
    }
}

#[wasm_bindgen_test]
fn level_lookups_refuse_unknown_levels() {
    let names = uttt_web::levels::level_names();
    assert_eq!(names.len(), 5);
    for name in &names {
        assert!(
            uttt_web::levels::level_budget_ms(s(name)).unwrap() > 0,
            "{name}"
        );
    }
    for bad in [s("grandmaster"), s(""), n(3.0), JsValue::UNDEFINED] {
        assert_eq!(
            code(&uttt_web::levels::level_budget_ms(bad).unwrap_err()),
            "bad-argument"
        );
    }
}
