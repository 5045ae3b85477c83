//! The push client's name resolution: only public addresses. A
//! subscription's endpoint is the browser's word, so a name that resolves
//! into a private network (or this machine) must not make the server call
//! there; an endpoint that is an address is refused before (`api.rs`).

use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::task::{Context, Poll};

use hyper_util::client::legacy::connect::dns::Name;

/// Resolves a name to its public addresses; none is an error.
#[derive(Clone, Copy, Debug, Default)]
pub struct PublicOnly;

impl tower::Service<Name> for PublicOnly {
    type Response = std::vec::IntoIter<SocketAddr>;
    type Error = io::Error;
    type Future = Pin<Box<dyn Future<Output = io::Result<Self::Response>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, name: Name) -> Self::Future {
        Box::pin(async move {
            let found = tokio::net::lookup_host((name.as_str(), 0)).await?;
            let public: Vec<SocketAddr> = found.filter(|a| public(a.ip())).collect();
            if public.is_empty() {
                return Err(io::Error::other(format!(
                    "{} has no public address",
                    name.as_str()
                )));
            }
            Ok(public.into_iter())
        })
    }
}

/// Whether `ip` is an address of the public internet: not this machine,
/// a private or shared network, a link, a multicast group, or one set
/// aside.
#[must_use]
pub fn public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => public_v4(v4),
            None => public_v6(v6),
        },
    }
}

fn public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_documentation()
        || ip.is_multicast()
        || a == 0
        // Shared address space (RFC 6598), benchmarking (RFC 2544), reserved.
        || (a == 100 && (64..128).contains(&b))
        || (a == 198 && (18..20).contains(&b))
        || a >= 240
        || (a == 192 && b == 0 && ip.octets()[2] == 0))
}

fn public_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_multicast()
        // Unique local (fc00::/7), link-local (fe80::/10), documentation.
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
        || first == 0x2001 && ip.segments()[1] == 0x0db8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_public_addresses_are_public() {
        for private in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.1.1",
            "100.64.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.1",
            "::1",
            "::",
            "fd00::1",
            "fe80::1",
            "::ffff:10.0.0.1",
            "::ffff:127.0.0.1",
            "2001:db8::1",
        ] {
            assert!(!public(private.parse().unwrap()), "{private}");
        }
        for open in [
            "142.250.1.1",
            "8.8.8.8",
            "2a00:1450:4001::1",
            "::ffff:8.8.8.8",
        ] {
            assert!(public(open.parse().unwrap()), "{open}");
        }
    }
}
