//! The sending task: each notice's browsers are read from the store, and
//! each is sent the notice, at once, encrypted for it (RFC 8291,
//! `aes128gcm`) and signed with the server's VAPID key (RFC 8292), by the
//! `web-push` crate; the requests go out on a hyper client (TLS by the
//! system's OpenSSL, which the encryption uses too) to public addresses
//! only (`resolve.rs`). A push service that answers 404 or 410 has dropped
//! the subscription, and one that answers 400 or 403 will never take it
//! (made for another key, or not its own): it is forgotten. Nothing is
//! retried: a notice that could not be sent is said in the log.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use http_body_util::Full;
use hyper::{Method, Request, StatusCode};
use hyper_tls::HttpsConnector;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use tokio::sync::{mpsc, Semaphore};
use tokio::task::JoinSet;
use web_push::{
    request_builder::build_request, ContentEncoding, PartialVapidSignatureBuilder,
    SubscriptionInfo, Urgency, VapidSignature, WebPushMessageBuilder,
};

use super::resolve::PublicOnly;
use super::sql::{self, Target};
use super::{Kind, Notice};
use crate::store::Store;

/// Notices being sent at once at most (each to at most `sql::MAX_DEVICES`
/// browsers together).
const AT_ONCE: usize = 16;
/// How long one push service may take to connect, and to answer.
const ANSWER_WITHIN: Duration = Duration::from_secs(10);
/// The longest a push service keeps a notice (its limit is four weeks).
const MAX_TTL_S: u64 = 28 * 86_400;

/// What sends the notices.
pub struct Sender {
    store: Store,
    vapid: PartialVapidSignatureBuilder,
    contact: Option<String>,
    client: Client<HttpsConnector<HttpConnector<PublicOnly>>, Full<Bytes>>,
}

/// Why a notice did not reach a browser.
enum Failure {
    /// The push service will never take this subscription's messages.
    Gone,
    /// Anything else, in words for the log.
    Other(String),
}

impl Sender {
    /// A sender signing with `vapid` (and `contact` as the `sub` claim),
    /// reading the subscriptions from `store`, connecting to public
    /// addresses only.
    ///
    /// # Errors
    /// When the system's TLS cannot be set up.
    pub fn new(
        store: Store,
        vapid: PartialVapidSignatureBuilder,
        contact: Option<String>,
    ) -> Result<Sender, String> {
        let tls = native_tls::TlsConnector::new()
            .map_err(|e| format!("no TLS for the push services: {e}"))?;
        let mut http = HttpConnector::new_with_resolver(PublicOnly);
        // https URLs go through to TLS.
        http.enforce_http(false);
        http.set_connect_timeout(Some(ANSWER_WITHIN));
        let connector = HttpsConnector::from((http, tokio_native_tls::TlsConnector::from(tls)));
        Ok(Sender {
            store,
            vapid,
            contact,
            client: Client::builder(TokioExecutor::new()).build(connector),
        })
    }

    /// Sends `notice` to each browser of its player that wants its kind,
    /// all at once.
    async fn deliver(self: Arc<Sender>, notice: Notice) {
        let (player, bit) = (notice.player, notice.kind.bit());
        let targets = match self.store.read(move |c| sql::targets(c, player, bit)).await {
            Ok(targets) => targets,
            Err(e) => {
                eprintln!("uttt-server: push: {e}");
                return;
            }
        };
        let notice = Arc::new(notice);
        let mut sends = JoinSet::new();
        for target in targets {
            let (sender, notice) = (Arc::clone(&self), Arc::clone(&notice));
            sends.spawn(async move {
                let sent = sender.send(&target, &notice).await;
                (target, sent)
            });
        }
        while let Some(Ok((target, sent))) = sends.join_next().await {
            match sent {
                Ok(()) => {}
                Err(Failure::Gone) => {
                    let endpoint = target.endpoint;
                    if let Err(e) = self.store.write(move |c| sql::forget(c, &endpoint)).await {
                        eprintln!("uttt-server: push: {e}");
                    }
                }
                Err(Failure::Other(e)) => eprintln!("uttt-server: push not sent: {e}"),
            }
        }
    }

    /// The VAPID signature for `info`'s push service: its origin as the
    /// audience (RFC 8292; the crate's own leaves a port out), the
    /// operator's contact as the subject.
    fn sign(&self, info: &SubscriptionInfo) -> Result<VapidSignature, Failure> {
        let mut signature = self.vapid.clone().add_sub_info(info);
        let origin = audience(&info.endpoint)?;
        signature.add_claim("aud", origin.as_str());
        if let Some(contact) = &self.contact {
            signature.add_claim("sub", contact.as_str());
        }
        signature
            .build()
            .map_err(|e| Failure::Other(format!("cannot sign: {e}")))
    }

    /// Sends `notice` to one browser.
    async fn send(&self, target: &Target, notice: &Notice) -> Result<(), Failure> {
        let info = SubscriptionInfo::new(
            target.endpoint.as_str(),
            target.p256dh.as_str(),
            target.auth.as_str(),
        );
        let payload = notice.payload.to_string();
        let mut message = WebPushMessageBuilder::new(&info);
        message.set_payload(ContentEncoding::Aes128Gcm, payload.as_bytes());
        message.set_vapid_signature(self.sign(&info)?);
        message.set_ttl(u32::try_from((notice.keep_ms / 1000).min(MAX_TTL_S)).unwrap_or(0));
        message.set_urgency(if notice.kind == Kind::Reminder {
            Urgency::High
        } else {
            Urgency::Normal
        });
        if let Some(topic) = &notice.topic {
            message.set_topic(topic.clone());
        }
        let built = message
            .build()
            .map_err(|e| Failure::Other(format!("cannot encrypt: {e}")))?;
        // web-push writes the request with the `http` crate of hyper 0.14:
        // carried over to hyper 1's as it is.
        let request = build_request::<Vec<u8>>(built);
        let mut out = Request::builder()
            .method(Method::POST)
            .uri(request.uri().to_string());
        for (name, value) in request.headers() {
            out = out.header(name.as_str(), value.as_bytes());
        }
        let out = out
            .body(Full::new(Bytes::from(request.into_body())))
            .map_err(|e| Failure::Other(format!("cannot make the request: {e}")))?;
        self.post(out).await
    }

    /// Posts `request` to its push service; what its answer says of the
    /// subscription.
    async fn post(&self, out: Request<Full<Bytes>>) -> Result<(), Failure> {
        let answer = tokio::time::timeout(ANSWER_WITHIN, self.client.request(out))
            .await
            .map_err(|_| Failure::Other("the push service did not answer in time".into()))?
            .map_err(|e| Failure::Other(format!("cannot reach the push service: {e}")))?;
        match answer.status() {
            status if status.is_success() => Ok(()),
            StatusCode::NOT_FOUND
            | StatusCode::GONE
            | StatusCode::BAD_REQUEST
            | StatusCode::FORBIDDEN => Err(Failure::Gone),
            status => Err(Failure::Other(format!(
                "the push service answered {status}"
            ))),
        }
    }
}

/// The origin of `endpoint`: scheme, host and port as written.
fn audience(endpoint: &str) -> Result<String, Failure> {
    let uri: hyper::Uri = endpoint
        .parse()
        .map_err(|e| Failure::Other(format!("a stored endpoint is not a URL: {e}")))?;
    match (uri.scheme_str(), uri.authority()) {
        (Some(scheme), Some(authority)) => Ok(format!("{scheme}://{authority}")),
        _ => Err(Failure::Other("a stored endpoint has no origin".into())),
    }
}

/// Sends the queued notices, `AT_ONCE` at a time, until the queue closes.
pub async fn run(mut notices: mpsc::Receiver<Notice>, sender: Sender) {
    let sender = Arc::new(sender);
    let places = Arc::new(Semaphore::new(AT_ONCE));
    while let Some(notice) = notices.recv().await {
        let Ok(place) = Arc::clone(&places).acquire_owned().await else {
            return;
        };
        let sender = Arc::clone(&sender);
        tokio::spawn(async move {
            sender.deliver(notice).await;
            drop(place);
        });
    }
}
