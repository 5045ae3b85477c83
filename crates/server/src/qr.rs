//! `GET qr.svg?text=LINK`: an invitation link as a QR code, so a phone's
//! camera can open it. Only invitation links (`http(s)://...?room=CODE`,
//! at most 300 characters) are drawn: the server is not a QR service.

use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use qrcode::render::svg;
use qrcode::QrCode;

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
pub async fn invitation_qr(request: Request) -> Response {
    let link = request
        .uri()
        .query()
        .and_then(|q| q.split('&').find_map(|pair| pair.strip_prefix("text=")))
        .and_then(percent_decode)
        .filter(|link| is_invitation(link));
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
}
