//! The clocks, the one place the server reads them: the wall clock, and
//! the monotonic clock live games run on. The `failpoints` build lets the
//! tests move both forward (`POST /test/clock`), so a day of a
//! correspondence game passes without anyone waiting for it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Milliseconds the tests moved the clocks forward; 0 outside them.
static SKIPPED: AtomicU64 = AtomicU64::new(0);

/// The wall clock: milliseconds since the Unix epoch (the `serverTime` of
/// a state, and when a room was last stored).
#[must_use]
pub fn epoch_ms() -> u64 {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0);
    now.saturating_add(SKIPPED.load(Ordering::Relaxed))
}

/// The clock the rooms run on: milliseconds of a monotonic clock since the
/// process started, so a step of the wall clock (NTP) never charges or
/// refunds a live game's time. The store keeps only durations of it.
#[must_use]
pub fn now_ms() -> u64 {
    static START: OnceLock<Instant> = OnceLock::new();
    let start = *START.get_or_init(Instant::now);
    u64::try_from(start.elapsed().as_millis())
        .unwrap_or(u64::MAX)
        .saturating_add(SKIPPED.load(Ordering::Relaxed))
}

/// Moves both clocks `ms` forward: the tests' way to let days pass.
#[cfg(feature = "failpoints")]
pub fn skip(ms: u64) {
    SKIPPED.fetch_add(ms, Ordering::Relaxed);
}
