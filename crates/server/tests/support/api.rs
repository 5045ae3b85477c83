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
