//! The sending task: each notice's browsers are read from the store, and
//! each is sent the notice encrypted for it (RFC 8291, `aes128gcm`) and
//! signed with the server's VAPID key (RFC 8292), by the `web-push` crate;
//! the request goes out on a hyper client (TLS by the system's OpenSSL,
//! which the encryption uses too). A push service that answers 404 or
//! 410 has dropped the subscription: it is forgotten. Nothing is retried:
//! a notice that could not be sent is said in the log.

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
use web_push::{
    request_builder::build_request, ContentEncoding, PartialVapidSignatureBuilder,
    SubscriptionInfo, Urgency, WebPushMessageBuilder,
};

use super::sql::{self, Target};
use super::{Kind, Notice};
use crate::store::Store;

/// Notices being sent at once at most.
const AT_ONCE: usize = 16;
/// How long one push service may take to answer.
const ANSWER_WITHIN: Duration = Duration::from_secs(10);
/// The longest a push service keeps a notice (its limit is four weeks).
const MAX_TTL_S: u64 = 28 * 86_400;

/// What sends the notices.
pub struct Sender {
    store: Store,
    vapid: PartialVapidSignatureBuilder,
    contact: Option<String>,
    client: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
}

/// Why a notice did not reach a browser.
enum Failure {
    /// The push service dropped the subscription.
    Gone,
    /// Anything else, in words for the log.
    Other(String),
}

impl Sender {
    /// A sender signing with `vapid` (and `contact` as the `sub` claim),
    /// reading the subscriptions from `store`.
    pub fn new(
        store: Store,
        vapid: PartialVapidSignatureBuilder,
        contact: Option<String>,
    ) -> Sender {
        Sender {
            store,
            vapid,
            contact,
            client: Client::builder(TokioExecutor::new()).build(HttpsConnector::new()),
        }
    }

    /// Sends `notice` to each browser of its player that wants its kind.
    async fn deliver(&self, notice: Notice) {
        let (player, bit) = (notice.player, notice.kind.bit());
        let targets = match self.store.read(move |c| sql::targets(c, player, bit)).await {
            Ok(targets) => targets,
            Err(e) => {
                eprintln!("uttt-server: push: {e}");
                return;
            }
        };
        for target in targets {
            match self.send(&target, &notice).await {
                Ok(()) => {}
                Err(Failure::Gone) => {
                    let endpoint = target.endpoint.clone();
                    if let Err(e) = self.store.write(move |c| sql::forget(c, &endpoint)).await {
                        eprintln!("uttt-server: push: {e}");
                    }
                }
                Err(Failure::Other(e)) => eprintln!("uttt-server: push not sent: {e}"),
            }
        }
    }

    /// Sends `notice` to one browser.
    async fn send(&self, target: &Target, notice: &Notice) -> Result<(), Failure> {
        let info = SubscriptionInfo::new(
            target.endpoint.as_str(),
            target.p256dh.as_str(),
            target.auth.as_str(),
        );
        let mut signature = self.vapid.clone().add_sub_info(&info);
        // The audience is the push service's origin (RFC 8292), its port
        // included: the crate's own leaves the port out.
        let origin = audience(&target.endpoint)?;
        signature.add_claim("aud", origin.as_str());
        if let Some(contact) = &self.contact {
            signature.add_claim("sub", contact.as_str());
        }
        let signature = signature
            .build()
            .map_err(|e| Failure::Other(format!("cannot sign: {e}")))?;
        let payload = notice.payload.to_string();
        let mut message = WebPushMessageBuilder::new(&info);
        message.set_payload(ContentEncoding::Aes128Gcm, payload.as_bytes());
        message.set_vapid_signature(signature);
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
        let request = build_request::<Vec<u8>>(built);
        // web-push writes the request with the `http` crate of hyper 0.14;
        // it is carried over to hyper 1's as it is.
        let mut out = Request::builder()
            .method(Method::POST)
            .uri(request.uri().to_string());
        for (name, value) in request.headers() {
            out = out.header(name.as_str(), value.as_bytes());
        }
        let out = out
            .body(Full::new(Bytes::from(request.into_body())))
            .map_err(|e| Failure::Other(format!("cannot make the request: {e}")))?;
        let answer = tokio::time::timeout(ANSWER_WITHIN, self.client.request(out))
            .await
            .map_err(|_| Failure::Other("the push service did not answer in time".into()))?
            .map_err(|e| Failure::Other(format!("cannot reach the push service: {e}")))?;
        match answer.status() {
            status if status.is_success() => Ok(()),
            StatusCode::NOT_FOUND | StatusCode::GONE => Err(Failure::Gone),
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
