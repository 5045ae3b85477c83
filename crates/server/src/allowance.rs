//! Token buckets: how many frames a connection, or a client address over
//! all its connections, may still send now.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// One bucket: up to `burst` frames at once, refilled at `rate` a second.
#[derive(Clone, Copy, Debug)]
pub struct Allowance {
    tokens: f64,
    at: Instant,
    burst: f64,
    rate: f64,
}

impl Allowance {
    /// A full bucket.
    #[must_use]
    pub fn new(burst: f64, rate: f64) -> Allowance {
        Allowance {
            tokens: burst,
            at: Instant::now(),
            burst,
            rate,
        }
    }

    fn refill(&mut self, now: Instant) {
        let earned = now.duration_since(self.at).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + earned).min(self.burst);
        self.at = now;
    }

    /// Takes one frame's token; false when there is none.
    pub fn take(&mut self) -> bool {
        self.refill(Instant::now());
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// A bucket per client address, shared by all its connections.
pub struct PerAddress {
    buckets: Mutex<HashMap<IpAddr, Allowance>>,
    burst: f64,
    rate: f64,
}

/// Addresses kept before full (idle) buckets are dropped from the map.
const KEEP: usize = 4096;

impl PerAddress {
    /// `rate` frames a second per address, in bursts of twice that.
    #[must_use]
    pub fn new(rate: u32) -> PerAddress {
        PerAddress {
            buckets: Mutex::new(HashMap::new()),
            burst: 2.0 * f64::from(rate),
            rate: f64::from(rate),
        }
    }

    /// `burst` at once per address, refilled at `per_minute` a minute.
    #[must_use]
    pub fn per_minute(burst: u32, per_minute: u32) -> PerAddress {
        PerAddress {
            buckets: Mutex::new(HashMap::new()),
            burst: f64::from(burst),
            rate: f64::from(per_minute) / 60.0,
        }
    }

    /// Takes one frame's token for `ip`; false when it has none left.
    pub fn take(&self, ip: IpAddr) -> bool {
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if buckets.len() >= KEEP {
            // A full bucket says nothing an absent one does not: forget those.
            let now = Instant::now();
            buckets.retain(|_, b| {
                b.refill(now);
                b.tokens < b.burst
            });
        }
        buckets
            .entry(ip)
            .or_insert_with(|| Allowance::new(self.burst, self.rate))
            .take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_refuses() {
        let mut a = Allowance::new(3.0, 0.001);
        assert!(a.take() && a.take() && a.take());
        assert!(!a.take());
        let shared = PerAddress::new(2);
        let ip = IpAddr::from([127, 0, 0, 1]);
        assert_eq!((0..6).filter(|_| shared.take(ip)).count(), 4);
        assert!(shared.take(IpAddr::from([127, 0, 0, 2])));
    }
}
