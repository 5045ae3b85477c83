-- Web Push (push/): the server's VAPID key pair, made at its first start
-- and kept so every subscription stays valid (the private key's 32 bytes,
-- base64url).
CREATE TABLE push_key (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    private_key TEXT NOT NULL
) STRICT;

-- A signed-in browser that turned notifications on: its push service's
-- endpoint and the keys its messages are encrypted for. One a session:
-- signing out, a revoked or forgotten session and a deleted account take
-- it with them.
CREATE TABLE push_subscriptions (
    session     TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    endpoint    TEXT NOT NULL UNIQUE,
    p256dh      TEXT NOT NULL,
    auth        TEXT NOT NULL,
    created_ms  INTEGER NOT NULL
) STRICT;

-- The kinds of notice a player wants (bits: 1 your move, 2 game over,
-- 4 challenge received, 8 time running out); all of them at first.
ALTER TABLE players ADD COLUMN push_kinds INTEGER NOT NULL DEFAULT 15;

-- A correspondence game's reminder: when it is due (before the side to
-- move's deadline), and the deadline the last one was sent for, so each
-- move has one.
ALTER TABLE rooms ADD COLUMN remind_ms INTEGER;
ALTER TABLE rooms ADD COLUMN reminded_ms INTEGER;
CREATE INDEX rooms_remind ON rooms (remind_ms) WHERE remind_ms IS NOT NULL;
-- The games of days in play now are reminded of their current move too.
UPDATE rooms SET remind_ms = deadline_ms - MIN(json_extract(options, '$.days') * 21600000, 86400000)
    WHERE deadline_ms IS NOT NULL AND result IS NULL AND json_extract(options, '$.days') IS NOT NULL;
