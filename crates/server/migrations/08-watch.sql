-- A player who keeps their games off the Watch page (a setting of
-- theirs; off by default: every game may be watched).
ALTER TABLE players ADD COLUMN hide_games INTEGER NOT NULL DEFAULT 0;
-- The games ended last, for the Watch page.
CREATE INDEX games_ended ON games (ended_ms);
