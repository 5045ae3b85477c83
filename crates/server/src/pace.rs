//! How often a room tells its members that only its watchers changed: at
//! most once a second, however fast watchers come and go, so one client
//! joining and leaving a watched room cannot make the server send its
//! members a frame per join.

use std::time::{Duration, Instant};

/// The least time between two counts of watchers sent by one room.
pub const EVERY: Duration = Duration::from_secs(1);

/// When a room's next count of watchers is due.
#[derive(Debug, Default)]
pub struct Pace {
    /// When the count last went out (in a count or a whole state).
    last: Option<Instant>,
    /// When the next count goes out; none while nothing waits to be told.
    due: Option<Instant>,
}

impl Pace {
    /// The watchers changed at `now`: a count is due a second after the
    /// last one, or now if that was longer ago.
    pub fn changed(&mut self, now: Instant) {
        if self.due.is_none() {
            self.due = Some(self.last.map_or(now, |last| (last + EVERY).max(now)));
        }
    }

    /// Everyone was told the count at `now` (a count, or a whole state).
    pub fn told(&mut self, now: Instant) {
        self.last = Some(now);
        self.due = None;
    }

    /// When the next count is due, if one waits.
    #[must_use]
    pub fn due(&self) -> Option<Instant> {
        self.due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_go_out_at_most_once_a_second() {
        let start = Instant::now();
        let mut pace = Pace::default();
        pace.changed(start);
        assert_eq!(pace.due(), Some(start));
        pace.told(start);
        // Forty changes within the next second: one count, a second after.
        for ms in 0..40 {
            pace.changed(start + Duration::from_millis(ms * 20));
        }
        assert_eq!(pace.due(), Some(start + EVERY));
        pace.told(start + EVERY);
        assert_eq!(pace.due(), None);
        // Long after, a change is told at once.
        let later = start + Duration::from_secs(10);
        pace.changed(later);
        assert_eq!(pace.due(), Some(later));
    }
}
