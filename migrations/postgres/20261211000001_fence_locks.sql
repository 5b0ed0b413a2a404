-- The fence check without row locks. `check_fences` locked every lease
-- row of a batch FOR UPDATE: a row lock is written into the row itself,
-- so each batch wrote a WAL record and dirtied a page per room, and the
-- lease renewal waited for the batch under way and the next batch for
-- the renewal (BENCHMARKS.md, "PostgreSQL: fences without row locks").
--
-- Now the check holds transaction-level advisory locks, which live in
-- the server's memory only: a shared lock for each room's bucket (the
-- room code's hash, 256 buckets, so a batch takes at most 256 locks) in
-- bucket order, then it compares the tokens. A room's token changes only
-- under the exclusive lock of its bucket, taken by the trigger below in
-- the transaction that changes it, whichever node's code does so: a
-- takeover waits for the batches under way on that bucket and is then
-- read by them; a batch that comes after it waits for its commit, then
-- reads the new token and fails. Shared locks do not wait for each
-- other, and a transaction that changes a token takes one bucket's lock
-- and waits for nothing else while holding it, so none of this can
-- deadlock. Renewing or releasing a lease leaves the token alone and
-- takes no lock. The lock's first key, 0x66656e63 ("fenc"), keeps these
-- apart from the other advisory locks (the migrations' lock).
CREATE FUNCTION fence_bucket(code TEXT) RETURNS INT
LANGUAGE sql IMMUTABLE AS $$ SELECT hashtext(code) & 255 $$;

CREATE OR REPLACE FUNCTION check_fences(codes TEXT[], tokens BIGINT[]) RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
    stale TEXT;
BEGIN
    PERFORM pg_advisory_xact_lock_shared(1717923427, b)
        FROM (SELECT DISTINCT fence_bucket(c) AS b FROM UNNEST(codes) AS c ORDER BY 1) AS buckets;
    SELECT f.code INTO stale
        FROM UNNEST(codes, tokens) AS f (code, token)
        LEFT JOIN room_leases l ON l.room_code = f.code
        WHERE l.token IS DISTINCT FROM f.token
        ORDER BY f.code LIMIT 1;
    IF stale IS NOT NULL THEN
        RAISE EXCEPTION 'this node no longer owns room %', stale
            USING ERRCODE = 'FENCE', DETAIL = stale;
    END IF;
END
$$;

CREATE FUNCTION lock_fence_bucket() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' OR NEW.token IS DISTINCT FROM OLD.token
       OR NEW.room_code IS DISTINCT FROM OLD.room_code THEN
        PERFORM pg_advisory_xact_lock(1717923427, fence_bucket(NEW.room_code));
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER room_leases_token_lock
    BEFORE INSERT OR UPDATE ON room_leases
    FOR EACH ROW EXECUTE FUNCTION lock_fence_bucket();
