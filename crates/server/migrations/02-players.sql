-- Players, their sessions and ratings, and the archive of online games.

-- A player exists from their first online action. Names are unique
-- whatever their case. A deleted player keeps the row (games refer to it)
-- with an anonymous name and nothing personal.
CREATE TABLE players (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
    created_ms  INTEGER NOT NULL,
    renamed_ms  INTEGER,
    password    TEXT,
    deleted_ms  INTEGER
) STRICT;

-- A signed-in browser. The cookie holds a secret; only its SHA-256 is
-- kept, so the file alone signs nobody in.
CREATE TABLE sessions (
    id          TEXT PRIMARY KEY,
    player      INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    csrf        TEXT NOT NULL,
    created_ms  INTEGER NOT NULL,
    seen_ms     INTEGER NOT NULL,
    agent       TEXT NOT NULL
) STRICT;
CREATE INDEX sessions_player ON sessions (player);

-- One rating per player and performance (rating.rs).
CREATE TABLE ratings (
    player      INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    perf        TEXT NOT NULL,
    rating      REAL NOT NULL,
    rd          REAL NOT NULL,
    volatility  REAL NOT NULL,
    games       INTEGER NOT NULL,
    last_ms     INTEGER,
    PRIMARY KEY (player, perf)
) STRICT;
CREATE INDEX ratings_board ON ratings (perf, rating);

-- Every online game that ended, rated or not, with the players' ratings
-- before and after (null when unrated or the seat had no player).
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    room        TEXT NOT NULL,
    game_number INTEGER NOT NULL,
    perf        TEXT NOT NULL,
    rated       INTEGER NOT NULL,
    x           INTEGER REFERENCES players (id),
    o           INTEGER REFERENCES players (id),
    record      TEXT NOT NULL,
    result      TEXT NOT NULL,
    clock       TEXT,
    x_before    REAL,
    x_after     REAL,
    o_before    REAL,
    o_after     REAL,
    ended_ms    INTEGER NOT NULL,
    UNIQUE (room, game_number)
) STRICT;
CREATE INDEX games_x ON games (x, ended_ms);
CREATE INDEX games_o ON games (o, ended_ms);

-- Each rated game's new rating, for the graphs.
CREATE TABLE rating_history (
    player      INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    perf        TEXT NOT NULL,
    game        INTEGER NOT NULL REFERENCES games (id),
    rating      REAL NOT NULL,
    rd          REAL NOT NULL,
    at_ms       INTEGER NOT NULL
) STRICT;
CREATE INDEX rating_history_player ON rating_history (player, perf, at_ms);

-- Which player holds each seat of a room, and whether its games are rated.
ALTER TABLE rooms ADD COLUMN player0 INTEGER REFERENCES players (id);
ALTER TABLE rooms ADD COLUMN player1 INTEGER REFERENCES players (id);
ALTER TABLE rooms ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
