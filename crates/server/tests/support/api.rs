//! The JSON API as the tests call it: raw HTTP answers read for their
//! status and body, players signed up from this server's own page.

use super::{header, Server};

/// The status code of a raw HTTP answer.
pub fn status(reply: &str) -> u16 {
    reply
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// The JSON body of a raw HTTP answer (bodies here are small, never
/// chunked by the server... but read past any chunk size line all the same).
pub fn json(reply: &str) -> serde_json::Value {
    let body = reply.split("\r\n\r\n").nth(1).unwrap_or_default();
    let start = body.find('{').unwrap_or(0);
    let end = body.rfind('}').map_or(body.len(), |i| i + 1);
    serde_json::from_str(&body[start..end]).unwrap_or(serde_json::Value::Null)
}

/// `POST /api/session` from this server's own page.
pub fn sign_up(server: &Server, cookie: Option<&str>) -> String {
    let origin = format!("Origin: http://{}", server.addr);
    let cookie = cookie.map(|c| format!("Cookie: uttt_session={c}"));
    let mut headers = vec![origin.as_str(), "Content-Length: 0"];
    headers.extend(cookie.as_deref());
    server.request("POST", "/api/session", &headers)
}

/// The session secret a `Set-Cookie` answer gives.
pub fn secret(reply: &str) -> String {
    let cookie = header(reply, "set-cookie").expect("a session cookie");
    cookie
        .strip_prefix("uttt_session=")
        .and_then(|rest| rest.split(';').next())
        .expect("the cookie's value")
        .to_string()
}

/// A new player: their session secret, name and CSRF token.
pub fn signed_up(server: &Server) -> (String, String, String) {
    let made = sign_up(server, None);
    let field = |key: &str| json(&made)[key].as_str().unwrap().to_string();
    (secret(&made), field("name"), field("csrf"))
}

/// A signed-up player's session secret and name.
pub fn player(server: &Server) -> (String, String) {
    let (secret, name, _) = signed_up(server);
    (secret, name)
}

// Requests as a page (or a stranger) makes them, answers read whole.

/// An answer: its status, JSON body and the whole text.
pub struct Reply {
    pub status: u16,
    pub body: serde_json::Value,
    pub raw: String,
}

impl Reply {
    /// The `error` code of an error answer.
    pub fn error(&self) -> &str {
        self.body["error"].as_str().unwrap_or("")
    }

    /// The value of header `name`.
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.raw, name)
    }

    /// The session secret a `Set-Cookie` answer gives.
    pub fn secret(&self) -> String {
        let cookie = self.header("set-cookie").expect("a session cookie");
        cookie
            .strip_prefix("uttt_session=")
            .and_then(|rest| rest.split(';').next())
            .expect("the cookie's value")
            .to_string()
    }
}

/// Who asks: the page's address (`Host` and `Origin`), and the session.
#[derive(Clone, Default)]
pub struct Who {
    /// `Host`; the server's own address when `None`.
    pub host: Option<String>,
    /// `Origin`: `http://HOST` when `None`, none at all when `Some("")`.
    pub origin: Option<String>,
    pub secret: Option<String>,
    pub csrf: Option<String>,
}

impl Who {
    /// This server's page, signed in as `secret` with token `csrf`.
    pub fn page(secret: &str, csrf: &str) -> Who {
        Who {
            secret: Some(secret.into()),
            csrf: Some(csrf.into()),
            ..Who::default()
        }
    }

    /// The same, with the page at `http://localhost:PORT`.
    pub fn at_localhost(mut self, server: &Server) -> Who {
        self.host = Some(format!("localhost:{}", server.addr.port()));
        self
    }
}

/// `METHOD path` with JSON `body`, as `from` asks it.
pub fn call(server: &Server, method: &str, path: &str, from: &Who, body: &str) -> Reply {
    let host = from.host.clone().unwrap_or_else(|| server.addr.to_string());
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nUser-Agent: uttt-test\r\n",
        body.len()
    );
    match from.origin.as_deref() {
        None => request.push_str(&format!("Origin: http://{host}\r\n")),
        Some("") => {}
        Some(origin) => request.push_str(&format!("Origin: {origin}\r\n")),
    }
    if let Some(secret) = &from.secret {
        request.push_str(&format!("Cookie: uttt_session={secret}\r\n"));
    }
    if let Some(csrf) = &from.csrf {
        request.push_str(&format!("X-CSRF-Token: {csrf}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    let raw = server.raw(request.as_bytes());
    let status = raw
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let text = raw.split("\r\n\r\n").nth(1).unwrap_or_default();
    let json = match (text.find('{'), text.rfind('}')) {
        (Some(start), Some(end)) if start < end => {
            serde_json::from_str(&text[start..=end]).unwrap_or(serde_json::Value::Null)
        }
        _ => serde_json::Value::Null,
    };
    Reply {
        status,
        body: json,
        raw,
    }
}

/// A new player from this server's page: (secret, name, csrf).
pub fn new_player(server: &Server) -> (String, String, String) {
    let made = call(server, "POST", "/api/session", &Who::default(), "");
    assert_eq!(made.status, 201, "{}", made.raw);
    let field = |key: &str| made.body[key].as_str().unwrap().to_string();
    (made.secret(), field("name"), field("csrf"))
}
