-- Correspondence games (days per move): when the side to move runs out of
-- its days by the wall clock (ms since the Unix epoch), while the game is
-- in play; the server looks for games past it that are not in memory.
-- A player's unfinished games (the "Your move" list) are found by seat.
ALTER TABLE rooms ADD COLUMN deadline_ms INTEGER;
CREATE INDEX rooms_deadline ON rooms (deadline_ms) WHERE deadline_ms IS NOT NULL;
CREATE INDEX rooms_player0 ON rooms (player0) WHERE result IS NULL AND player0 IS NOT NULL;
CREATE INDEX rooms_player1 ON rooms (player1) WHERE result IS NULL AND player1 IS NOT NULL;
