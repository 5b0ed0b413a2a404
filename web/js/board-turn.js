// Who the viewer is on a board and whose turn it is, from a match as the
// server sends it and the snapshot's `you`: the part of deriveState that
// CrossyRay's and Jungle's state modules share (pure, no DOM). A `past`
// match (a position the room page looks back to) is nobody's turn.

/** {outcome, players, mySide, toMove, myTurn, lastMove} of `match` as `you` see it. */
export function seatAndTurn(match, you) {
  const s = match.state ?? {};
  const outcome = match.outcome ?? s.outcome ?? null;
  const players = match.players ?? [];
  const mySideIdx = players.findIndex((p) => p && you && p.member === you.member);
  const mySide = mySideIdx >= 0 ? mySideIdx : null;
  const toMove = outcome ? null : (s.to_move ?? null);
  const myTurn = !match.preview && !match.past && toMove != null && mySide === toMove;
  const lastMove = s.last_move ?? (match.moves?.length ? match.moves[match.moves.length - 1] : null);
  return { outcome, players, mySide, toMove, myTurn, lastMove };
}
