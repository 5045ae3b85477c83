-- Passkeys: the WebAuthn credentials a player signs in with on another
-- device. `passkey` is webauthn-rs's `Passkey` as JSON (the public key and
-- the signature counter, which each use updates); a credential belongs to
-- one player only. A player's password, when they set one, is the
-- Argon2id PHC string in players.password.
CREATE TABLE passkeys (
    id          INTEGER PRIMARY KEY,
    player      INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    credential  TEXT NOT NULL UNIQUE,
    passkey     TEXT NOT NULL,
    label       TEXT NOT NULL,
    created_ms  INTEGER NOT NULL,
    used_ms     INTEGER
) STRICT;
CREATE INDEX passkeys_player ON passkeys (player);
