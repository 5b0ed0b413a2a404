-- A room made for players who found each other (quick pairing, a
-- challenge): they sit from the start, and its first game starts by
-- itself once all of them are online. 1 until that game starts.
ALTER TABLE rooms ADD COLUMN start_when_seated BIGINT NOT NULL DEFAULT 0;
