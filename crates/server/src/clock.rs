//! The wall clock, the one place the server reads it.

use std::time::{SystemTime, UNIX_EPOCH};

/// The wall clock: milliseconds since the Unix epoch (the `serverTime` of
/// a state, and when a room was last stored).
#[must_use]
pub fn epoch_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}
