//! Web Push against a real `uttt-server`: the players' browsers are
//! played by subscriptions whose endpoints point at a push service of the
//! test's own on 127.0.0.1 (the server's `--push-to-loopback`), which
//! decrypts each message with the browser's private key (the `ece` crate,
//! RFC 8291) and checks its VAPID signature against the server's key.
//! The days pass through the failpoints build's `POST /test/clock`.

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use ece::LocalKeyPair;
use jwt_simple::prelude::{
    ECDSAP256PublicKeyLike, ES256PublicKey, NoCustomClaims, VerificationOptions,
};
use serde_json::{json, Value};
use uttt_protocol::{ClientMessage, ServerMessage};

use crate::support::api::{call, new_player, Reply, Who};
use crate::support::client::{mv, ultimate_by_days, Client};
use crate::support::{challenge, fresh_db, players_server, skip, Server};

/// One message as the push service took it.
struct Delivery {
    path: String,
    headers: HashMap<String, String>,
    body: Vec<u8>,
}

/// The test's push service: every POST is answered 201 and handed to the
/// test, but those to a path made gone, which are answered 410.
struct PushService {
    port: u16,
    deliveries: Receiver<Delivery>,
    gone: Arc<Mutex<HashSet<String>>>,
}

impl PushService {
    fn start() -> PushService {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let (tx, deliveries) = channel();
        let gone = Arc::new(Mutex::new(HashSet::new()));
        let gone_paths = Arc::clone(&gone);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { return };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
                let mut headers = HashMap::new();
                loop {
                    let mut line = String::new();
                    reader.read_line(&mut line).unwrap();
                    let Some((name, value)) = line.trim_end().split_once(':') else {
                        break;
                    };
                    headers.insert(name.to_ascii_lowercase(), value.trim().to_string());
                }
                let length = headers["content-length"].parse().unwrap();
                let mut body = vec![0; length];
                reader.read_exact(&mut body).unwrap();
                let status = if gone_paths.lock().unwrap().contains(&path) {
                    "410 Gone"
                } else {
                    "201 Created"
                };
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                );
                if tx
                    .send(Delivery {
                        path,
                        headers,
                        body,
                    })
                    .is_err()
                {
                    return;
                }
            }
        });
        PushService {
            port,
            deliveries,
            gone,
        }
    }

    /// The next message, wherever it went.
    fn next(&self) -> Delivery {
        self.deliveries
            .recv_timeout(Duration::from_secs(30))
            .expect("no push message came")
    }

    /// Whether a message comes within a second (for the ones that must not).
    fn quiet(&self) -> bool {
        self.deliveries
            .recv_timeout(Duration::from_secs(1))
            .is_err()
    }
}

/// A browser of a signed-in player: its session and subscription keys.
struct Browser {
    who: Who,
    name: String,
    path: String,
    keys: Box<dyn LocalKeyPair>,
    auth: [u8; 16],
}

impl Browser {
    fn new(server: &Server, path: &str) -> Browser {
        let (secret, name, csrf) = new_player(server);
        let (keys, auth) = ece::generate_keypair_and_auth_secret().unwrap();
        Browser {
            who: Who::page(&secret, &csrf),
            name,
            path: path.to_string(),
            keys,
            auth,
        }
    }

    fn secret(&self) -> &str {
        self.who.secret.as_deref().unwrap()
    }

    /// Its subscription, as `PushSubscription.toJSON()` writes it.
    fn subscription(&self, service: &PushService) -> String {
        json!({
            "endpoint": format!("http://127.0.0.1:{}{}", service.port, self.path),
            "expirationTime": null,
            "keys": {
                "p256dh": URL_SAFE_NO_PAD.encode(self.keys.pub_as_raw().unwrap()),
                "auth": URL_SAFE_NO_PAD.encode(self.auth),
            },
        })
        .to_string()
    }

    fn subscribe(&self, server: &Server, service: &PushService) -> Reply {
        let body = self.subscription(service);
        call(
            server,
            "POST",
            "/api/me/push/subscription",
            &self.who,
            &body,
        )
    }

    /// The message `delivery` carried, decrypted with this browser's keys.
    fn read(&self, delivery: &Delivery) -> Value {
        assert_eq!(delivery.path, self.path, "a message for another browser");
        assert_eq!(delivery.headers["content-encoding"], "aes128gcm");
        let components = self.keys.raw_components().unwrap();
        let plain = ece::decrypt(&components, &self.auth, &delivery.body).unwrap();
        serde_json::from_slice(&plain).unwrap()
    }
}

/// Checks `delivery`'s VAPID signature (RFC 8292) with the server's key.
fn signed_by(delivery: &Delivery, key: &str, service: &PushService) {
    let authorization = &delivery.headers["authorization"];
    let rest = authorization.strip_prefix("vapid ").expect(authorization);
    let parts: HashMap<&str, &str> = rest
        .split(',')
        .filter_map(|p| p.trim().split_once('='))
        .collect();
    assert_eq!(parts["k"], key);
    let public = ES256PublicKey::from_bytes(&URL_SAFE_NO_PAD.decode(key).unwrap()).unwrap();
    let audience = format!("http://127.0.0.1:{}", service.port);
    let only_this_service = VerificationOptions {
        allowed_audiences: Some(HashSet::from([audience])),
        ..VerificationOptions::default()
    };
    let claims = public
        .verify_token::<NoCustomClaims>(parts["t"], Some(only_this_service))
        .expect("a signature by the server's key, for this push service");
    assert_eq!(claims.subject.as_deref(), Some("mailto:push@example.org"));
}

fn server() -> Server {
    players_server(
        "push",
        &fresh_db(),
        &[
            "--push-to-loopback",
            "--push-contact",
            "mailto:push@example.org",
        ],
    )
}

fn set_kinds(server: &Server, browser: &Browser, kinds: Value) -> Reply {
    let body = json!({ "kinds": kinds }).to_string();
    call(server, "POST", "/api/me/push", &browser.who, &body)
}

#[test]
fn a_correspondence_game_is_told_to_each_players_browser_by_push() {
    let server = server();
    let service = PushService::start();
    let key = call(&server, "GET", "/api/push/key", &Who::default(), "");
    let key = key.body["key"].as_str().unwrap().to_string();
    let ann = Browser::new(&server, "/ann");
    let bob = Browser::new(&server, "/bob");
    for browser in [&ann, &bob] {
        let kept = browser.subscribe(&server, &service);
        assert_eq!(kept.status, 200, "{}", kept.raw);
        assert_eq!(kept.body["thisDevice"], true);
        assert_eq!(kept.body["devices"], 1);
        assert_eq!(kept.body["kinds"]["yourMove"], true);
    }

    // Ann challenges Bob to a game of a day a move: Bob is told.
    let mut a = Client::connect_as(server.addr, Some(ann.secret()));
    let id = challenge(&mut a, ultimate_by_days(1), &bob.name);
    let told = service.next();
    signed_by(&told, &key, &service);
    let challenged = bob.read(&told);
    assert_eq!(challenged["kind"], "challenge");
    assert_eq!(challenged["id"], id.as_str());
    assert_eq!(challenged["from"], ann.name.as_str());
    assert_eq!(challenged["options"]["days"], 1);
    assert_eq!(told.headers["ttl"], "600");
    // Withdrawn and made again: Bob is not told twice in ten minutes.
    a.send(&ClientMessage::CancelChallenge {});
    a.until("the challenge's end", |m| {
        matches!(m, ServerMessage::ChallengeEnded { .. }).then_some(())
    });
    let id = challenge(&mut a, ultimate_by_days(1), &bob.name);
    assert!(service.quiet(), "a second challenge notice");

    // Bob accepts: Ann, X, is told it is her move.
    let mut b = Client::connect_as(server.addr, Some(bob.secret()));
    b.send(&ClientMessage::AcceptChallenge { id });
    let (room, _, _) = a.joined();
    b.joined();
    let start = ann.read(&service.next());
    assert_eq!(start["kind"], "yourMove");
    assert_eq!(start["room"], room.as_str());
    assert_eq!(start["opponent"], bob.name.as_str());

    // Ann moves: Bob is told, and the message waits no longer than his day.
    a.send(&mv(0, 4, 4));
    let told = service.next();
    let moved = bob.read(&told);
    assert_eq!(moved["kind"], "yourMove");
    assert_eq!(moved["opponent"], ann.name.as_str());
    assert!(moved["deadline"].as_u64().is_some(), "{moved}");
    let ttl: u64 = told.headers["ttl"].parse().unwrap();
    assert!(ttl > 86_000 && ttl <= 86_400, "{ttl}");
    assert_eq!(told.headers["topic"], format!("{room}1"));

    // Bob wants no "your move": his move tells Ann, hers tells him nothing.
    let off = set_kinds(
        &server,
        &bob,
        json!({"yourMove": false, "gameOver": true, "challenge": true, "reminder": true}),
    );
    assert_eq!(off.status, 200, "{}", off.raw);
    assert_eq!(off.body["kinds"]["yourMove"], false);
    b.send(&mv(1, 4, 0));
    assert_eq!(ann.read(&service.next())["kind"], "yourMove");
    a.send(&mv(2, 0, 4));
    b.state(|s| s.record.split(':').nth(1).unwrap_or("").len() == 6);

    // Eighteen hours on, Bob's day is running out: one reminder.
    let reminded_after = |ms: u64| skip(&server, ms)["reminded"].as_u64().unwrap();
    assert_eq!(reminded_after(17 * 3_600_000), 0);
    assert_eq!(reminded_after(3_600_000 + 60_000), 1);
    let reminder = bob.read(&service.next());
    assert_eq!(reminder["kind"], "reminder");
    assert_eq!(reminder["room"], room.as_str());
    assert_eq!(
        reminded_after(60_000),
        0,
        "a second reminder for the same move"
    );

    // Bob resigns: both are told, each their outcome.
    b.send(&ClientMessage::Resign {});
    let mut ends = HashMap::new();
    for _ in 0..2 {
        let delivery = service.next();
        let reader = if delivery.path == ann.path {
            &ann
        } else {
            &bob
        };
        let end = reader.read(&delivery);
        assert_eq!(end["kind"], "gameOver");
        ends.insert(delivery.path, end["outcome"].as_str().unwrap().to_string());
    }
    assert_eq!(ends["/ann"], "win");
    assert_eq!(ends["/bob"], "loss");
    assert!(service.quiet(), "a message nobody should have had");

    // Ann's browser is gone from her push service: the next message
    // finds so, and her subscription is forgotten.
    service.gone.lock().unwrap().insert("/ann".into());
    a.send(&ClientMessage::Rematch {});
    b.send(&ClientMessage::Rematch {});
    // Ann is told of her first move of the rematch (Bob of none: he
    // turned "your move" off), and her push service answers 410.
    let rematch = b.state(|s| s.game_number == 2);
    if rematch.x_name.as_deref() == Some(bob.name.as_str()) {
        b.send(&mv(0, 4, 4));
    }
    assert_eq!(service.next().path, "/ann");
    let mut forgotten = false;
    for _ in 0..50 {
        let settings = call(&server, "GET", "/api/me/push", &ann.who, "");
        if settings.body["devices"] == 0 {
            forgotten = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(forgotten, "the gone subscription was kept");
}

#[test]
fn subscriptions_are_checked_and_belong_to_one_session() {
    let server = server();
    let service = PushService::start();
    let bob = Browser::new(&server, "/bob");
    let subscribe = |browser: &Browser, body: &str| {
        call(
            &server,
            "POST",
            "/api/me/push/subscription",
            &browser.who,
            body,
        )
    };
    let good: Value = serde_json::from_str(&bob.subscription(&service)).unwrap();
    let with = |key: &str, value: Value| {
        let mut body = good.clone();
        body[key] = value;
        body.to_string()
    };
    for (body, code) in [
        (
            with("endpoint", json!("https://127.0.0.1/x")),
            "bad-endpoint",
        ),
        (
            with("endpoint", json!("http://push.example.org/x")),
            "bad-endpoint",
        ),
        (
            with("endpoint", json!("https://intranet/x")),
            "bad-endpoint",
        ),
        (
            with(
                "keys",
                json!({"p256dh": "AAAA", "auth": good["keys"]["auth"]}),
            ),
            "bad-keys",
        ),
        (
            with(
                "keys",
                json!({"p256dh": good["keys"]["p256dh"], "auth": "AAAA"}),
            ),
            "bad-keys",
        ),
        (with("extra", json!(1)), "bad-subscription"),
        ("not json".to_string(), "bad-subscription"),
    ] {
        let refused = subscribe(&bob, &body);
        assert_eq!((refused.status, refused.error()), (400, code), "{body}");
    }
    let settings = call(&server, "GET", "/api/me/push", &bob.who, "");
    assert_eq!(settings.body["devices"], 0, "{}", settings.raw);

    // A change needs the page's token; the settings need a session.
    let no_token = Who {
        csrf: None,
        ..bob.who.clone()
    };
    let body = good.to_string();
    let refused = call(
        &server,
        "POST",
        "/api/me/push/subscription",
        &no_token,
        &body,
    );
    assert_eq!(refused.status, 403);
    assert_eq!(
        call(&server, "GET", "/api/me/push", &Who::default(), "").status,
        401
    );
    let bad_switches = set_kinds(&server, &bob, json!({"yourMove": true}));
    assert_eq!(
        (bad_switches.status, bad_switches.error()),
        (400, "bad-settings")
    );

    // The same browser later signed in as Carl: only Carl is told there.
    assert_eq!(subscribe(&bob, &body).status, 200);
    let carl = Browser::new(&server, "/bob");
    assert_eq!(subscribe(&carl, &body).status, 200);
    let bobs = call(&server, "GET", "/api/me/push", &bob.who, "");
    assert_eq!(
        (
            bobs.body["devices"].clone(),
            bobs.body["thisDevice"].clone()
        ),
        (json!(0), json!(false))
    );
    // Turned off on this browser; then signing out takes the rest.
    let off = call(
        &server,
        "DELETE",
        "/api/me/push/subscription",
        &carl.who,
        "",
    );
    assert_eq!(
        (off.status, off.body["thisDevice"].clone()),
        (200, json!(false))
    );
    assert_eq!(subscribe(&carl, &body).status, 200);
    // Signing out takes this browser's subscription with the session: Carl,
    // signed in on another browser, has none left.
    let password = json!({ "password": "a long password" }).to_string();
    let set = call(&server, "POST", "/api/me/password", &carl.who, &password);
    assert_eq!(set.status, 204, "{}", set.raw);
    let credentials = json!({ "name": carl.name, "password": "a long password" }).to_string();
    let elsewhere = call(
        &server,
        "POST",
        "/api/signin",
        &Who::default(),
        &credentials,
    );
    assert_eq!(elsewhere.status, 200, "{}", elsewhere.raw);
    let other = Who::page(
        &elsewhere.secret(),
        elsewhere.body["csrf"].as_str().unwrap(),
    );
    let before = call(&server, "GET", "/api/me/push", &other, "");
    assert_eq!(before.body["devices"], 1, "{}", before.raw);
    assert_eq!(
        call(&server, "POST", "/api/signout", &carl.who, "").status,
        204
    );
    let after = call(&server, "GET", "/api/me/push", &other, "");
    assert_eq!(after.body["devices"], 0, "{}", after.raw);
}
