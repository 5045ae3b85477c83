//! The loop in the browser's dedicated worker: messages in, [`Worker`]
//! requests, slices of work between them, replies out.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::convert::to_js;
use crate::error::{ApiError, ErrorCode};

use super::handler::Worker;
use super::jobs::Timing;
use super::messages::{read_request, Reply};

/// Posts `reply` to the page. A reply that cannot be posted has nowhere to
/// go: the page's deadline for it notices instead.
fn post_to(scope: &web_sys::DedicatedWorkerGlobalScope, reply: &Reply) {
    if let Ok(value) = to_js(reply) {
        let _ = scope.post_message(&value);
    }
}

/// A seed from the browser's cryptographic random numbers, so two tabs
/// never play the same game; the clock's milliseconds if they are refused.
fn random_seed(scope: &web_sys::DedicatedWorkerGlobalScope) -> u64 {
    let mut bytes = [0u8; 8];
    let filled = scope
        .crypto()
        .and_then(|c| c.get_random_values_with_u8_array(&mut bytes).map(|_| ()))
        .is_ok();
    if filled {
        u64::from_le_bytes(bytes)
    } else {
        // Milliseconds since 1970 fit a u64 with room to spare.
        js_sys::Date::now() as u64
    }
}

/// `runWorker(early)`: starts the loop in this worker. `early` holds the
/// messages that arrived while the wasm loaded, answered first, in order.
///
/// Between slices of a search the worker returns to its event loop by
/// posting itself a message on a `MessageChannel` (a timer would be held
/// back to 4 ms after a few in a row), so requests from the page, queued
/// meanwhile, are taken in their turn.
///
/// # Errors
/// Throws when not called inside a dedicated worker, or when the browser
/// refuses a `MessageChannel`.
#[wasm_bindgen(js_name = runWorker)]
pub fn run_worker(early: js_sys::Array) -> Result<(), JsValue> {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().dyn_into().map_err(|_| {
        ApiError::new(
            ErrorCode::BadArgument,
            "runWorker runs only in a dedicated worker",
        )
        .into_js()
    })?;
    let channel = web_sys::MessageChannel::new()?;
    let seed_scope = scope.clone();
    let worker = Rc::new(RefCell::new(Worker::new(
        Box::new(move || random_seed(&seed_scope)),
        Timing::BROWSER,
    )));
    // True while a wake-up message is on its way: one at a time.
    let waking = Rc::new(Cell::new(false));
    let wake = {
        let (port, waking) = (channel.port2(), waking.clone());
        move || {
            if !waking.replace(true) {
                // A port that cannot post leaves the search where it is: the
                // page's deadline notices and replaces the worker.
                let _ = port.post_message(&JsValue::NULL);
            }
        }
    };
    let mut post = {
        let scope = scope.clone();
        move |reply: Reply| post_to(&scope, &reply)
    };
    let mut answer = {
        let (worker, wake, mut post) = (worker.clone(), wake.clone(), post.clone());
        move |data: &JsValue| {
            match read_request(data) {
                Err(refusal) => post(refusal),
                // Each message and each slice is a task of its own, so the
                // worker is never borrowed twice; the check only keeps a
                // broken promise from panicking.
                Ok(request) => match worker.try_borrow_mut() {
                    Ok(mut w) => {
                        w.handle(request, &js_sys::Date::now, &mut post);
                        if w.busy() {
                            wake();
                        }
                    }
                    Err(_) => post(Reply::error(
                        None,
                        ApiError::new(ErrorCode::Crash, "the worker is busy"),
                    )),
                },
            }
        }
    };
    let slice =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |_: web_sys::MessageEvent| {
            waking.set(false);
            let more = worker
                .try_borrow_mut()
                .is_ok_and(|mut w| w.work(&js_sys::Date::now, &mut post));
            if more {
                wake();
            }
        });
    channel
        .port1()
        .set_onmessage(Some(slice.as_ref().unchecked_ref()));
    post_to(&scope, &Reply::Ready);
    for data in early.iter() {
        answer(&data);
    }
    let onmessage =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            answer(&event.data());
        });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    // The handlers live as long as the worker does.
    onmessage.forget();
    slice.forget();
    Ok(())
}
