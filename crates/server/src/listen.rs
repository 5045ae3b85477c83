//! The accept loop: each connection served by hyper with a deadline for
//! its request head and a cap on its size, a limit on open connections in
//! all and per client (an IPv4 address or an IPv6 /64), and a pause (not a
//! spin) when the system refuses new connections, e.g. when out of file
//! handles.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tower::ServiceExt;

use crate::config::Config;
use crate::network::{client_of, forwarded_client, is_trusted};

/// The largest request head accepted; longer ones are answered 431.
const MAX_HEAD_BYTES: usize = 16 * 1024;

/// The first wait after a refused accept; it doubles up to a second.
const FIRST_PAUSE: Duration = Duration::from_millis(10);

/// The answer to a connection over a limit, written without waiting.
const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\n\
Content-Length: 0\r\nConnection: close\r\n\r\n";

/// A connection's places under the limits, held while it is open; a
/// WebSocket takes it over when its connection is upgraded (hyper's own
/// connection future ends then), so game connections count too.
#[derive(Clone)]
pub struct ConnectionSlot {
    /// The place among all connections, and the client's unless it is a
    /// trusted proxy's connection (whose clients are counted one by one).
    held: Arc<(OwnedSemaphorePermit, Option<AddressSlot>)>,
    per_address: PerAddress,
    limit: usize,
}

/// A game connection's place under the per-address limit, held while it
/// is open (see `ConnectionSlot::client_place`).
pub struct ClientPlace(#[allow(dead_code)] Option<AddressSlot>);

impl ConnectionSlot {
    /// The place of a game connection from `client`: none more for a
    /// direct connection, counted as it was accepted; one of `client`'s
    /// places for a trusted proxy's connection, so that a client behind
    /// the proxy holds no more game connections than one reaching the
    /// server directly. `None` when `client` holds all its places.
    #[must_use]
    pub fn client_place(&self, client: IpAddr) -> Option<ClientPlace> {
        if self.held.1.is_some() {
            return Some(ClientPlace(None));
        }
        self.per_address
            .take(client_of(client), self.limit)
            .map(|slot| ClientPlace(Some(slot)))
    }
}

/// Open connections per client (see `network.rs`).
#[derive(Clone, Default)]
struct PerAddress(Arc<Mutex<HashMap<IpAddr, usize>>>);

/// One open connection counted against its client until dropped.
struct AddressSlot {
    counts: PerAddress,
    ip: IpAddr,
}

impl PerAddress {
    fn take(&self, ip: IpAddr, limit: usize) -> Option<AddressSlot> {
        let mut counts = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let open = counts.entry(ip).or_insert(0);
        if *open >= limit {
            return None;
        }
        *open += 1;
        Some(AddressSlot {
            counts: self.clone(),
            ip,
        })
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut counts = self.counts.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(open) = counts.get_mut(&self.ip) {
            *open -= 1;
            if *open == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}

/// Serves `app` on `listener` until the process ends.
pub async fn serve(listener: TcpListener, app: Router, config: &Config) {
    let total = Arc::new(Semaphore::new(config.max_connections));
    let per_address = PerAddress::default();
    let proxies: Arc<[IpAddr]> = config.trusted_proxies.clone().into();
    let mut pause = FIRST_PAUSE;
    loop {
        let (stream, remote) = match listener.accept().await {
            Ok(accepted) => {
                pause = FIRST_PAUSE;
                accepted
            }
            Err(e) => {
                // Out of file handles, or the like: the pending connection
                // stays queued, so accepting again at once would spin. Said
                // once per spell of refusals.
                if pause == FIRST_PAUSE {
                    eprintln!("uttt-server: cannot accept connections ({e}); waiting");
                }
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(1));
                continue;
            }
        };
        let Ok(permit) = Arc::clone(&total).try_acquire_owned() else {
            refuse(&stream);
            continue;
        };
        // A proxy's connections are its clients': they are counted per
        // client where each request says who that is (`ConnectInfo` below).
        let trusted = is_trusted(remote.ip(), &config.trusted_proxies);
        let slot = if trusted {
            None
        } else {
            let client = client_of(remote.ip());
            let Some(slot) = per_address.take(client, config.max_connections_per_address) else {
                refuse(&stream);
                continue;
            };
            Some(slot)
        };
        tokio::spawn(connection(
            stream,
            remote,
            app.clone(),
            (config.header_timeout, Arc::clone(&proxies)),
            ConnectionSlot {
                held: Arc::new((permit, slot)),
                per_address: per_address.clone(),
                limit: config.max_connections_per_address,
            },
        ));
    }
}

/// Tells a client over a limit to come back later, if its socket takes the
/// few bytes at once; then closes it.
fn refuse(stream: &TcpStream) {
    let _ = stream.try_write(BUSY);
}

async fn connection(
    stream: TcpStream,
    remote: SocketAddr,
    app: Router,
    (header_timeout, proxies): (Duration, Arc<[IpAddr]>),
    slot: ConnectionSlot,
) {
    let _ = stream.set_nodelay(true);
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        let client = forwarded_client(remote.ip(), request.headers(), &proxies);
        let from = SocketAddr::new(client, remote.port());
        request.extensions_mut().insert(ConnectInfo(from));
        request.extensions_mut().insert(slot.clone());
        app.clone().oneshot(request)
    });
    let served = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .max_buf_size(MAX_HEAD_BYTES)
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades()
        .await;
    // A client that hangs up or times out is its own business.
    drop(served);
}
