//! `GET qr.svg?text=LINK`: an invitation link as a QR code, so a phone's
//! camera can open it. Only invitation links (`http(s)://...?room=CODE`,
//! at most 300 characters) to this site (the host the request names, or an
//! origin allowed with `--allow-origin`) are drawn: the server is not a QR
//! service, and its codes lead nowhere else.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use qrcode::render::svg;
use qrcode::QrCode;

use crate::app::App;
use crate::site::percent_decode;

/// The longest link drawn.
const MAX_LINK: usize = 300;

/// Whether `link` is an invitation link: http(s), a `room` of letters and
/// digits, nothing that needs escaping.
#[must_use]
pub fn is_invitation(link: &str) -> bool {
    let Some(rest) = link
        .strip_prefix("https://")
        .or_else(|| link.strip_prefix("http://"))
    else {
        return false;
    };
    let Some((_, query)) = rest.split_once('?') else {
        return false;
    };
    link.len() <= MAX_LINK
        && link.bytes().all(|b| b.is_ascii_graphic())
        && query.split('&').any(|pair| {
            pair.strip_prefix("room=").is_some_and(|code| {
                !code.is_empty() && code.bytes().all(|b| b.is_ascii_alphanumeric())
            })
        })
}

/// Whether `link` leads to this site: its origin is `http(s)://HOST` for
/// the request's `host` or a name the operator gave (`named`, for a proxy
/// that passes on another `Host`), or one of `allowed`.
#[must_use]
pub fn leads_here(
    link: &str,
    host: Option<&str>,
    named: impl Fn(&str) -> bool,
    allowed: &[String],
) -> bool {
    let Some((scheme, rest)) = link.split_once("://") else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let origin = &link[..scheme.len() + 3 + authority.len()];
    allowed.iter().any(|a| a.eq_ignore_ascii_case(origin))
        || host.is_some_and(|h| !h.is_empty() && h.eq_ignore_ascii_case(authority))
        || (!authority.is_empty() && named(authority))
}

/// The SVG of `link`'s QR code.
#[must_use]
pub fn svg_of(link: &str) -> Option<String> {
    let code = QrCode::new(link.as_bytes()).ok()?;
    Some(
        code.render::<svg::Color<'_>>()
            .min_dimensions(200, 200)
            .dark_color(svg::Color("#1c1e24"))
            .light_color(svg::Color("#ffffff"))
            .build(),
    )
}

/// The handler.
pub async fn invitation_qr(State(app): State<Arc<App>>, request: Request) -> Response {
    let link = request
        .uri()
        .query()
        .and_then(|q| q.split('&').find_map(|pair| pair.strip_prefix("text=")))
        .and_then(percent_decode)
        .filter(|link| is_invitation(link));
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok());
    if link
        .as_deref()
        .is_some_and(|link| !leads_here(link, host, |a| app.hosts.named(a), &app.allowed_origins))
    {
        return (
            StatusCode::FORBIDDEN,
            "qr.svg draws invitation links to this site only\n",
        )
            .into_response();
    }
    match link.as_deref().and_then(svg_of) {
        Some(svg) => (
            [
                (header::CONTENT_TYPE, "image/svg+xml"),
                // The same link always draws the same code.
                (header::CACHE_CONTROL, "public, max-age=86400"),
            ],
            svg,
        )
            .into_response(),
        None => (
            StatusCode::BAD_REQUEST,
            "qr.svg draws invitation links only\n",
        )
            .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_invitation_links_only() {
        assert!(is_invitation("http://127.0.0.1:8000/?room=abc123"));
        assert!(is_invitation("https://example.org/uttt/?x=1&room=k3v9"));
        for bad in [
            "ftp://x/?room=a",
            "http://x/",
            "http://x/?room=",
            "http://x/?room=a b",
            "javascript:alert(1)?room=a",
            &format!("http://x/?room=a&{}", "p".repeat(400)),
        ] {
            assert!(!is_invitation(bad), "{bad}");
        }
        let svg = svg_of("http://127.0.0.1:8000/?room=abc123").unwrap();
        assert!(svg.contains("<svg") && svg.contains("#1c1e24"));
    }

    #[test]
    fn draws_links_to_this_site_and_allowed_origins_only() {
        let allowed = vec!["https://uttt.example".to_string()];
        let here = Some("127.0.0.1:8000");
        for good in [
            "http://127.0.0.1:8000/?room=abc",
            "https://127.0.0.1:8000/uttt/?room=abc",
            "https://UTTT.example/?room=abc",
            "https://uttt.example?room=abc",
        ] {
            assert!(leads_here(good, here, |_| false, &allowed), "{good}");
        }
        for bad in [
            "http://evil.example/?room=abc",
            "http://127.0.0.1:8001/?room=abc",
            "http://127.0.0.1:8000@evil.example/?room=abc",
            "http://127.0.0.1:8000.evil.example/?room=abc",
            "http://uttt.example/?room=abc",
            "https://uttt.example.evil/?room=abc",
            "https://uttt.example:444/?room=abc",
        ] {
            assert!(!leads_here(bad, here, |_| false, &allowed), "{bad}");
        }
        assert!(!leads_here("http://x/?room=a", None, |_| false, &[]));
        assert!(!leads_here("http:///?room=a", Some(""), |_| false, &[]));
        // Behind a proxy that passes on its own Host: the named public host.
        let public = |a: &str| a == "play.example.org";
        let proxied = Some("127.0.0.1:8000");
        assert!(leads_here(
            "https://play.example.org/?room=a",
            proxied,
            public,
            &[]
        ));
        assert!(!leads_here(
            "https://evil.example/?room=a",
            proxied,
            public,
            &[]
        ));
    }
}
