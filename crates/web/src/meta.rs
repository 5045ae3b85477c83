//! Small facts the page needs from the core: the version.

use wasm_bindgen::prelude::*;

/// The version of this crate, shown in the page's footer and stored with
/// saved games.
#[wasm_bindgen(js_name = apiVersion)]
#[must_use]
pub fn api_version() -> String {
    env!("CARGO_PKG_VERSION").into()
}
