//! The worker's surveys.

use super::*;

/// The survey reports of `out` under `id`, in order.
fn surveys(out: &[Reply], id: u32) -> Vec<&SurveyReport> {
    out.iter()
        .filter_map(|r| match r {
            Reply::Survey { id: i, report } if *i == id => Some(&**report),
            _ => None,
        })
        .collect()
}

#[test]
fn a_survey_reports_every_cell_at_each_depth_until_a_search_takes_over() {
    let (mut w, seeds) = counting_worker();
    replies(&mut w, search(1, "ultimate-standard:", "easy"));
    let clock = ticking();
    let mut out = Vec::new();
    let request = Request::Survey {
        id: 8,
        text: "ultimate-standard:e5".into(),
        ponder: true,
    };
    w.handle(request, &clock, &mut |r| out.push(r));
    assert!(out.is_empty(), "{out:?}");
    for _ in 0..40 {
        assert!(w.work(&clock, &mut |r| out.push(r)), "the survey ended");
    }
    let reports = surveys(&out, 8);
    assert_eq!(reports.len(), out.len(), "{out:?}");
    assert!(reports.len() > 2, "{} depths", reports.len());
    assert!(reports
        .windows(2)
        .all(|w| w[0].report.depth < w[1].report.depth));
    for r in &reports {
        // O, sent to board 4, has its eight empty cells.
        assert_eq!(r.cells.len(), 8);
        assert!(r.cells.iter().all(|c| c.board == 4 && c.cell != 4));
        assert!(r.cells[0].exact);
        let best = format!("{}", uttt_core::Move::new(4, r.cells[0].cell));
        assert_eq!(r.report.pv[0], best);
    }
    // On the analyst (Easy does not ponder): the AI's Easy engine is
    // still there, and a search stops the survey without a word.
    assert_eq!(seeds.get(), 2);
    let out = replies(&mut w, search(9, "ultimate-standard:e5", "easy"));
    assert!(surveys(&out, 8).is_empty());
    assert!(matches!(out.last(), Some(Reply::Result { id: 9, .. })));
    assert!(!w.busy());
}

#[test]
fn a_pondering_survey_runs_on_the_ais_engine_and_warms_its_table() {
    let (mut w, seeds) = counting_worker();
    replies(&mut w, search(1, "ultimate-standard:", "hard"));
    let clock = ticking();
    let request = Request::Survey {
        id: 2,
        text: "ultimate-standard:e5".into(),
        ponder: true,
    };
    w.handle(request, &clock, &mut |r| panic!("{r:?}"));
    let mut depths = Vec::new();
    for _ in 0..150 {
        w.work(&clock, &mut |r| match r {
            Reply::Survey { report, .. } => depths.push(report.report.depth),
            other => panic!("{other:?}"),
        });
    }
    // No analyst was made: the survey ran on the AI's Hard engine.
    assert_eq!(seeds.get(), 1);
    let deepest = *depths.last().expect("a depth completed");
    // The person plays one of the surveyed moves: the AI's search of the
    // position after it starts from a warm table, and completes each
    // depth in fewer nodes than a fresh engine.
    let text = "ultimate-standard:e5e4";
    let warm = replies(&mut w, search_for(3, text, "hard", 10.0, false));
    let fresh = replies(&mut worker(1), search_for(3, text, "hard", 10.0, false));
    // The nodes each search took to complete `depth`.
    let nodes = |out: &[Reply], depth: u32| {
        out.iter().find_map(|r| match r {
            Reply::Progress { report, .. } if report.depth == depth => Some(report.nodes),
            _ => None,
        })
    };
    let last = |out: &[Reply]| match out.last() {
        Some(Reply::Result { reply, .. }) => reply.depth,
        other => panic!("{other:?}"),
    };
    let depth = last(&warm).min(last(&fresh));
    assert!(deepest > depth, "{depths:?}");
    assert!(
        nodes(&warm, depth) < nodes(&fresh, depth),
        "{warm:?} {fresh:?}"
    );
}

#[test]
fn a_survey_ends_when_solved_and_a_bad_one_is_refused() {
    let mut w = worker(5);
    let clock = ticking();
    let mut out = Vec::new();
    let request = Request::Survey {
        id: 3,
        text: "classic:a1a2b2".into(),
        ponder: false,
    };
    w.handle(request, &clock, &mut |r| out.push(r));
    let mut slices = 0;
    while w.work(&clock, &mut |r| out.push(r)) {
        slices += 1;
        assert!(slices < 1_000, "a solved survey went on");
    }
    let last = surveys(&out, 3).pop().expect("a report");
    // O must block at c3, or X wins there.
    assert_eq!((last.cells[0].board, last.cells[0].cell), (0, 8));
    assert!(
        last.cells[1..].iter().all(|c| c.mate == Some(-2)),
        "{last:?}"
    );
    for (text, code) in [
        ("ultimate-standard:zz", ErrorCode::ParseError),
        ("classic:a1b1a2b2a3", ErrorCode::GameOver),
    ] {
        let mut out = Vec::new();
        let request = Request::Survey {
            id: 4,
            text: text.into(),
            ponder: false,
        };
        w.handle(request, &clock, &mut |r| out.push(r));
        assert!(
            matches!(&out[..], [Reply::Error { id: Some(4), code: c, .. }] if *c == code),
            "{out:?}"
        );
        assert!(!w.busy());
    }
}
