//! The JavaScript boundary in a real browser: every call with bad arguments
//! throws an `Error` with a stable `code` and changes nothing.
#![cfg(target_arch = "wasm32")]

use js_sys::Reflect;
use uttt_web::{WebEngine, WebGame};
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
fn fingerprint(g: &WebGame) -> (Option<String>, String, uttt_web::View) {
    (g.record(), g.position_string(), g.view())
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
    assert_eq!(g.view().ply, 0);
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

#[wasm_bindgen_test]
fn engine_refuses_bad_arguments_and_answers_good_ones() {
    for (level, seed) in [
        (s("grandmaster"), n(1.0)),
        (n(2.0), n(1.0)),
        (s("easy"), n(-1.0)),
        (s("easy"), s("1")),
    ] {
        assert_eq!(
            code(&WebEngine::new(level, seed).err().unwrap()),
            "bad-argument"
        );
    }
    let mut e = WebEngine::new(s("medium"), n(3.0)).unwrap();
    let no_progress = JsValue::UNDEFINED;
    for budget in [JsValue::UNDEFINED, n(-5.0), n(f64::NAN), s("100")] {
        let err = e
            .search(s("ultimate-standard:e5"), budget, no_progress.clone())
            .unwrap_err();
        assert_eq!(code(&err), "bad-argument");
    }
    let err = e
        .search(s("ultimate-standard:e5"), n(50.0), s("not a function"))
        .unwrap_err();
    assert_eq!(code(&err), "bad-argument");
    let err = e
        .search(s("nonsense"), n(50.0), no_progress.clone())
        .unwrap_err();
    assert_eq!(code(&err), "parse-error");
    let err = e
        .search(s("classic:a1a2b1b2c1"), n(50.0), no_progress.clone())
        .unwrap_err();
    assert_eq!(code(&err), "game-over");

    // A real search, with a progress callback that counts its calls.
    let calls = js_sys::Array::new();
    let sink = calls.clone();
    let progress = Closure::<dyn FnMut(u32, i32, JsValue, String, f64)>::new(
        move |depth: u32, _score: i32, _mate: JsValue, pv: String, _nodes: f64| {
            assert!(!pv.is_empty());
            sink.push(&JsValue::from(depth));
        },
    );
    let reply = e
        .search(
            s("ultimate-standard:e5"),
            n(200.0),
            progress.as_ref().clone(),
        )
        .unwrap();
    assert_eq!(reply.board, 4, "after e5, O must play in the centre board");
    assert!(calls.length() > 0, "progress was never reported");
    let mut g = WebGame::from_text(s("ultimate-standard:e5")).unwrap();
    g.play(n(f64::from(reply.board)), n(f64::from(reply.cell)))
        .unwrap();
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
    let names = uttt_web::engine::level_names();
    assert_eq!(names.len(), 5);
    for name in &names {
        assert!(
            uttt_web::engine::level_budget_ms(s(name)).unwrap() > 0,
            "{name}"
        );
    }
    for bad in [s("grandmaster"), s(""), n(3.0), JsValue::UNDEFINED] {
        assert_eq!(
            code(&uttt_web::engine::level_budget_ms(bad).unwrap_err()),
            "bad-argument"
        );
    }
}
