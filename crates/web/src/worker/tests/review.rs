//! The worker's reviews.

use super::*;

/// Every reply to the review `id` of `text`, to its end.
fn review_replies(worker: &mut Worker, id: u32, text: &str) -> Vec<Reply> {
    let request = Request::Review {
        id,
        text: text.into(),
    };
    replies_to_the_end(worker, request)
}

#[test]
fn a_review_reports_every_move_then_both_summaries() {
    let (mut w, seeds) = counting_worker();
    let out = review_replies(&mut w, 6, "classic:a1b2c3c1a3");
    assert_eq!(out.len(), 7, "{out:?}");
    for (i, r) in out[..5].iter().enumerate() {
        match r {
            Reply::ReviewMove {
                id: 6,
                done,
                total: 5,
                reviewed,
            } => assert_eq!((*done as usize, reviewed.ply as usize), (i + 1, i + 1)),
            other => panic!("{other:?}"),
        }
    }
    assert!(matches!(&out[3], Reply::ReviewMove { reviewed, .. } if reviewed.mark == "blunder"));
    // O's blunder is a candidate puzzle, but four moves save the game
    // there: the check finds no one answer.
    assert!(matches!(
        &out[5],
        Reply::PuzzleChecked {
            id: 6,
            done: 1,
            total: 1
        }
    ));
    match &out[6] {
        Reply::Reviewed {
            id: 6,
            x,
            o,
            puzzles,
        } => {
            assert!(x.accuracy > o.accuracy);
            assert!(puzzles.is_empty(), "{puzzles:?}");
        }
        other => panic!("{other:?}"),
    }
    // It ran on the analyst, made once; the same record reviews the same.
    assert_eq!(seeds.get(), 1);
    assert_eq!(review_replies(&mut w, 7, "classic:a1b2c3c1a3")[3..], {
        let mut again = out[3..].to_vec();
        for r in &mut again {
            match r {
                Reply::ReviewMove { id, .. }
                | Reply::PuzzleChecked { id, .. }
                | Reply::Reviewed { id, .. } => *id = 7,
                _ => {}
            }
        }
        again
    });
    assert!(!w.busy());
}

#[test]
fn a_review_ends_with_the_puzzles_whose_answer_is_alone() {
    let mut w = worker(5);
    // O's a2 loses to X's corner; only the centre, b2, would have held.
    let out = review_replies(&mut w, 8, "classic:a1a2b2b3c3");
    let checked = out
        .iter()
        .filter(|r| matches!(r, Reply::PuzzleChecked { id: 8, .. }));
    assert_eq!(checked.count(), 1, "{out:?}");
    match out.last() {
        Some(Reply::Reviewed { id: 8, puzzles, .. }) => {
            let [p] = &puzzles[..] else {
                panic!("{puzzles:?}")
            };
            assert_eq!((p.ply, p.mover, p.goal), (1, "o", "save"));
            assert_eq!(p.played, "a2");
            assert_eq!(p.solution.first().map(String::as_str), Some("b2"));
            assert!((p.expected - 0.5).abs() < 0.05, "{p:?}");
        }
        other => panic!("{other:?}"),
    }
    assert!(!w.busy());
}

#[test]
fn a_new_request_stops_a_review_and_a_bad_one_is_refused() {
    let mut w = worker(5);
    let clock = ticking();
    let mut out = Vec::new();
    let request = Request::Review {
        id: 2,
        text: "ultimate-standard:e5e4d2".into(),
    };
    w.handle(request, &clock, &mut |r| out.push(r));
    assert!(w.work(&clock, &mut |r| out.push(r)));
    assert!(matches!(
        &out[..],
        [Reply::ReviewMove {
            id: 2,
            done: 1,
            total: 3,
            ..
        }]
    ));
    let later = replies(&mut w, search(3, "ultimate-standard:e5", "easy"));
    assert!(matches!(later.last(), Some(Reply::Result { id: 3, .. })));
    assert!(later.iter().all(|r| !matches!(r, Reply::ReviewMove { .. })));
    assert!(!w.busy());

    let refused = review_replies(&mut w, 4, "ultimate-standard:zz");
    assert!(
        matches!(
            &refused[..],
            [Reply::Error {
                id: Some(4),
                code: ErrorCode::ParseError,
                ..
            }]
        ),
        "{refused:?}"
    );
    let nothing = review_replies(&mut w, 5, "classic:");
    assert!(
        matches!(&nothing[..], [Reply::Reviewed { id: 5, .. }]),
        "{nothing:?}"
    );
}
