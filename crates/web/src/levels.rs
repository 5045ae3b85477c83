//! The AI's levels by name: what the page offers (its module exports the
//! names and thinking times) and what the worker's engine is made at.

use uttt_core::search::Level;

use crate::error::ApiError;

/// The level named `name`.
///
/// # Errors
/// `bad-argument` for an unknown name.
pub fn parse(name: &str) -> Result<Level, ApiError> {
    Level::from_name(name).ok_or_else(|| {
        ApiError::bad_argument(format!(
            "unknown level '{name}': expected one of {}",
            Level::ALL.map(Level::name).join(", ")
        ))
    })
}

#[cfg(feature = "page")]
mod exports {
    use uttt_core::search::Level;
    use wasm_bindgen::prelude::*;

    use crate::args;
    use crate::error::ApiError;

    /// The level names, weakest first: `["beginner", ..., "master"]`.
    #[wasm_bindgen(js_name = levelNames)]
    #[must_use]
    pub fn level_names() -> Vec<String> {
        Level::ALL.iter().map(|l| l.name().to_string()).collect()
    }

    /// The thinking time of the level named `name`, in milliseconds.
    ///
    /// # Errors
    /// Throws `bad-argument` for an unknown level or a non-string.
    #[wasm_bindgen(js_name = levelBudgetMs)]
    pub fn level_budget_ms(name: JsValue) -> Result<u32, JsValue> {
        let name = args::text(name.as_string(), "level").map_err(ApiError::into_js)?;
        let level = super::parse(&name).map_err(ApiError::into_js)?;
        Ok(u32::try_from(level.budget_ms()).unwrap_or(u32::MAX))
    }
}

#[cfg(feature = "page")]
pub use exports::{level_budget_ms, level_names};
