// What the replay tests read off a drawn board and off the server's
// position for the same ply, in one shape per game, so a test can assert
// that the board at move N is the server's position N.
//
// CrossyRay and Jungle compare with the position string (RULES.md §1
// "Position string", §3 "Notation, move lists and positions"); Quoridor,
// which has none, with its state's pawns and walls.

const JUNGLE_LETTERS = 'RCDWPTLE';

/** CrossyRay position string → {cells: {e4: 1, …}, origin}. */
export function crossyRayFromString(text) {
  const [board, origin] = text.split(' ');
  const ranks = board.split('/');
  const cells = {};
  ranks.forEach((row, i) => {
    const rank = ranks.length - i;
    let file = 0;
    for (const token of row.match(/\.|\d+/g) ?? []) {
      if (token !== '.') cells[`${String.fromCharCode(97 + file)}${rank}`] = Number(token);
      file += 1;
    }
  });
  return { cells, origin };
}

/** Jungle position string → {pieces: {a3: '0:8', …}, toMove: 0 | 1}. */
export function jungleFromString(text) {
  const [board, turn] = text.split(' ');
  const pieces = {};
  board.split('/').forEach((row, i) => {
    const rank = 9 - i;
    let file = 0;
    for (const c of row) {
      if (/\d/.test(c)) { file += Number(c); continue; }
      const side = c === c.toUpperCase() ? 0 : 1;
      pieces[`${String.fromCharCode(97 + file)}${rank}`] = `${side}:${JUNGLE_LETTERS.indexOf(c.toUpperCase()) + 1}`;
      file += 1;
    }
  });
  return { pieces, toMove: turn === 'b' ? 0 : 1 };
}

/** Quoridor state → {pawns: {e1: '0', …}, walls: ['e3h', …] sorted}. */
export function quoridorFromState(state) {
  const pawns = {};
  state.pawns.forEach((cell, side) => { if (cell) pawns[cell] = String(side); });
  return { pawns, walls: [...state.walls].sort() };
}

/** The same shape as above, read off the page's drawn board. */
export function boardShape(page, game) {
  return page.evaluate((g) => {
    const b = document.querySelector('[data-testid="board"]');
    if (g === 'crossyray') {
      const cells = {};
      for (const c of b.querySelectorAll('[data-testid^="cell-"]')) {
        if (c.dataset.value !== '0') cells[c.dataset.testid.slice(5)] = Number(c.dataset.value);
      }
      return { cells, origin: b.dataset.origin };
    }
    if (g === 'jungle') {
      const pieces = {};
      for (const s of b.querySelectorAll('[data-piece]')) pieces[s.dataset.square] = s.dataset.piece;
      return { pieces };
    }
    const pawns = {};
    for (const c of b.querySelectorAll('[data-pawn]')) pawns[c.dataset.cell] = c.dataset.pawn;
    const walls = [...b.querySelectorAll('[data-testid^="wall-"]')].map((w) => w.dataset.wall).sort();
    return { pawns, walls };
  }, game);
}

/** The server's position `state` in boardShape's shape. */
export function serverShape(game, state) {
  if (game === 'crossyray') return crossyRayFromString(state.position);
  if (game === 'jungle') return { pieces: jungleFromString(state.position).pieces };
  return quoridorFromState(state);
}
