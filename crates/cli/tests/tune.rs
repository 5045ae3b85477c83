//! `uttt tune` from the outside.

mod common;

use common::run;
use uttt_core::search::{Weights, W_TB_COUNT};

/// SPSA moves the weights its standard-rules games read and leaves
/// `tb_count`, which those games never read, where it started.
#[test]
fn tuning_moves_the_weights_but_not_the_tie_break_one() {
    let start = Weights::parse("tb_count=777").unwrap();
    let r = run(
        &[
            "tune",
            "--iterations",
            "20",
            "--nodes",
            "2000",
            "--threads",
            "2",
            "--start",
            "tb_count=777",
        ],
        "",
    );
    assert!(r.status.success(), "{}", r.stderr);
    let last = r.stdout.lines().last().unwrap_or_default();
    let tuned = Weights::parse(last.strip_prefix("final: ").expect("a final line")).unwrap();
    assert_eq!(tuned.0[W_TB_COUNT], 777, "{last}");
    assert_ne!(
        tuned, start,
        "twenty game pairs at 2,000 nodes move some weight"
    );
}
