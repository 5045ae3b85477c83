//! Which client a connection comes from, for the limits that count per
//! client: one IPv4 address, or one IPv6 /64. An IPv6 host is usually
//! given a whole /64, so counting each of its addresses apart would let
//! one machine hold as many places as it likes.
//!
//! Behind a proxy every connection comes from the proxy: a proxy named with
//! `--trusted-proxy` passes on who its client is in `X-Forwarded-For`.

use std::net::{IpAddr, Ipv6Addr};

use axum::http::HeaderMap;

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

/// Whether `ip` is one of the `trusted` proxies: the very address (an
/// IPv4 address also when written IPv4-mapped, as a dual-stack listener
/// sees it), never its whole IPv6 /64, whose other hosts could then write
/// the header.
#[must_use]
pub fn is_trusted(ip: IpAddr, trusted: &[IpAddr]) -> bool {
    let plain = |ip: IpAddr| match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    };
    trusted.iter().any(|t| plain(*t) == plain(ip))
}

/// The address a request from `peer` comes from: `peer` itself unless it
/// is one of the `trusted` proxies, else the last address of
/// `X-Forwarded-For` that is not a trusted proxy (each proxy appends the
/// one it heard from; anything before a trusted proxy's entry could be
/// written by the client). A trusted proxy's request without a readable
/// header stays the proxy's.
#[must_use]
pub fn forwarded_client(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !is_trusted(peer, trusted) {
        return peer;
    }
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    for hop in hops.iter().rev() {
        let Ok(ip) = hop.parse::<IpAddr>() else {
            return peer;
        };
        if !is_trusted(ip, trusted) {
            return ip;
        }
    }
    peer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trusted_proxy_passes_on_its_client_and_nobody_else_can() {
        let proxy = ip("10.0.0.2");
        let with = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert("x-forwarded-for", value.parse().unwrap());
            headers
        };
        let trusted = [proxy];
        let client = |peer, value| forwarded_client(peer, &with(value), &trusted);
        assert_eq!(client(proxy, "198.51.100.7"), ip("198.51.100.7"));
        // What the client wrote itself comes before what the proxy heard.
        assert_eq!(client(proxy, "1.2.3.4, 198.51.100.7"), ip("198.51.100.7"));
        // A chain of trusted proxies is walked back.
        assert_eq!(client(proxy, "198.51.100.7, 10.0.0.2"), ip("198.51.100.7"));
        // An untrusted peer's header counts for nothing.
        assert_eq!(client(ip("203.0.113.9"), "1.2.3.4"), ip("203.0.113.9"));
        // The proxy's neighbours in its /64 are not trusted; a dual-stack
        // listener's IPv4-mapped form of the proxy is.
        assert_eq!(
            forwarded_client(ip("2001:db8::2"), &with("1.2.3.4"), &[ip("2001:db8::1")]),
            ip("2001:db8::2")
        );
        assert_eq!(
            client(ip("::ffff:10.0.0.2"), "198.51.100.7"),
            ip("198.51.100.7")
        );
        // Unreadable: the proxy's own address, never a guess.
        assert_eq!(client(proxy, "unknown"), proxy);
        assert_eq!(forwarded_client(proxy, &HeaderMap::new(), &trusted), proxy);
    }

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
