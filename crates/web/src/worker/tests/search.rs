//! The worker's searches and their pondering.

use super::*;

#[test]
fn a_search_is_received_started_reported_and_answered_under_its_id() {
    let mut w = worker(7);
    let out = replies(&mut w, search(3, "ultimate-standard:e5", "medium"));
    assert_eq!(out[0], Reply::Received { id: 3 });
    assert_eq!(out[1], Reply::Started { id: 3 });
    assert!(out[2..out.len() - 1]
        .iter()
        .all(|r| matches!(r, Reply::Progress { id: 3, .. })));
    assert!(out.len() > 3, "no progress was reported");
    match out.last() {
        Some(Reply::Result { id: 3, reply }) => assert_eq!(reply.board, 4),
        other => panic!("{other:?}"),
    }
}

#[test]
fn refused_searches_answer_an_error_under_their_id() {
    let mut w = worker(7);
    let out = replies(&mut w, search(1, "ultimate-standard:e5", "grandmaster"));
    assert_eq!(out[0], Reply::Received { id: 1 });
    assert!(matches!(
        &out[1],
        Reply::Error {
            id: Some(1),
            code: ErrorCode::BadArgument,
            ..
        }
    ));
    let out = replies(&mut w, search(2, "classic:zz", "easy"));
    assert!(matches!(
        out.last(),
        Some(Reply::Error {
            id: Some(2),
            code: ErrorCode::ParseError,
            ..
        })
    ));
    let out = replies(&mut w, search(4, "classic:a1b1a2b2a3", "easy"));
    assert!(matches!(
        out.last(),
        Some(Reply::Error {
            id: Some(4),
            code: ErrorCode::GameOver,
            ..
        })
    ));
}

#[test]
fn the_engine_is_kept_for_its_level_and_made_anew_for_another() {
    let (mut w, seeds) = counting_worker();
    assert!(replies(
        &mut w,
        Request::NewGame {
            level: "hard".into()
        }
    )
    .is_empty());
    replies(&mut w, search(1, "ultimate-standard:", "hard"));
    assert!(replies(
        &mut w,
        Request::NewGame {
            level: "hard".into()
        }
    )
    .is_empty());
    assert_eq!(seeds.get(), 1);
    replies(&mut w, search(2, "ultimate-standard:", "easy"));
    assert_eq!(seeds.get(), 2);
    let out = replies(
        &mut w,
        Request::NewGame {
            level: "nope".into(),
        },
    );
    assert!(matches!(
        &out[..],
        [Reply::Error {
            id: None,
            code: ErrorCode::BadArgument,
            ..
        }]
    ));
}

#[test]
fn a_search_runs_in_slices_and_a_stop_cancels_it() {
    let mut w = worker(7);
    let clock = ticking();
    let mut out = Vec::new();
    let request = search_for(5, "ultimate-standard:e5", "hard", 100_000.0, false);
    w.handle(request, &clock, &mut |r| out.push(r));
    assert_eq!(out, [Reply::Received { id: 5 }, Reply::Started { id: 5 }]);
    assert!(w.busy());
    for _ in 0..20 {
        assert!(
            w.work(&clock, &mut |r| out.push(r)),
            "a slice ended the search"
        );
    }
    assert!(out
        .iter()
        .any(|r| matches!(r, Reply::Progress { id: 5, .. })));
    w.handle(Request::Stop, &clock, &mut |r| out.push(r));
    assert!(matches!(
        out.last(),
        Some(Reply::Error {
            id: Some(5),
            code: ErrorCode::Cancelled,
            ..
        })
    ));
    assert!(!w.busy());
    assert!(!w.work(&clock, &mut |r| out.push(r)));
    // The engine stays: the next search answers as usual.
    let out = replies(&mut w, search(6, "ultimate-standard:e5", "hard"));
    assert!(matches!(out.last(), Some(Reply::Result { id: 6, .. })));
}

/// The depth of the first progress report of each search in `out`.
fn first_depth(out: &[Reply], id: u32) -> Option<u32> {
    out.iter().find_map(|r| match r {
        Reply::Progress { id: i, report } if *i == id => Some(report.depth),
        _ => None,
    })
}

#[test]
fn after_a_pondering_search_the_expected_reply_is_carried_on() {
    let mut w = worker(3);
    let first = search_for(1, "ultimate-standard:e5", "hard", 50.0, true);
    let out = replies(&mut w, first);
    let [.., Reply::Result { reply, .. }, Reply::Pondering { id: 1 }] = &out[..] else {
        panic!("{out:?}");
    };
    assert!(w.busy(), "the worker does not ponder");
    let clock = ticking();
    let expected = format!("ultimate-standard:e5{}{}", reply.pv[0], reply.pv[1]);
    // The person thinks: the worker ponders until its time is up,
    // reporting the person's position through the expected reply.
    let mut slices = 0;
    let mut reports = Vec::new();
    while w.work(&clock, &mut |r| match r {
        Reply::Analysis { id: 1, report } => reports.push(report),
        other => panic!("pondering replied {other:?}"),
    }) {
        slices += 1;
        assert!(slices < 10_000, "pondering never stopped");
    }
    assert!(slices > 10, "{slices} slices of pondering");
    assert!(reports.len() > 3, "{} reports of pondering", reports.len());
    assert!(
        reports.iter().all(|r| r.pv[0] == reply.pv[1]),
        "{reports:?}"
    );
    assert!(reports.windows(2).all(|w| w[0].depth < w[1].depth));
    // The reply comes as expected: the search carries on from the
    // pondered depth, deeper than a fresh engine gets in the same time.
    let out = replies(&mut w, search_for(2, &expected, "hard", 10.0, false));
    let fresh = replies(
        &mut worker(3),
        search_for(2, &expected, "hard", 10.0, false),
    );
    let depth = |out: &[Reply]| match out.last() {
        Some(Reply::Result { reply, .. }) => reply.depth,
        other => panic!("{other:?}"),
    };
    assert!(depth(&out) >= depth(&fresh) + 2, "{out:?} {fresh:?}");
    assert!(first_depth(&out, 2).is_none_or(|d| d > depth(&fresh)));
    // Another reply is searched from depth 1.
    let out = replies(&mut w, search(3, "ultimate-standard:e5e4", "hard"));
    assert_eq!(first_depth(&out, 3), Some(1));
}

#[test]
fn without_ponder_or_below_hard_the_worker_rests_after_answering() {
    let mut w = worker(3);
    replies(&mut w, search(1, "ultimate-standard:e5", "hard"));
    assert!(!w.busy());
    replies(
        &mut w,
        search_for(2, "ultimate-standard:e5", "medium", 50.0, true),
    );
    assert!(!w.busy());
}
