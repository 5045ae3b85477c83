-- Conditional moves (docs/protocol.md, "Conditional moves"): each seat's
-- lines, as the protocol writes them (JSON), while it has any.
ALTER TABLE rooms ADD COLUMN conditional0 TEXT;
ALTER TABLE rooms ADD COLUMN conditional1 TEXT;
