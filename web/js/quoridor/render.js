// Draws a Quoridor board as SVG, from the derived state (state.js) and the
// input's view state only ({cursor, mode, orient, ghost, pending}).
// Nothing here reads the server's messages or handles events.
//
// Rank 1 is at the bottom. Cells are squares with grooves between them;
// walls lie in the grooves. Each pawn's goal edge is a stripe in its
// colour outside the board (the centre cell is ringed in a centre race).

import { t } from '../i18n.js';
import { hintArrow, hintGhost, markBoard, mountSvg, sentences } from '../board-kit.js';
import { cellName, centreCell, colorOf, isWallLegal, parseCell, parseWall, wallName } from './state.js';
import { G, P, PAD, U, geometry, minBoardWidth } from './geometry.js';

const STRIPE = 5;

const esc = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

export function colorName(side) {
  return t(`quoridor.color.${colorOf(side)}`);
}

function wallRect(geo, w, cls, extra = '') {
  const { x, y, o } = w;
  if (o === 'h') {
    return `<rect class="${cls}" ${extra} x="${geo.cx(x)}" y="${geo.iy(y) - G / 2 + 1}" width="${2 * U + G}" height="${G - 2}" rx="3"/>`;
  }
  return `<rect class="${cls}" ${extra} x="${geo.ix(x) - G / 2 + 1}" y="${geo.cy(y + 1)}" width="${G - 2}" height="${2 * U + G}" rx="3"/>`;
}

function drawGoals(state, geo) {
  const out = [];
  const perEdge = {};
  state.goals.forEach((goal, side) => {
    if (!state.pawns[side] && !state.preview) return;
    if (goal === 'centre') return;
    const k = perEdge[goal] ?? 0;
    perEdge[goal] = k + 1;
    const off = PAD - 3 - (k + 1) * (STRIPE + 1);
    const cls = `goal-edge c-${colorOf(side)}`;
    const attrs = `data-testid="goal-${side}" data-goal="${goal}"`;
    if (goal === 'top') out.push(`<rect class="${cls}" ${attrs} x="${PAD}" y="${off}" width="${geo.span}" height="${STRIPE}" rx="2"/>`);
    if (goal === 'bottom') out.push(`<rect class="${cls}" ${attrs} x="${PAD}" y="${geo.vw - off - STRIPE}" width="${geo.span}" height="${STRIPE}" rx="2"/>`);
    if (goal === 'left') out.push(`<rect class="${cls}" ${attrs} x="${off}" y="${PAD}" width="${STRIPE}" height="${geo.span}" rx="2"/>`);
    if (goal === 'right') out.push(`<rect class="${cls}" ${attrs} x="${geo.vw - off - STRIPE}" y="${PAD}" width="${STRIPE}" height="${geo.span}" rx="2"/>`);
  });
  return out.join('');
}

function cellLabel(state, name, pawn, target) {
  const parts = [name];
  if (pawn) parts.push(t('quoridor.pawn', { color: colorName(pawn.side), n: pawn.side + 1 }));
  if (state.goalMode === 'centre' && name === centreCell(state.size)) parts.push(t('quoridor.centre'));
  if (target) parts.push(t('board.legal'));
  return parts.join(', ');
}

function drawCells(state, geo, ui) {
  const out = [];
  const pawnAt = new Map(state.pawns.filter(Boolean).map((p) => [p.cell, p]));
  const centre = state.goalMode === 'centre' ? centreCell(state.size) : null;
  // Hidden only while the keyboard cursor walks the wall crossings.
  const showTargets = !(ui.mode === 'wall' && ui.cursor);
  for (let y = 0; y < state.size; y++) {
    for (let x = 0; x < state.size; x++) {
      const name = cellName(x, y);
      const px = geo.cx(x);
      const py = geo.cy(y);
      const pawn = pawnAt.get(name);
      const target = showTargets && state.pawnTargets.has(name);
      const classes = ['qcell'];
      if (target) classes.push('target');
      if (name === state.lastCell) classes.push('last');
      if (name === centre) classes.push('centre');
      const attrs = [
        `class="${classes.join(' ')}"`,
        `data-testid="cell-${name}"`,
        `data-cell="${name}"`,
        target ? `data-target="${name}"` : '',
        pawn ? `data-pawn="${pawn.side}"` : '',
        name === state.lastCell ? 'data-last="true"' : '',
        `aria-label="${esc(cellLabel(state, name, pawn, target))}"`,
        'role="img"',
      ].filter(Boolean).join(' ');
      // A cell the pawn may reach is hit on its whole cell-and-groove
      // square (half the groove each side: at least 32 px on a phone).
      let inner = target ? `<rect class="hit" data-testid="hit-${name}" x="${px - G / 2}" y="${py - G / 2}" width="${P}" height="${P}"/>` : '';
      inner += `<rect class="sq" x="${px}" y="${py}" width="${U}" height="${U}" rx="3"/>`;
      if (name === centre) inner += `<circle class="centre-mark" cx="${px + U / 2}" cy="${py + U / 2}" r="${U * 0.44}"/>`;
      if (name === state.lastCell) inner += `<rect class="last-mark" x="${px + 2}" y="${py + 2}" width="${U - 4}" height="${U - 4}" rx="3"/>`;
      if (pawn) {
        inner += `<g class="pawn c-${pawn.color}${state.toMove === pawn.side ? ' to-move' : ''}" data-testid="pawn-${pawn.side}">`
          + `<circle class="disc" cx="${px + U / 2}" cy="${py + U / 2}" r="${U * 0.36}"/>`
          + `<text class="num" x="${px + U / 2}" y="${py + U / 2}" dy="0.35em" text-anchor="middle">${pawn.side + 1}</text></g>`;
      }
      if (target) inner += `<circle class="mark dot" cx="${px + U / 2}" cy="${py + U / 2}" r="${U * 0.14}"/>`;
      if (x === 0) inner += `<text class="coord" x="${px + 2}" y="${py + 9}">${y + 1}</text>`;
      if (y === 0) inner += `<text class="coord" x="${px + U - 2}" y="${py + U - 2}" text-anchor="end">${name[0]}</text>`;
      out.push(`<g ${attrs}>${inner}</g>`);
    }
  }
  return out.join('');
}

function drawWalls(state, geo) {
  return state.walls
    .map((w) => wallRect(geo, w, `wall${w.name === state.lastWall ? ' last' : ''}`,
      `data-testid="wall-${w.name}" data-wall="${w.name}"${w.name === state.lastWall ? ' data-last="true"' : ''}`))
    .join('');
}

/** Click targets on the groove intersections, while the viewer may place a wall. */
function drawIntersections(state, geo) {
  if (!state.myTurn || state.myWallsLeft <= 0) return '';
  const out = [];
  for (let y = 0; y < state.size - 1; y++) {
    for (let x = 0; x < state.size - 1; x++) {
      const name = cellName(x, y);
      out.push(`<circle class="qx" data-testid="x-${name}" data-x="${x}" data-y="${y}" cx="${geo.ix(x)}" cy="${geo.iy(y)}" r="${G}"/>`);
    }
  }
  return out.join('');
}

function drawGhost(state, geo, ui) {
  const g = ui.ghost;
  if (!g || !state.myTurn) return '';
  const legal = isWallLegal(state, g.x, g.y, ui.orient);
  const name = wallName(g.x, g.y, ui.orient);
  return wallRect(geo, { x: g.x, y: g.y, o: ui.orient }, `ghost ${legal ? 'legal' : 'illegal'}`,
    `data-testid="ghost" data-wall="${name}" data-legal="${legal}"`);
}

/**
 * The hint (`ui.hint`): a wall as a ghost wall; a step as a ghost pawn of
 * the side to move on its cell, with an arrow from the pawn; a pass as a
 * ring round the pawn.
 */
function drawHint(state, geo, ui) {
  const move = ui.hint;
  if (!move) return '';
  const wall = parseWall(move, state.size);
  if (wall) return hintGhost(move, wallRect(geo, wall, 'hint-wall'));
  const side = state.toMove;
  const pawn = side != null ? state.pawns[side] : null;
  const centre = (c) => ({ x: geo.cx(c.x) + U / 2, y: geo.cy(c.y) + U / 2 });
  if (move === 'pass') {
    if (!pawn) return '';
    const p = centre(pawn);
    return hintGhost(move, `<circle class="hint-ring" cx="${p.x}" cy="${p.y}" r="${U * 0.46}"/>`);
  }
  const cell = parseCell(move, state.size);
  if (!cell) return '';
  const to = centre(cell);
  let inner = `<circle class="hint-pawn${side != null ? ` c-${colorOf(side)}` : ''}" cx="${to.x}" cy="${to.y}" r="${U * 0.36}"/>`;
  if (pawn) inner += hintArrow(centre(pawn), to, { w: 4, inset: U * 0.38 });
  return hintGhost(move, inner);
}

function drawCursor(state, geo, ui) {
  const c = ui.cursor;
  if (!c) return '';
  if (ui.mode === 'wall') {
    return `<circle class="cursor" data-testid="cursor" cx="${geo.ix(c.x)}" cy="${geo.iy(c.y)}" r="${G * 0.9}"/>`;
  }
  return `<rect class="cursor" data-testid="cursor" x="${geo.cx(c.x) + 1.5}" y="${geo.cy(c.y) + 1.5}" width="${U - 3}" height="${U - 3}" rx="4"/>`;
}

/** One-line description of what is under the cursor, for screen readers. */
export function describeCursor(state, ui) {
  const c = ui.cursor;
  if (!state || !c) return '';
  if (ui.mode === 'wall') {
    const name = wallName(c.x, c.y, ui.orient);
    return `${t('quoridor.wall_at', { wall: name })}${isWallLegal(state, c.x, c.y, ui.orient) ? `, ${t('board.legal')}` : ''}`;
  }
  const name = cellName(c.x, c.y);
  const pawn = state.pawns.find((p) => p && p.cell === name);
  return cellLabel(state, name, pawn, state.pawnTargets.has(name));
}

function renderTools(el, state, ui) {
  const tools = el.querySelector('.q-tools');
  const orient = tools.querySelector('[data-testid="q-orient"]');
  const pass = tools.querySelector('[data-testid="q-pass"]');
  const left = tools.querySelector('[data-testid="q-walls-left"]');
  tools.hidden = state.preview || state.mySide == null || state.over;
  orient.textContent = t(ui.orient === 'h' ? 'quoridor.wall_h' : 'quoridor.wall_v');
  orient.dataset.orient = ui.orient;
  orient.setAttribute('aria-pressed', String(ui.mode === 'wall'));
  orient.disabled = !state.myTurn || state.myWallsLeft <= 0;
  pass.textContent = t('quoridor.pass');
  pass.hidden = !state.canPass;
  pass.disabled = !!ui.pending;
  left.textContent = t('quoridor.walls_left', { n: state.myWallsLeft });
}

/**
 * Draw `state` (from deriveState) with view state `ui` into `el`, a
 * container made by mountBoard(). Also mirrors a few facts as data-*
 * attributes on the container for tools and tests.
 */
export function render(el, state, ui) {
  const svg = el.querySelector('svg.q-board');
  if (!state) {
    svg.innerHTML = '';
    return;
  }
  const geo = geometry(state.size);
  svg.setAttribute('viewBox', `0 0 ${geo.vw} ${geo.vw}`);
  el.style.setProperty('--q-min-width', `${minBoardWidth(state.size)}px`);
  svg.innerHTML = `<rect class="frame" x="${PAD - 3}" y="${PAD - 3}" width="${geo.span + 6}" height="${geo.span + 6}" rx="5"/>`
    + drawGoals(state, geo) + drawCells(state, geo, ui) + drawWalls(state, geo)
    + drawIntersections(state, geo) + drawGhost(state, geo, ui) + drawHint(state, geo, ui) + drawCursor(state, geo, ui);
  renderTools(el, state, ui);

  const turn = state.over ? '' : state.myTurn ? t('game.your_turn') : '';
  el.dataset.game = 'quoridor';
  el.dataset.mode = ui.mode;
  el.dataset.orient = ui.orient;
  markBoard(el, state, ui, sentences(t('quoridor.label'), turn, t('quoridor.help')), describeCursor(state, ui));
}

/** Build the container's fixed children once: the SVG, the tools, a live region. */
export function mountBoard(el) {
  mountSvg(el, 'qd', 'q-board', '<div class="q-tools" hidden>'
    + '<button type="button" class="small" data-testid="q-orient" data-action="orient"></button>'
    + '<button type="button" class="small" data-testid="q-pass" data-action="pass" hidden></button>'
    + '<span class="q-walls" data-testid="q-walls-left"></span>'
    + '</div>');
}
