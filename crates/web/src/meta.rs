//! Small facts the page needs from the core: region names and versions.

use uttt_core::notation::REGION_NAMES;
use wasm_bindgen::prelude::*;

/// The names of the nine regions of a 3x3 board in reading order
/// (`"top-left"` ... `"bottom-right"`), for labels and messages.
#[wasm_bindgen(js_name = regionNames)]
#[must_use]
pub fn region_names() -> Vec<String> {
    REGION_NAMES.iter().map(|s| (*s).to_string()).collect()
}

/// The version of this crate, shown in the page's footer and stored with
/// saved games.
#[wasm_bindgen(js_name = apiVersion)]
#[must_use]
pub fn api_version() -> String {
    env!("CARGO_PKG_VERSION").into()
}
