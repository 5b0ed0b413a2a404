//! The search's score scale, apart from the search: the transposition
//! table reads a stored win's distance by it too, and must not import the
//! search that uses the table.

/// A score beyond any evaluation.
pub const INF: i32 = 1_000_000;
/// The score of a win at the root; a win `p` plies away scores `WIN - p`.
pub const WIN: i32 = 100_000;
/// Scores at least this large (in absolute value) are forced results.
pub const WIN_BOUND: i32 = WIN - 1_000;

/// A score found at a node `ply` layers below the root, as the root sees
/// it: a forced result (a win's or a loss's distance counted from that
/// node) is `ply` layers farther; any other score is the same.
pub(super) fn from_node(score: i32, ply: i32) -> i32 {
    match score {
        s if s >= WIN_BOUND => s - ply,
        s if s <= -WIN_BOUND => s + ply,
        s => s,
    }
}

/// The reverse of [`from_node`]: a score seen from the root, as counted
/// from a node `ply` layers below it.
pub(super) fn to_node(score: i32, ply: i32) -> i32 {
    from_node(score, -ply)
}
