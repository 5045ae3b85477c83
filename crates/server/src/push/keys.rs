//! The server's VAPID key pair (RFC 8292): a P-256 private key made from
//! the operating system's randomness at the first start and kept in the
//! store, since every browser's subscription names its public key.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rusqlite::{Connection, OptionalExtension};
use web_push::{PartialVapidSignatureBuilder, VapidSignatureBuilder};

/// Bytes as base64url without padding, as the Push API writes keys.
#[must_use]
pub fn encode(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The signer of the kept private key (base64url of its 32 bytes).
///
/// # Errors
/// When the kept key is not a P-256 private key.
pub fn signer(private: &str) -> Result<PartialVapidSignatureBuilder, String> {
    VapidSignatureBuilder::from_base64_no_sub(private)
        .map_err(|e| format!("the stored push key cannot be read: {e}"))
}

/// The kept private key; made and kept first if there is none.
///
/// # Errors
/// When the database refused, or there is no randomness.
pub fn load_or_make(connection: &Connection) -> Result<String, String> {
    let kept: Option<String> = connection
        .query_row("SELECT private_key FROM push_key WHERE id = 1", [], |r| {
            r.get(0)
        })
        .optional()
        .map_err(|e| format!("cannot read the push key: {e}"))?;
    if let Some(kept) = kept {
        return Ok(kept);
    }
    let made = make()?;
    connection
        .execute(
            "INSERT INTO push_key (id, private_key) VALUES (1, ?1)",
            [&made],
        )
        .map_err(|e| format!("cannot keep the push key: {e}"))?;
    Ok(made)
}

/// A new private key: 32 random bytes, drawn again in the rare case they
/// are not a scalar of the curve (zero, or not below its order), which
/// the signer refuses.
fn make() -> Result<String, String> {
    loop {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|e| format!("no randomness for the push key: {e}"))?;
        let encoded = encode(&bytes);
        if signer(&encoded).is_ok() {
            return Ok(encoded);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_made_key_is_kept_and_read_back_the_same() {
        let connection = Connection::open_in_memory().unwrap();
        connection
            .execute_batch(
                "CREATE TABLE push_key (id INTEGER PRIMARY KEY, private_key TEXT NOT NULL)",
            )
            .unwrap();
        let made = load_or_make(&connection).unwrap();
        assert_eq!(load_or_make(&connection).unwrap(), made);
        let public = signer(&made).unwrap().get_public_key();
        // An uncompressed P-256 point, as browsers take it.
        assert_eq!((public.len(), public[0]), (65, 4));
    }

    #[test]
    fn a_key_off_the_curve_is_refused() {
        assert!(signer(&encode(&[0; 32])).is_err());
        assert!(signer(&encode(&[0xff; 32])).is_err());
        assert!(signer("not base64!").is_err());
    }
}
