-- Chat lines a player reported, kept with their game for the moderators:
-- the room and game, the game's record when reported, the line's number
-- in the room's chat, the line as said (`said`: a preset's name in JSON,
-- or the typed words), who said it (`side` in the players' chat, `name`
-- when signed in) and who reported it.
CREATE TABLE chat_reports (
    id          INTEGER PRIMARY KEY,
    room        TEXT NOT NULL,
    game_number INTEGER NOT NULL,
    record      TEXT NOT NULL,
    line        INTEGER NOT NULL,
    channel     TEXT NOT NULL,
    side        TEXT,
    name        TEXT,
    said        TEXT NOT NULL,
    said_ms     INTEGER NOT NULL,
    reporter    INTEGER REFERENCES players (id) ON DELETE SET NULL,
    reported_ms INTEGER NOT NULL
) STRICT;
