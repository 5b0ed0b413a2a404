// The profile's rating graph for one game (docs/PROTOCOL.md, "Rating
// history"): the points of GET /api/players/NAME/ratings/GAME drawn as an
// SVG line, with a few rating ticks on the left, the first and last dates
// below, and each point's date, rating and change in its <title>. The
// colours are the CSS custom properties --graph-* of site.css.

import { t } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';
const W = 600;
const H = 220;
const PAD = { left: 48, right: 12, top: 12, bottom: 30 };

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) node.setAttribute(k, String(v));
  for (const c of children) if (c != null) node.append(c);
  return node;
}

/** "+12", "−8" (a minus sign), "±0" for a rating change. */
export function changeText(change) {
  if (change > 0) return `+${change}`;
  if (change < 0) return `\u2212${-change}`;
  return '±0';
}

/** A few round rating ticks covering `lo`..`hi`. */
export function ticks(lo, hi) {
  const span = Math.max(hi - lo, 1);
  const step = [10, 20, 25, 50, 100, 200, 250, 500].find((s) => span / s <= 4) ?? 1000;
  const out = [];
  for (let v = Math.floor(lo / step) * step; v <= Math.ceil(hi / step) * step; v += step) out.push(v);
  return out;
}

/**
 * The SVG of `points` ({at, rating, deviation, change, game_id}, oldest
 * first) for `game`, titled for the player `name`; `date(ms)` writes a
 * date in the page's language.
 */
export function ratingGraph({ game, name, points, date }) {
  const ratings = points.map((p) => p.rating);
  const scale = ticks(Math.min(...ratings, 1500), Math.max(...ratings, 1500));
  const lo = scale[0];
  const hi = scale[scale.length - 1] === lo ? lo + 1 : scale[scale.length - 1];
  const x = (i) => PAD.left + (points.length < 2 ? (W - PAD.left - PAD.right) / 2 : (i * (W - PAD.left - PAD.right)) / (points.length - 1));
  const y = (r) => PAD.top + ((hi - r) * (H - PAD.top - PAD.bottom)) / (hi - lo);
  const label = t(points.length === 1 ? 'rating.graph_label_1' : 'rating.graph_label', {
    game: t(`game.${game}`), name, count: points.length,
    first: date(points[0]?.at), last: date(points[points.length - 1]?.at),
  });
  const title = svg('title', {});
  title.textContent = label;
  const grid = scale.map((v) => svg('g', { class: 'rg-tick' },
    svg('line', { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v) }),
    Object.assign(svg('text', { x: PAD.left - 6, y: y(v) + 4, 'text-anchor': 'end' }), { textContent: String(v) })));
  const dates = points.length ? [[0, 'start'], [points.length - 1, 'end']].filter(([i], k) => k === 0 || i > 0)
    .map(([i, anchor]) => Object.assign(svg('text', { class: 'rg-date', x: x(i), y: H - 8, 'text-anchor': points.length < 2 ? 'middle' : anchor }), { textContent: date(points[i].at) })) : [];
  const line = svg('polyline', { class: 'rg-line', points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(' ') });
  const dots = points.map((p, i) => {
    const tip = svg('title', {});
    tip.textContent = t('rating.point', { date: date(p.at), rating: p.rating, deviation: p.deviation, change: changeText(p.change) });
    return svg('circle', { class: 'rg-point', 'data-testid': 'rating-point', 'data-game-id': p.game_id, cx: x(i), cy: y(p.rating), r: 4 }, tip);
  });
  return svg('svg', {
    class: 'rating-graph', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label,
    'data-testid': 'rating-graph', 'data-game': game, preserveAspectRatio: 'xMidYMid meet',
  }, title, svg('g', { class: 'rg-axis' }, ...grid, ...dates), line, ...dots);
}
