-- The games a browser kept of its own (local games, reviews) that its
-- player attached to the account, to find them in their other browsers.
-- Private: never on a public page (the server did not see them played).
-- `entry` is the page's archive entry as JSON (www/records.js), checked
-- and bounded when stored (players/history.rs); `played_ms` is its date,
-- which decides the newest kept; `stored_ms` when it was last stored,
-- which `GET /api/me/history?since=` reads after.
CREATE TABLE attached_games (
    player      INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    game_id     TEXT NOT NULL,
    entry       TEXT NOT NULL,
    played_ms   INTEGER NOT NULL,
    stored_ms   INTEGER NOT NULL,
    PRIMARY KEY (player, game_id)
) STRICT;
CREATE INDEX attached_games_played ON attached_games (player, played_ms);
CREATE INDEX attached_games_stored ON attached_games (player, stored_ms);
