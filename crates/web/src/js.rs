//! The few JavaScript built-ins the bindings use, imported directly so the
//! crate needs nothing beyond `wasm-bindgen` itself.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// The built-in `Error`, so refused calls throw real `Error` objects.
    #[wasm_bindgen(js_name = Error)]
    pub type ErrorObject;

    /// `new Error(message)`.
    #[wasm_bindgen(constructor, js_class = "Error")]
    pub fn new(message: &str) -> ErrorObject;

    /// Sets `error.name`.
    #[wasm_bindgen(method, setter = name)]
    pub fn set_name(this: &ErrorObject, name: &str);

    /// Sets `error.code`, the stable machine-readable reason.
    #[wasm_bindgen(method, setter = code)]
    pub fn set_code(this: &ErrorObject, code: &str);

    /// Sets `error.at`, the character offset of a parse error.
    #[wasm_bindgen(method, setter = at)]
    pub fn set_at(this: &ErrorObject, at: u32);

    /// Sets `error.ply`, the index of an illegal move in a record.
    #[wasm_bindgen(method, setter = ply)]
    pub fn set_ply(this: &ErrorObject, ply: u32);

    /// Sets `error.reason`, why a move in a record is illegal.
    #[wasm_bindgen(method, setter = reason)]
    pub fn set_reason(this: &ErrorObject, reason: &str);

    /// `Date.now()`: milliseconds since the epoch. Available on the main
    /// thread and in workers alike, unlike `performance` in some hosts.
    #[wasm_bindgen(js_namespace = Date, js_name = now)]
    pub fn date_now() -> f64;

    /// Any JavaScript function used as a callback.
    pub type Callback;

    /// `f.call(undefined, depth, score, mate, pv, nodes)`: one progress
    /// report; `catch` so a throwing callback becomes an `Err`, not a trap.
    #[wasm_bindgen(method, js_name = call, catch)]
    pub fn call_progress(
        this: &Callback,
        context: &JsValue,
        depth: u32,
        score: i32,
        mate: Option<i32>,
        pv: &str,
        nodes: f64,
    ) -> Result<JsValue, JsValue>;
}
