//! The host names this server answers to. A browser names the host of the
//! page's own address in every request (`Host`); a page of another site
//! whose name its owner points at this machine (DNS rebinding) is
//! same-origin to itself, so the `Origin` check lets it through, but its
//! requests name its own host. Answering only to known names shuts it
//! out, also for a server that listens on loopback only.
//!
//! Known without being named: an IP address (a rebinding page has a name,
//! never an address) and, on a server listening on loopback or on every
//! interface, `localhost` (which browsers never resolve elsewhere), each
//! with the port the server listens on. An operator names the rest
//! (`--host`): the public name behind a proxy, a port a proxy or a
//! container maps.

use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};

/// The names a server answers to.
#[derive(Clone, Debug)]
pub struct Hosts {
    /// The port it listens on.
    port: u16,
    /// Whether `localhost` is one of its names.
    localhost: bool,
    /// The names the operator gave, each with the port it must come with
    /// (any, when none was given).
    named: Vec<(String, Option<u16>)>,
}

impl Hosts {
    /// The names of a server listening on `addr`, and `named` (each
    /// `NAME` or `NAME:PORT`, as [`check_name`] accepts).
    #[must_use]
    pub fn new(addr: SocketAddr, named: &[String]) -> Hosts {
        let ip = addr.ip();
        Hosts {
            port: addr.port(),
            localhost: ip.is_loopback() || ip.is_unspecified(),
            named: named
                .iter()
                .filter_map(|n| split(n))
                .map(|(name, port)| (name.to_ascii_lowercase(), port))
                .collect(),
        }
    }

    /// Whether a request with `Host: host` is for this server.
    #[must_use]
    pub fn accepts(&self, host: &str) -> bool {
        let Some((name, port)) = split(host) else {
            return false;
        };
        // No port: the scheme's, and this server serves plain HTTP.
        let own_port = port.unwrap_or(80) == self.port;
        self.named(host)
            || (own_port
                && (is_address(name) || (self.localhost && name.eq_ignore_ascii_case("localhost"))))
    }

    /// Whether `host` (`NAME` or `NAME:PORT`) is one the operator named:
    /// the public names, which a proxy in front may not pass on as `Host`.
    #[must_use]
    pub fn named(&self, host: &str) -> bool {
        split(host).is_some_and(|(name, port)| {
            self.named
                .iter()
                .any(|(n, p)| n.eq_ignore_ascii_case(name) && p.is_none_or(|p| Some(p) == port))
        })
    }
}

/// Whether `name` is an IP address as a URL writes it (`[...]` for IPv6).
fn is_address(name: &str) -> bool {
    match name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        Some(v6) => v6.parse::<Ipv6Addr>().is_ok(),
        None => name.parse::<Ipv4Addr>().is_ok(),
    }
}

/// `host` as (name, port): `NAME`, `NAME:PORT`, `[V6]` or `[V6]:PORT`;
/// `None` when it is none of those.
fn split(host: &str) -> Option<(&str, Option<u16>)> {
    let (name, port) = match host.rfind([':', ']']) {
        Some(i) if host.as_bytes()[i] == b':' => (&host[..i], Some(host[i + 1..].parse().ok()?)),
        _ => (host, None),
    };
    let bracketed = name.starts_with('[') && name.ends_with(']');
    // `_` as in container and compose service names.
    let plain = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-' || b == b'_');
    (!name.is_empty() && (bracketed || plain)).then_some((name, port))
}

/// Checks a `--host` value: a name or address a browser could show, with
/// an optional port.
///
/// # Errors
/// A sentence saying what is wrong with it.
pub fn check_name(name: &str) -> Result<(), String> {
    match split(name) {
        Some(_) => Ok(()),
        None => Err(format!(
            "--host: `{name}` is not a host name such as play.example.org or play.example.org:8443"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hosts(addr: &str, named: &[&str]) -> Hosts {
        let named: Vec<String> = named.iter().map(|n| n.to_string()).collect();
        Hosts::new(addr.parse().unwrap(), &named)
    }

    #[test]
    fn a_loopback_server_answers_to_its_addresses_and_localhost_on_its_port() {
        let local = hosts("127.0.0.1:8000", &[]);
        for good in [
            "127.0.0.1:8000",
            "localhost:8000",
            "LocalHost:8000",
            "[::1]:8000",
        ] {
            assert!(local.accepts(good), "{good}");
        }
        for bad in [
            "evil.example:8000",
            "localhost:8001",
            "127.0.0.1:9000",
            "127.0.0.1",
            "localhost",
            "localhost.evil.example:8000",
            "127.0.0.1.evil.example:8000",
            "",
            ":8000",
            "localhost:",
            "localhost:x",
            "[::1:8000",
            "::1:8000",
            "a b:8000",
            "127.0.0.1:8000@evil.example",
        ] {
            assert!(!local.accepts(bad), "{bad}");
        }
    }

    #[test]
    fn a_server_on_an_outside_address_answers_to_addresses_only_unless_named() {
        let public = hosts("192.0.2.7:8000", &[]);
        assert!(public.accepts("192.0.2.7:8000"));
        assert!(!public.accepts("localhost:8000"));
        assert!(!public.accepts("play.example.org:8000"));
        let every = hosts("0.0.0.0:80", &[]);
        assert!(every.accepts("localhost") && every.accepts("192.0.2.7"));
    }

    #[test]
    fn named_hosts_are_accepted_with_their_port_or_any() {
        let named = hosts(
            "127.0.0.1:8000",
            &[
                "Play.Example.org",
                "lan.example:8443",
                "[2001:db8::1]",
                "uttt_server:8000",
            ],
        );
        for good in [
            "play.example.org",
            "play.example.org:443",
            "PLAY.example.org:8000",
            "lan.example:8443",
            "[2001:db8::1]:9000",
            "uttt_server:8000",
        ] {
            assert!(named.accepts(good), "{good}");
        }
        assert!(named.named("play.example.org") && !named.named("127.0.0.1:8000"));
        for bad in [
            "lan.example",
            "lan.example:8000",
            "example.org",
            "evil.example",
        ] {
            assert!(!named.accepts(bad), "{bad}");
        }
    }

    #[test]
    fn checks_host_options() {
        for good in [
            "play.example.org",
            "play.example.org:8443",
            "[::1]:80",
            "x",
            "uttt_server",
        ] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in ["", "http://x", "x/y", "x:99999", "a b", "x:"] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }
}
