//! The worker's analyses.

use super::*;

/// The analysis replies of `out` under `id`, in order.
fn analysis(out: &[Reply], id: u32) -> Vec<&Report> {
    out.iter()
        .filter_map(|r| match r {
            Reply::Analysis { id: i, report } if *i == id => Some(report),
            _ => None,
        })
        .collect()
}

#[test]
fn an_analysis_reports_each_depth_until_the_next_request_takes_over() {
    let mut w = worker(5);
    let clock = ticking();
    let mut out = Vec::new();
    let request = Request::Analyse {
        id: 9,
        text: "ultimate-standard:e5".into(),
    };
    w.handle(request, &clock, &mut |r| out.push(r));
    assert!(out.is_empty(), "{out:?}");
    for _ in 0..40 {
        assert!(w.work(&clock, &mut |r| out.push(r)), "the analysis ended");
    }
    let reports = analysis(&out, 9);
    assert_eq!(reports.len(), out.len(), "{out:?}");
    assert_eq!(reports[0].depth, 1);
    assert!(reports.windows(2).all(|w| w[0].depth < w[1].depth));
    // O is to move after e5: the line starts in board 4, where X sent O.
    assert!(reports.iter().all(|r| r.pv[0].starts_with(['d', 'e', 'f'])));
    // A search stops it without a word, and is answered as usual.
    let out = replies(&mut w, search(10, "ultimate-standard:e5", "easy"));
    assert!(analysis(&out, 9).is_empty());
    assert!(matches!(out.last(), Some(Reply::Result { id: 10, .. })));
    assert!(!w.busy());
}

#[test]
fn the_analyst_is_an_engine_of_its_own_and_leaves_the_ais_alone() {
    let (mut w, seeds) = counting_worker();
    replies(&mut w, search(1, "ultimate-standard:", "easy"));
    let clock = ticking();
    for id in [2, 3] {
        let request = Request::Analyse {
            id,
            text: "ultimate-standard:e5".into(),
        };
        w.handle(request, &clock, &mut |r| panic!("{r:?}"));
        w.work(&clock, &mut |_| {});
    }
    // One analyst for both analyses; the AI's Easy engine is still there.
    assert_eq!(seeds.get(), 2);
    assert_eq!(w.ai_level(), Some("easy"));
    replies(&mut w, search(4, "ultimate-standard:e5", "easy"));
    assert_eq!(seeds.get(), 2);
}

#[test]
fn a_bad_analysis_is_refused_under_its_id() {
    let mut w = worker(5);
    for (text, code) in [
        ("ultimate-standard:zz", ErrorCode::ParseError),
        ("classic:a1b1a2b2a3", ErrorCode::GameOver),
    ] {
        let mut out = Vec::new();
        let request = Request::Analyse {
            id: 4,
            text: text.into(),
        };
        w.handle(request, &ticking(), &mut |r| out.push(r));
        assert!(
            matches!(&out[..], [Reply::Error { id: Some(4), code: c, .. }] if *c == code),
            "{out:?}"
        );
        assert!(!w.busy());
    }
}

#[test]
fn a_new_request_stops_pondering_at_once() {
    let mut w = worker(3);
    let first = search_for(1, "ultimate-standard:e5", "master", 50.0, true);
    replies(&mut w, first);
    assert!(w.busy());
    let clock = ticking();
    w.work(&clock, &mut |_| {});
    let mut out = Vec::new();
    w.handle(Request::Stop, &clock, &mut |r| out.push(r));
    assert!(out.is_empty(), "stopping pondering replied {out:?}");
    assert!(!w.busy());
    replies(&mut w, search(2, "ultimate-standard:e5", "master"));
    w.handle(
        Request::NewGame {
            level: "master".into(),
        },
        &clock,
        &mut |r| out.push(r),
    );
    assert!(out.is_empty() && !w.busy());
}

/// An analysis of `text` under `id`, run until the worker rests: its reports.
fn analyse_to_the_end(w: &mut Worker, id: u32, text: &str) -> Vec<Reply> {
    let request = Request::Analyse {
        id,
        text: text.into(),
    };
    replies_to_the_end(w, request)
}

#[test]
fn a_position_analysed_to_its_end_is_reported_again_when_asked_again() {
    let mut w = worker(5);
    // Classic's empty board: solved in a blink, the search settles (a draw).
    let first = analyse_to_the_end(&mut w, 1, "classic:");
    let last = *analysis(&first, 1)
        .last()
        .expect("the first analysis reported");
    // Asked again (the page lost sight of the first), it has nothing more
    // to search, and says where the position stands, once.
    let again = analyse_to_the_end(&mut w, 2, "classic:");
    assert_eq!(analysis(&again, 2), [last], "{again:?}");
}
