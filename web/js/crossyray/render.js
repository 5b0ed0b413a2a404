// Draws a CrossyRay board as SVG, from the derived state (state.js) and the
// input's view state ({cursor, pending}) only. Nothing here reads the
// server's messages or handles events: redraw is a pure function of those
// two objects, so the board can be redrawn at any time.
//
// Rank 1 is at the bottom. The goals are drawn outside the short sides over
// their 3 middle rows (or files), in their defender's colour, labelled.

import { t } from '../i18n.js';
import { shownName } from '../names.js';
import { clearSvg, fillSvg, hintArrow, hintGhost, markBoard, mountSvg, sentences, turnWords } from '../board-kit.js';
import { goalSpan, parseCell, parseGoal } from './state.js';

const U = 40; // one cell, in SVG user units
const G = 30; // depth of a goal
const GAP = 4; // between the board and a goal
const PAD = 4; // outer padding on the other sides
const MIN_CELL_PX = 32; // a cell's least width on a phone, as a Quoridor square's
const FIT_CELL_PX = 30; // a board whose cells are this wide when it fits is not scrolled for a few pixels

const esc = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

function geometry(state) {
  const { width, height, wide } = state;
  const mx = wide ? G + GAP + PAD : PAD;
  const my = wide ? PAD : G + GAP + PAD;
  return {
    mx, my,
    vw: width * U + 2 * mx,
    vh: height * U + 2 * my,
    px: (x) => mx + x * U,
    py: (y) => my + (height - 1 - y) * U,
  };
}

function goalRect(goal, state, geo) {
  const { width, height } = state;
  const span = goalSpan(goal.side, width, height);
  if (goal.side === 'left' || goal.side === 'right') {
    const top = geo.py(span[2]);
    const x = goal.side === 'left' ? geo.mx - GAP - G : geo.mx + width * U + GAP;
    return { x, y: top, w: G, h: 3 * U };
  }
  const left = geo.px(span[0]);
  const y = goal.side === 'top' ? geo.my - GAP - G : geo.my + height * U + GAP;
  return { x: left, y, w: 3 * U, h: G };
}

function truncate(s, n) {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

function goalLabel(goal) {
  return goal.defenderName
    ? t('board.goal', { side: t(`side.${goal.side}`), name: shownName(goal.defenderName) })
    : t('board.goal_side', { side: t(`side.${goal.side}`) });
}

function cellLabel(c, state) {
  let label;
  if (!c.blocked) label = t('board.cell_empty', { cell: c.name });
  else if (c.origin) label = t('board.cell_origin', { cell: c.name, n: c.value });
  else label = t('board.cell_number', { cell: c.name, n: c.value });
  if (c.legal) label += `, ${t('board.legal')}`;
  return label;
}

/** One-line description of what is under the cursor, for screen readers. */
export function describeCursor(state, ui) {
  if (!state || !ui.cursor) return '';
  const { x, y } = ui.cursor;
  const cell = state.cells.find((c) => c.x === x && c.y === y);
  if (cell) return cellLabel(cell, state);
  const goal = state.goals.find((g) => g.move === ui.cursorMove);
  if (!goal) return '';
  const label = goal.mine ? `${goalLabel(goal)}, ${t('board.own_goal')}` : goalLabel(goal);
  return goal.legal ? `${label}, ${t('board.legal')}` : label;
}

function drawCells(state, geo) {
  const out = [];
  const { width, height } = state;
  for (const c of state.cells) {
    const x = geo.px(c.x);
    const y = geo.py(c.y);
    const classes = ['cell', (c.x + c.y) % 2 ? 'light' : 'dark'];
    if (c.blocked) classes.push('blocked');
    if (c.placer != null) classes.push(`by-${c.placer}`);
    if (c.origin) classes.push('origin');
    if (c.legal) classes.push('legal');
    if (c.last) classes.push('last');
    const attrs = [
      `class="${classes.join(' ')}"`,
      `data-testid="cell-${c.name}"`,
      `data-target="${c.name}"`,
      `data-value="${c.value}"`,
      c.legal ? 'data-legal="true"' : '',
      c.last ? 'data-last="true"' : '',
      c.origin ? 'data-origin="true"' : '',
      `aria-label="${esc(cellLabel(c, state))}"`,
      'role="img"',
    ].filter(Boolean).join(' ');
    let inner = `<rect class="sq" x="${x}" y="${y}" width="${U}" height="${U}"/>`;
    if (c.last) inner += `<rect class="last-mark" x="${x + 2}" y="${y + 2}" width="${U - 4}" height="${U - 4}"/>`;
    if (c.origin) inner += `<rect class="origin-mark" x="${x + 3}" y="${y + 3}" width="${U - 6}" height="${U - 6}" rx="6"/>`;
    if (c.blocked) {
      inner += `<text class="num" x="${x + U / 2}" y="${y + U / 2}" dy="0.35em" text-anchor="middle">${c.value}</text>`;
    }
    if (c.legal) inner += `<circle class="dot" cx="${x + U / 2}" cy="${y + U / 2}" r="${U * 0.16}"/>`;
    // Coordinates inside the edge cells, as on a chess board.
    if (c.x === 0) inner += `<text class="coord" x="${x + 3}" y="${y + 11}">${c.y + 1}</text>`;
    if (c.y === 0) inner += `<text class="coord" x="${x + U - 3}" y="${y + U - 3}" text-anchor="end">${String.fromCharCode(97 + c.x)}</text>`;
    out.push(`<g ${attrs}>${inner}</g>`);
  }
  out.push(`<rect class="frame" x="${geo.mx}" y="${geo.my}" width="${width * U}" height="${height * U}"/>`);
  return out.join('');
}

function drawGoals(state, geo) {
  return state.goals.map((g) => {
    const r = goalRect(g, state, geo);
    const classes = ['goal', g.defender != null ? `side-${g.defender}` : 'neutral'];
    if (g.legal) classes.push('legal');
    if (g.last) classes.push('last');
    if (g.mine) classes.push('mine');
    const label = g.mine ? `${goalLabel(g)}, ${t('board.own_goal')}` : goalLabel(g);
    const vertical = g.side === 'left' || g.side === 'right';
    const cx = r.x + r.w / 2;
    const cy = r.y + r.h / 2;
    const text = truncate(g.defenderName != null ? shownName(g.defenderName) : t('board.goal_side', { side: t(`side.${g.side}`) }), 14);
    const rot = vertical ? ` transform="rotate(${g.side === 'left' ? -90 : 90} ${cx} ${cy})"` : '';
    let inner = `<rect class="goal-area" x="${r.x}" y="${r.y}" width="${r.w}" height="${r.h}" rx="6"/>`;
    inner += `<text class="goal-label" x="${cx}" y="${cy}" dy="0.35em" text-anchor="middle"${rot}>${esc(text)}</text>`;
    // A legal goal is ringed round its edge, clear of its name; your own
    // goal's ring is red and dashed: playing it loses.
    if (g.legal) inner += `<rect class="ring${g.mine ? ' own' : ''}" data-testid="ring-${g.side}" x="${r.x + 2}" y="${r.y + 2}" width="${r.w - 4}" height="${r.h - 4}" rx="5"/>`;
    const attrs = [
      `class="${classes.join(' ')}"`,
      `data-testid="goal-${g.side}"`,
      `data-target="${g.move}"`,
      g.defender != null ? `data-defender="${g.defender}"` : '',
      g.legal ? 'data-legal="true"' : '',
      g.mine ? 'data-own="true"' : '',
      g.last ? 'data-last="true"' : '',
      `aria-label="${esc(g.legal ? `${label}, ${t('board.legal')}` : label)}"`,
      'role="img"',
    ].filter(Boolean).join(' ');
    return `<g ${attrs}>${inner}</g>`;
  }).join('');
}

function drawCursor(state, ui, geo) {
  if (!ui.cursor) return '';
  const { x, y } = ui.cursor;
  const { width, height } = state;
  let r;
  if (x >= 0 && x < width && y >= 0 && y < height) {
    r = { x: geo.px(x), y: geo.py(y), w: U, h: U };
  } else if (x === -1 || x === width) {
    r = { x: x === -1 ? geo.mx - GAP - G : geo.mx + width * U + GAP, y: geo.py(y), w: G, h: U };
  } else {
    r = { x: geo.px(x), y: y === -1 ? geo.my + height * U + GAP : geo.my - GAP - G, w: U, h: G };
  }
  return `<rect class="cursor" data-testid="cursor" x="${r.x + 1.5}" y="${r.y + 1.5}" width="${r.w - 3}" height="${r.h - 3}" rx="4"/>`;
}

/**
 * The hint (`ui.hint`): the ray's move as an arrow from the origin to the
 * cell it stops on (ringed) or to the goal it enters (outlined).
 */
function drawHint(state, ui, geo) {
  const move = ui.hint;
  if (!move) return '';
  const goal = state.goals.find((g) => g.side === parseGoal(move));
  const cell = parseCell(move);
  let box;
  if (goal) box = goalRect(goal, state, geo);
  else if (cell && cell.x < state.width && cell.y < state.height) box = { x: geo.px(cell.x), y: geo.py(cell.y), w: U, h: U };
  else return '';
  const to = { x: box.x + box.w / 2, y: box.y + box.h / 2 };
  let inner = `<rect class="hint-target" x="${box.x + 3}" y="${box.y + 3}" width="${box.w - 6}" height="${box.h - 6}" rx="5"/>`;
  const o = state.originXY;
  if (o) inner += hintArrow({ x: geo.px(o.x) + U / 2, y: geo.py(o.y) + U / 2 }, to, { inset: U * 0.3 });
  return hintGhost(move, inner);
}

/**
 * Draw `state` (from deriveState) with view state `ui` into `el`, a
 * container made by mountBoard(). Also mirrors a few facts as data-*
 * attributes on the container for tools and tests.
 */
export function render(el, state, ui) {
  if (!state) return clearSvg(el, 'cr-board');
  const geo = geometry(state);
  // On a phone a cell is never under 32 px: a wider board scrolls sideways in its box, unless
  // its cells are 30 px or more when it fits (a 9×7 board on a 360 px phone) (site.css).
  el.style.setProperty('--cr-min-width', `${Math.ceil(geo.vw * (MIN_CELL_PX / U))}px`);
  el.style.setProperty('--cr-fit-width', `${Math.ceil(geo.vw * (FIT_CELL_PX / U))}px`);
  el.style.setProperty('--cr-min-height', `${Math.ceil(geo.vh * (MIN_CELL_PX / U))}px`);
  fillSvg(el, 'cr-board', geo.vw, geo.vh, drawCells(state, geo) + drawGoals(state, geo) + drawHint(state, ui, geo) + drawCursor(state, ui, geo));

  const label = sentences(t('board.label', { w: state.width, h: state.height }), turnWords(state), t('board.help'));
  markBoard(el, state, ui, label, describeCursor(state, ui), {
    width: state.width,
    height: state.height,
    origin: state.origin ?? '',
    cursor: ui.cursorMove ?? '',
  });
}

/** Build the container's fixed children once: the SVG and a live region. */
export function mountBoard(el) {
  mountSvg(el, 'cr', 'cr-board');
}

