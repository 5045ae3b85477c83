-- Each rated game's ratings before it, whole, so a game's end that is
-- taken back (a change its mover never heard of) gives them back exactly.
ALTER TABLE rating_history ADD COLUMN rating_before REAL;
ALTER TABLE rating_history ADD COLUMN rd_before REAL;
ALTER TABLE rating_history ADD COLUMN volatility_before REAL;
ALTER TABLE rating_history ADD COLUMN games_before INTEGER;
ALTER TABLE rating_history ADD COLUMN last_ms_before INTEGER;

-- Whether a room is rated is one of its options (the `options` column);
-- the column beside it was a second owner of that fact.
ALTER TABLE rooms DROP COLUMN rated;
