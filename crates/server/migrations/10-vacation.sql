-- Vacation (docs/protocol.md, "Vacation"): a player's days of vacation in
-- the calendar year (UTC) `vacation_year`, used or taken, and when the
-- one they are on ends. A room keeps which of its seats' players is on
-- vacation until when: their correspondence clock stands still till then.
ALTER TABLE players ADD COLUMN vacation_year INTEGER;
ALTER TABLE players ADD COLUMN vacation_days INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN vacation_until_ms INTEGER;
ALTER TABLE rooms ADD COLUMN vacation0_ms INTEGER;
ALTER TABLE rooms ADD COLUMN vacation1_ms INTEGER;
