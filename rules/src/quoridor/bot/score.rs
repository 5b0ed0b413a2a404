//! The search's score scale, apart from the search: the transposition
//! table reads a stored win's distance by it too, and must not import the
//! search that uses the table.

/// A score beyond any evaluation.
pub const INF: i32 = 1_000_000;
/// The score of a win at the root; a win `p` plies away scores `WIN - p`.
pub const WIN: i32 = 100_000;
/// Scores at least this large (in absolute value) are forced results.
pub const WIN_BOUND: i32 = WIN - 1_000;
