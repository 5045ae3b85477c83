-- The rooms, as the servers before versioned migrations made them (hence
-- IF NOT EXISTS: their files already hold these tables).
CREATE TABLE IF NOT EXISTS rooms (
    code        TEXT PRIMARY KEY,
    options     TEXT NOT NULL,
    token0      TEXT NOT NULL,
    token1      TEXT,
    game_number INTEGER NOT NULL,
    x_seat      INTEGER NOT NULL,
    record      TEXT NOT NULL,
    clock_x     INTEGER,
    clock_o     INTEGER,
    result      TEXT,
    draw_offer  TEXT,
    rematch     INTEGER NOT NULL,
    updated_ms  INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS rooms_unfinished ON rooms (code) WHERE result IS NULL;
CREATE TABLE IF NOT EXISTS server (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    started_ms  INTEGER NOT NULL
) STRICT;
