//! The browser half of `cargo xtask bench`: perft and the fixed search
//! benchmark of `uttt bench`, running the same core code as the native CLI
//! so that the two speeds can be compared. Only the benchmark page
//! (tests/bench/) calls these; the game does not.
//!
//! Timing is done by the caller with `performance.now()`: the core has no
//! clock, and timing in JavaScript measures what a page would see.

use uttt_core::perft::perft;
use uttt_core::search::{bench, Engine};
use uttt_core::{Classic, Rules, Ultimate};
use wasm_bindgen::prelude::*;

use crate::args;
use crate::error::ApiError;

/// The deepest perft accepted: the longest possible game.
const MAX_PERFT_DEPTH: u32 = 81;
/// The deepest fixed-depth search accepted (as `uttt bench --depth`).
const MAX_SEARCH_DEPTH: u32 = 60;
/// The most bench positions accepted (as `uttt bench --positions`).
const MAX_POSITIONS: u32 = 1000;
/// The largest table accepted, in MiB: well inside the 4 GiB address space
/// of wasm32, so a large request fails here with a message rather than as
/// an allocation trap.
const MAX_TABLE_MIB: u32 = 1024;

/// The number of leaves `depth` plies from the start of `kind` (`ultimate`
/// or `classic`, standard rules), counted with the core's bulk perft.
///
/// # Errors
/// `bad-argument` for an unknown kind or a depth that is not a whole number
/// from 0 to 81.
pub fn perft_leaves(kind: &str, depth: Option<f64>) -> Result<u64, ApiError> {
    let depth = args::index(depth, "depth", MAX_PERFT_DEPTH)?;
    match kind {
        "ultimate" => Ok(perft(&Ultimate::new(Rules::Standard), depth)),
        "classic" => Ok(perft(&Classic::new(), depth)),
        _ => Err(ApiError::bad_argument(format!(
            "unknown game type '{kind}': expected ultimate or classic"
        ))),
    }
}

/// `perftCount(kind, depth)`: see [`perft_leaves`]. The count is returned
/// as a number, exact below 2^53 (perft 8 of Ultimate is about 2^28).
///
/// # Errors
/// Throws `bad-argument`.
#[wasm_bindgen(js_name = perftCount)]
pub fn perft_count(kind: JsValue, depth: JsValue) -> Result<f64, JsValue> {
    let kind = args::text(kind.as_string(), "game type").map_err(ApiError::into_js)?;
    perft_leaves(&kind, depth.as_f64())
        .map(|n| n as f64)
        .map_err(ApiError::into_js)
}

/// The search benchmark of `uttt bench`: the same positions and engine
/// settings ([`uttt_core::search::bench`]). Each position is run as
/// `prepare(i)` (clears the table, untimed, as natively) then `search(i)`
/// (the part to time), so the browser's figure measures what the native one
/// does.
#[wasm_bindgen]
pub struct SearchBench {
    engine: Engine,
    positions: Vec<Ultimate>,
}

/// The Rust side, usable without a JavaScript host.
impl SearchBench {
    /// A benchmark of `positions` positions searched to `depth` with a
    /// table of `table_mib` MiB; `None` takes `uttt bench`'s default.
    ///
    /// # Errors
    /// `bad-argument` for a value that is not a whole number in range
    /// (depth 1-60, positions 1-1000, table 1-1024 MiB).
    pub fn create(
        depth: Option<f64>,
        positions: Option<f64>,
        table_mib: Option<f64>,
    ) -> Result<SearchBench, ApiError> {
        let depth = in_range(depth, "depth", 1, MAX_SEARCH_DEPTH)?.unwrap_or(bench::DEPTH);
        let count = in_range(positions, "positions", 1, MAX_POSITIONS)?
            .map_or(bench::POSITIONS, |n| n as usize);
        let table_mib = in_range(table_mib, "table size in MiB", 1, MAX_TABLE_MIB)?
            .map_or(bench::TABLE_MIB, |n| n as usize);
        Ok(SearchBench {
            engine: bench::engine(depth, table_mib),
            positions: bench::positions(count),
        })
    }

    /// Clears the engine's table and history before position `index`.
    ///
    /// # Errors
    /// `bad-argument` for an index out of range.
    pub fn try_prepare(&mut self, index: Option<f64>) -> Result<(), ApiError> {
        self.position(index)?;
        self.engine.new_game();
        Ok(())
    }

    /// Searches position `index` to the fixed depth; returns the nodes.
    ///
    /// # Errors
    /// `bad-argument` for an index out of range.
    pub fn try_search(&mut self, index: Option<f64>) -> Result<u64, ApiError> {
        let pos = self.position(index)?;
        // Bench positions are open games, so a move is always found.
        Ok(self
            .engine
            .choose_within_limits(&pos)
            .map_or(0, |r| r.nodes))
    }

    fn position(&self, index: Option<f64>) -> Result<Ultimate, ApiError> {
        let last = u32::try_from(self.positions.len().saturating_sub(1)).unwrap_or(u32::MAX);
        let i = args::index(index, "position index", last)?;
        Ok(self.positions[i as usize])
    }
}

#[wasm_bindgen]
impl SearchBench {
    /// `new SearchBench(depth, positions, tableMib)`; `undefined` for any of
    /// them takes `uttt bench`'s default (depth 10, 16 positions, 16 MiB).
    ///
    /// # Errors
    /// Throws `bad-argument`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        depth: JsValue,
        positions: JsValue,
        table_mib: JsValue,
    ) -> Result<SearchBench, JsValue> {
        let read = |v: &JsValue| {
            if v.is_undefined() {
                None
            } else {
                Some(v.as_f64())
            }
        };
        let unset_or_number = |v: &JsValue, what: &str| match read(v) {
            Some(None) => Err(ApiError::bad_argument(format!("{what} must be a number")).into_js()),
            other => Ok(other.flatten()),
        };
        SearchBench::create(
            unset_or_number(&depth, "depth")?,
            unset_or_number(&positions, "positions")?,
            unset_or_number(&table_mib, "table size in MiB")?,
        )
        .map_err(ApiError::into_js)
    }

    /// How many positions the benchmark has.
    #[wasm_bindgen(getter)]
    pub fn count(&self) -> u32 {
        u32::try_from(self.positions.len()).unwrap_or(u32::MAX)
    }

    /// Clears the table before position `index` (do not time this).
    ///
    /// # Errors
    /// Throws `bad-argument` for an index out of range.
    pub fn prepare(&mut self, index: JsValue) -> Result<(), JsValue> {
        self.try_prepare(index.as_f64()).map_err(ApiError::into_js)
    }

    /// Searches position `index` and returns the number of nodes (exact:
    /// far below 2^53).
    ///
    /// # Errors
    /// Throws `bad-argument` for an index out of range.
    pub fn search(&mut self, index: JsValue) -> Result<f64, JsValue> {
        self.try_search(index.as_f64())
            .map(|n| n as f64)
            .map_err(ApiError::into_js)
    }
}

/// A whole number from `min` to `max`, or `None` when not given.
fn in_range(value: Option<f64>, what: &str, min: u32, max: u32) -> Result<Option<u32>, ApiError> {
    match value {
        None => Ok(None),
        Some(_) => {
            let n = args::index(value, what, max)?;
            if n < min {
                return Err(ApiError::bad_argument(format!(
                    "{what} must be a whole number from {min} to {max}, not {n}"
                )));
            }
            Ok(Some(n))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    #[test]
    fn perft_counts_both_games_and_refuses_bad_input() {
        assert_eq!(perft_leaves("ultimate", Some(2.0)), Ok(720));
        assert_eq!(perft_leaves("classic", Some(9.0)), Ok(127_872));
        assert_eq!(
            perft_leaves("chess", Some(1.0)).unwrap_err().code,
            ErrorCode::BadArgument
        );
        for bad in [None, Some(-1.0), Some(1.5), Some(82.0)] {
            assert!(perft_leaves("ultimate", bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn search_bench_is_repeatable_and_checks_its_arguments() {
        let mut a = SearchBench::create(Some(3.0), Some(2.0), Some(1.0)).unwrap();
        let mut b = SearchBench::create(Some(3.0), Some(2.0), Some(1.0)).unwrap();
        for i in [0.0, 1.0] {
            a.try_prepare(Some(i)).unwrap();
            b.try_prepare(Some(i)).unwrap();
            let nodes = a.try_search(Some(i)).unwrap();
            assert!(nodes > 0);
            assert_eq!(b.try_search(Some(i)), Ok(nodes));
        }
        assert!(a.try_search(Some(2.0)).is_err());
        assert!(a.try_prepare(None).is_err());
        assert!(SearchBench::create(Some(0.0), None, None).is_err());
        assert!(SearchBench::create(None, None, Some(1025.0)).is_err());
        assert_eq!(SearchBench::create(None, None, None).unwrap().count(), 16);
    }
}
