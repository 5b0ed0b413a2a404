-- The group-commit writer's fence check (server/src/store/pg.rs), as one
-- statement that fails its transaction: the writer sends BEGIN, this
-- check, the batch's writes and COMMIT without waiting for any answer in
-- between, so a stale owner must be refused by the database itself (an
-- error aborts the transaction, and the COMMIT after it rolls back).
--
-- codes[i] is written by the holder of token tokens[i]. The lease rows
-- are locked in room-code order (the lease renewal's order, so the two
-- never deadlock) until the transaction ends; a node taking a room over
-- waits for this write and then reads it. A room whose lease is not
-- tokens[i] (taken by another node since, or never taken) fails the
-- check with SQLSTATE 'FENCE' and the room's code as its detail.
CREATE FUNCTION check_fences(codes TEXT[], tokens BIGINT[]) RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
    stale TEXT;
BEGIN
    PERFORM 1 FROM room_leases WHERE room_code = ANY (codes)
        ORDER BY room_code FOR UPDATE;
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
