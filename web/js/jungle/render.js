// Draws a Jungle board as SVG, from the derived state (state.js) and the
// input's view state ({selected, cursor, pending}) only. Nothing here reads
// the server's messages or handles events: redraw is a pure function of
// those two objects.
//
// Blue's rank 1 is at the bottom, except for the Red player, who sees the
// board turned round (rank 9 at the bottom). Rivers are water-blue, traps
// carry a cross-hatched mark in their owner's colour, dens a tent.
//
// Two piece styles (the viewer's choice, cosmetics.js): the emoji animals,
// or drawn pieces that need no emoji font: the animal's short name in the
// side's colour on a disc (Blue) or a rounded square (Red), and a drawn
// flag in the dens.

import { t } from '../i18n.js';
import { clearSvg, fillSvg, hintArrow, hintGhost, markBoard, mountSvg, sentences, turnWords } from '../board-kit.js';
import { pieceStyle } from '../cosmetics.js';
import { ANIMALS, EMOJI, FILES, RANKS, parseMove, parseSquare, toScreen, targetsFrom, squareAt } from './state.js';

const U = 44; // one square, in SVG user units
const PAD = 4;

const esc = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

function sideName(side) {
  return side === 0 ? t('jungle.blue') : t('jungle.red');
}

export function pieceLabel(piece) {
  return t('jungle.piece', { side: sideName(piece.side), animal: t(`animal.${ANIMALS[piece.rank]}`), n: piece.rank });
}

function squareLabel(sq, target) {
  const parts = [sq.name];
  if (sq.kind === 'water') parts.push(t('jungle.water'));
  if (sq.kind === 'trap') parts.push(t('jungle.trap', { side: sideName(sq.owner) }));
  if (sq.kind === 'den') parts.push(t('jungle.den', { side: sideName(sq.owner) }));
  if (sq.piece) parts.push(pieceLabel(sq.piece));
  if (sq.trapped) parts.push(t('jungle.trapped'));
  if (target) parts.push(t('board.legal'));
  return parts.join(', ');
}

/** One-line description of what is under the cursor, for screen readers. */
export function describeCursor(state, ui) {
  if (!state || !ui.cursor) return '';
  const sq = squareAt(state, ui.cursor);
  if (!sq) return '';
  const target = targetsFrom(state, ui.selected).find((x) => x.to === sq.name);
  return squareLabel(sq, target);
}

/** A piece: its disc, its animal (emoji or drawn) and its rank. */
export function drawPiece(p, name, x, y, style) {
  const cx = x + U / 2;
  const cy = y + U / 2;
  const r = U * 0.42;
  let body;
  if (style === 'drawn') {
    const disc = p.side === 0
      ? `<circle class="disc" cx="${cx}" cy="${cy}" r="${r}"/>`
      : `<rect class="disc" x="${cx - r}" y="${cy - r}" width="${2 * r}" height="${2 * r}" rx="7"/>`;
    body = disc + `<text class="glyph" x="${cx}" y="${cy + 2}" dy="0.35em" text-anchor="middle">${esc(t(`animal.short.${ANIMALS[p.rank]}`))}</text>`;
  } else {
    body = `<circle class="disc" cx="${cx}" cy="${cy}" r="${r}"/>`
      + `<text class="animal" x="${cx}" y="${cy + 1}" dy="0.35em" text-anchor="middle">${EMOJI[p.rank]}</text>`;
  }
  return `<g class="piece side-${p.side} ${style}" data-testid="piece-${name}" data-style="${style}">${body}`
    // The rank in the top-right corner, as the Jungle seed shows it.
    + `<text class="rank" x="${x + U - 4}" y="${y + 13}" text-anchor="end">${p.rank}</text>`
    + '</g>';
}

/** An empty den: a tent (emoji) or a drawn flag. */
function drawDen(x, y, style) {
  if (style === 'drawn') {
    return `<path class="den-flag" d="M${x + 15} ${y + 33} V${y + 11} L${x + 31} ${y + 17} L${x + 17} ${y + 23} V${y + 33} Z"/>`;
  }
  return `<text class="den-text" x="${x + U / 2}" y="${y + U / 2}" dy="0.35em" text-anchor="middle">⛺</text>`;
}

function drawSquares(state, ui, style) {
  const targets = new Map(targetsFrom(state, ui.selected).map((x) => [x.to, x]));
  const out = [];
  for (const sq of state.squares) {
    const { col, row } = toScreen(sq.x, sq.y, state.flipped);
    const x = PAD + col * U;
    const y = PAD + row * U;
    const target = targets.get(sq.name);
    const classes = ['jsq', sq.kind, (sq.x + sq.y) % 2 ? 'light' : 'dark'];
    if (sq.owner != null) classes.push(`own-${sq.owner}`);
    if (sq.lastFrom) classes.push('last-from');
    if (sq.lastTo) classes.push('last-to');
    if (sq.movable) classes.push('movable');
    if (ui.selected === sq.name) classes.push('selected');
    if (target) classes.push('target');
    if (sq.trapped) classes.push('trapped');
    const attrs = [
      `class="${classes.join(' ')}"`,
      `data-testid="sq-${sq.name}"`,
      `data-square="${sq.name}"`,
      `data-kind="${sq.kind}"`,
      sq.piece ? `data-piece="${sq.piece.side}:${sq.piece.rank}"` : '',
      sq.movable ? 'data-movable="true"' : '',
      sq.trapped ? 'data-trapped="true"' : '',
      ui.selected === sq.name ? 'data-selected="true"' : '',
      target ? `data-target="${esc(target.move)}"` : '',
      target ? `data-mark="${target.den ? 'den' : target.capture ? 'capture' : 'dot'}"` : '',
      sq.lastFrom || sq.lastTo ? 'data-last="true"' : '',
      `aria-label="${esc(squareLabel(sq, target))}"`,
      'role="img"',
    ].filter(Boolean).join(' ');
    let inner = `<rect class="ground" x="${x}" y="${y}" width="${U}" height="${U}"/>`;
    if (sq.kind === 'water') {
      inner += `<path class="wave" d="M${x + 8} ${y + U * 0.38} q 7 -5 14 0 t 14 0 M${x + 8} ${y + U * 0.66} q 7 -5 14 0 t 14 0"/>`;
    } else if (sq.kind === 'trap') {
      inner += `<path class="trap-mark" d="M${x + 9} ${y + 9} L${x + U - 9} ${y + U - 9} M${x + U - 9} ${y + 9} L${x + 9} ${y + U - 9}"/>`;
      inner += `<rect class="trap-frame" x="${x + 5}" y="${y + 5}" width="${U - 10}" height="${U - 10}" rx="4"/>`;
    } else if (sq.kind === 'den') {
      inner += `<rect class="den-mark" x="${x + 4}" y="${y + 4}" width="${U - 8}" height="${U - 8}" rx="8"/>`;
      if (!sq.piece) inner += drawDen(x, y, style);
    }
    if (sq.lastFrom || sq.lastTo) inner += `<rect class="last-mark" x="${x + 2}" y="${y + 2}" width="${U - 4}" height="${U - 4}" rx="3"/>`;
    if (ui.selected === sq.name) inner += `<rect class="sel-mark" x="${x + 2}" y="${y + 2}" width="${U - 4}" height="${U - 4}" rx="4"/>`;
    if (sq.piece) {
      inner += drawPiece(sq.piece, sq.name, x, y, style);
      // An enemy animal on your trap: a red ring (any of your animals may take it).
      if (sq.trapped) inner += `<circle class="trap-ring" data-testid="trap-ring-${sq.name}" cx="${x + U / 2}" cy="${y + U / 2}" r="${U * 0.46}"/>`;
    }
    if (target) {
      if (target.den) inner += `<circle class="mark ring den" cx="${x + U / 2}" cy="${y + U / 2}" r="${U * 0.4}"/>`;
      else if (target.capture) inner += `<circle class="mark ring capture" cx="${x + U / 2}" cy="${y + U / 2}" r="${U * 0.45}"/>`;
      else inner += `<circle class="mark dot" cx="${x + U / 2}" cy="${y + U / 2}" r="${U * 0.14}"/>`;
    }
    // Coordinates along the viewer's left and bottom edges.
    if (col === 0) inner += `<text class="coord" x="${x + 2}" y="${y + 10}">${sq.y + 1}</text>`;
    if (row === RANKS - 1) inner += `<text class="coord" x="${x + U - 2}" y="${y + U - 2}" text-anchor="end">${sq.name[0]}</text>`;
    out.push(`<g ${attrs}>${inner}</g>`);
  }
  out.push(`<rect class="frame" x="${PAD}" y="${PAD}" width="${FILES * U}" height="${RANKS * U}"/>`);
  return out.join('');
}

function drawCursor(state, ui) {
  const sq = ui.cursor && squareAt(state, ui.cursor);
  if (!sq) return '';
  const { col, row } = toScreen(sq.x, sq.y, state.flipped);
  return `<rect class="cursor" data-testid="cursor" x="${PAD + col * U + 1.5}" y="${PAD + row * U + 1.5}" width="${U - 3}" height="${U - 3}" rx="4"/>`;
}

/**
 * The hint (`ui.hint`): the animal's square and the one it goes to, framed,
 * with an arrow between them, as the viewer sees the board.
 */
function drawHint(state, ui) {
  const move = ui.hint;
  const m = move ? parseMove(move) : null;
  if (!m) return '';
  const [from, to] = [m.from, m.to].map((name) => {
    const sq = parseSquare(name);
    const { col, row } = toScreen(sq.x, sq.y, state.flipped);
    return { x: PAD + col * U, y: PAD + row * U };
  });
  const frame = (p, cls) => `<rect class="${cls}" x="${p.x + 3}" y="${p.y + 3}" width="${U - 6}" height="${U - 6}" rx="5"/>`;
  const c = (p) => ({ x: p.x + U / 2, y: p.y + U / 2 });
  return hintGhost(move, frame(from, 'hint-from') + frame(to, 'hint-target') + hintArrow(c(from), c(to), { inset: U * 0.3 }));
}

/**
 * Draw `state` (from deriveState) with view state `ui` into `el`, a
 * container made by mountBoard(). Also mirrors a few facts as data-*
 * attributes on the container for tools and tests.
 */
export function render(el, state, ui) {
  if (!state) return clearSvg(el, 'jg-board');
  const style = pieceStyle();
  fillSvg(el, 'jg-board', FILES * U + 2 * PAD, RANKS * U + 2 * PAD, drawSquares(state, ui, style) + drawHint(state, ui) + drawCursor(state, ui));

  markBoard(el, state, ui, sentences(t('jungle.label'), turnWords(state), t('jungle.help')), describeCursor(state, ui), {
    game: 'jungle',
    pieces: style,
    flipped: String(state.flipped),
    selected: ui.selected ?? '',
    cursor: ui.cursor ?? '',
  });
}

/** Build the container's fixed children once: the SVG and a live region. */
export function mountBoard(el) {
  mountSvg(el, 'jg', 'jg-board');
}
