// The Quoridor board's geometry in SVG user units: where cells, grooves
// and groove crossings are, and which crossing a tap is nearest to. Pure
// (no DOM, no words), shared by the drawing and the input.

export const U = 36; // a cell, in SVG user units
export const G = 10; // a groove
export const P = U + G; // from one cell to the next
export const PAD = 16; // room for the goal stripes

export function geometry(size) {
  const span = size * U + (size - 1) * G;
  return {
    span,
    vw: span + 2 * PAD,
    cx: (x) => PAD + x * P,
    cy: (y) => PAD + (size - 1 - y) * P,
    // The centre of intersection (x, y): the top-right corner of cell (x, y).
    ix: (x) => PAD + x * P + U + G / 2,
    iy: (y) => PAD + (size - 1 - y) * P - G / 2,
  };
}

/**
 * The groove crossing nearest to point (ux, uy) in SVG user units, as
 * {x, y} (x, y in 0..size-2): on a touch screen any tap on the board picks
 * one, so each crossing owns a whole cell-and-groove square (P units) of
 * hit area instead of a small circle.
 */
export function nearestCrossing(size, ux, uy) {
  const clamp = (v) => Math.min(size - 2, Math.max(0, v));
  return {
    x: clamp(Math.round((ux - PAD - U - G / 2) / P)),
    y: clamp(Math.round(size - 1 - (uy - PAD + G / 2) / P)),
  };
}

/**
 * The board's least width in CSS pixels that gives each crossing's hit
 * square at least `px` pixels (the page lets a wider board scroll sideways
 * inside its box on a phone).
 */
export function minBoardWidth(size, px = 32) {
  return Math.ceil(geometry(size).vw * (px / P));
}

