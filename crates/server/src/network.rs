//! Which client a connection comes from, for the limits that count per
//! client: one IPv4 address, or one IPv6 /64. An IPv6 host is usually
//! given a whole /64, so counting each of its addresses apart would let
//! one machine hold as many places as it likes.

use std::net::{IpAddr, Ipv6Addr};

/// The client `ip` belongs to: an IPv4 address itself (also when written
/// as an IPv4-mapped IPv6 address), an IPv6 address's /64 network.
#[must_use]
pub fn client_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from_bits(v6.to_bits() & !u128::from(u64::MAX))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn an_ipv6_slash_64_is_one_client_and_ipv4_addresses_are_each_their_own() {
        assert_eq!(
            client_of(ip("2001:db8:1:2:aaaa::1")),
            client_of(ip("2001:db8:1:2:ffff:1:2:3"))
        );
        assert_eq!(client_of(ip("2001:db8:1:2:aaaa::1")), ip("2001:db8:1:2::"));
        assert_ne!(
            client_of(ip("2001:db8:1:2::1")),
            client_of(ip("2001:db8:1:3::1"))
        );
        assert_eq!(client_of(ip("192.0.2.7")), ip("192.0.2.7"));
        assert_ne!(client_of(ip("192.0.2.7")), client_of(ip("192.0.2.8")));
        assert_eq!(client_of(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
    }
}
