// Game options as form controls, shared by the home page (create a room)
// and the room page (the host edits options, or switches game, between
// games). Wire formats (docs/PROTOCOL.md):
//   CrossyRay {"mode":"single"|"knockout","width":9,"height":7,
//              "clock":null | {"minutes":3,"increment":2}}
//   Jungle    {"mode":"single"|"knockout","clock":null | {"minutes":3,"increment":2}}
//   Quoridor  {"mode":"ffa"|"teams"|"knockout","goal":"edge"|"centre","size":9|11|13,
//              "players":2..8,"walls":"auto"|n,"turn_seconds":15..90}
// A clock is sent in that one form and read in it or as [3,2].
// A form has a game select, a mode select (every game; its choices follow
// the game: its modes in games/facts.js), width and height selects (CrossyRay only; their
// labels carry data-game="crossyray" and are hidden for other games), a
// clock select (CrossyRay and Jungle) and Quoridor's selects (goal,
// qsize, players, walls, turn; data-game="quoridor"). A label's data-game
// may name several games, separated by spaces.

import { t } from './i18n.js';
import { FORM_ORDER, factsOf } from './games/facts.js';

export const Q_SIZES = [9, 11, 13];
export const Q_PLAYERS = [2, 3, 4, 5, 6, 7, 8];
export const Q_WALLS = ['auto', 1, 3, 5, 7, 10, 15, 20];
export const Q_TURNS = [15, 20, 30, 45, 60, 90];
export const Q_DEFAULTS = { mode: 'ffa', goal: 'edge', size: 9, players: 2, walls: 'auto', turn_seconds: 30 };
export const SIZES = Array.from({ length: 11 }, (_, i) => 5 + 2 * i); // 5, 7, …, 25
export const CLOCKS = [null, [3, 2], [5, 3], [10, 5], [15, 10]];
export const DEFAULT_OPTIONS = { width: 9, height: 7, clock: null };
/** The modes of `game`, its default first. */
export function modesOf(game) {
  return factsOf(game).modes;
}

/** A mode's name in the page's language. */
export function modeText(mode) {
  return mode === 'ffa' || mode === 'teams' ? t(`quoridor.mode.${mode}`) : t(`mode.${mode}`);
}

/**
 * Fill the mode select with `game`'s modes, keeping its choice when the
 * game has it (knockout is every game's), else `value`, else the default.
 */
export function fillModeSelect(sel, game, value = null) {
  if (!sel) return;
  // A solo room's form (setSoloForm) offers no knockout tournament.
  const solo = sel.dataset.solo === 'true';
  const modes = modesOf(game).filter((m) => !(solo && m === 'knockout'));
  const label = sel.closest('label');
  if (label) label.hidden = solo && modes.length < 2;
  const want = [sel.value, value].find((v) => v && modes.includes(v)) ?? modes[0];
  const same = sel.options.length === modes.length && [...sel.options].every((o, i) => o.value === modes[i]);
  if (!same || sel.options[0]?.text !== modeText(modes[0])) {
    sel.replaceChildren(...modes.map((m) => new Option(modeText(m), m)));
  }
  sel.value = want;
}

/** Either wire form of a clock as [minutes, increment], or null. */
export function clockPair(clock) {
  if (!clock) return null;
  if (Array.isArray(clock)) return [Number(clock[0]), Number(clock[1])];
  return [Number(clock.minutes), Number(clock.increment)];
}

export function clockKey(clock) {
  const p = clockPair(clock);
  return p ? `${p[0]}+${p[1]}` : 'off';
}

export function clockText(clock) {
  const p = clockPair(clock);
  return p ? t('clock.preset', { m: p[0], i: p[1] }) : t('clock.off');
}

/** One line describing `o`, the options of `game`. */
export function optionsSummary(o, game) {
  const line = optionForm(game).summary(o ?? {});
  return o?.days ? `${line}, ${daysText(o.days)}` : line;
}

/** Turn-based games: days per move ('' = played live, with the game's clock). */
export const DAYS = [1, 2, 3, 7];

export function daysText(days) {
  if (days === 1) return t('turns.days_1');
  return days ? t('turns.days_n', { n: days }) : t('turns.live');
}

function fillDays(sel, value) {
  if (!sel) return;
  const keep = sel.value !== '' || sel.options.length ? sel.value : String(value ?? '');
  sel.replaceChildren(new Option(daysText(null), ''), ...DAYS.map((d) => new Option(daysText(d), String(d))));
  sel.value = keep;
}

/**
 * Makes `selects` a solo room's form (`solo` true: a guest against the
 * computer, PROTOCOL "Hosts") or any room's: a solo room's games are
 * never a knockout tournament nor turn-based (`solo_room`), so its mode
 * select offers no knockout (and is hidden when one mode is left) and
 * its days per move are hidden, set to played live.
 */
export function setSoloForm(selects, solo) {
  if (selects.mode) {
    const was = selects.mode.dataset.solo === 'true';
    selects.mode.dataset.solo = String(solo);
    if (was !== solo) fillModeSelect(selects.mode, selects.game?.value || FORM_ORDER[0]);
  }
  if (selects.days) {
    const label = selects.days.closest('label');
    if (label) label.hidden = solo;
    if (solo) selects.days.value = '';
  }
}

/** Show the controls that belong to `game` (labels with data-game). */
export function showGameFields(form, game) {
  for (const node of form.querySelectorAll('[data-game]')) {
    node.hidden = !node.dataset.game.split(' ').includes(game);
  }
}

/** Fill the selects (keeping their current choice, else `value`). */
function fillQuoridor(sel) {
  const fill = (node, values, text, fallback) => {
    if (!node) return;
    const keep = node.value !== '' ? node.value : String(fallback);
    node.replaceChildren(...values.map((v) => new Option(text(v), String(v))));
    node.value = keep;
  };
  fill(sel.goal, ['edge', 'centre'], (v) => t(`quoridor.goal.${v}`), Q_DEFAULTS.goal);
  fill(sel.qsize, Q_SIZES, (v) => `${v} × ${v}`, Q_DEFAULTS.size);
  fill(sel.players, Q_PLAYERS, String, Q_DEFAULTS.players);
  fill(sel.walls, Q_WALLS, (v) => (v === 'auto' ? t('quoridor.walls.auto') : String(v)), Q_DEFAULTS.walls);
  fill(sel.turn, Q_TURNS, (v) => t('quoridor.turn_s', { s: v }), Q_DEFAULTS.turn_seconds);
}

/** Quoridor's players select: two pawns in teams and tournaments. */
function syncPlayers(selects, game) {
  if (selects.players && selects.mode) selects.players.disabled = optionForm(game).twoPawns(selects.mode.value);
}

export function fillOptionSelects(selects, value = DEFAULT_OPTIONS) {
  const { game, width, height, clock } = selects;
  fillQuoridor(selects);
  const keep = (sel, fallback) => (sel.value !== '' ? sel.value : String(fallback));
  const w = keep(width, value.width ?? DEFAULT_OPTIONS.width);
  const h = keep(height, value.height ?? DEFAULT_OPTIONS.height);
  const c = clock.value !== '' ? clock.value : clockKey(value.clock);
  let g = FORM_ORDER[0];
  if (game) {
    g = game.value !== '' ? game.value : FORM_ORDER[0];
    game.replaceChildren(...FORM_ORDER.map((name) => new Option(t(`game.${name}`), name)));
    game.value = g;
  }
  fillModeSelect(selects.mode, g, value.mode);
  syncPlayers(selects, g);
  fillDays(selects.days, value.days);
  for (const sel of [width, height]) {
    sel.replaceChildren(...SIZES.map((n) => new Option(String(n), String(n))));
  }
  clock.replaceChildren(...CLOCKS.map((p) => new Option(clockText(p), clockKey(p))));
  width.value = w;
  height.value = h;
  clock.value = c;
}

/** Set the selects to `o`, the options of `gameName`. */
export function setOptionSelects(selects, o, gameName) {
  if (selects.game) selects.game.value = gameName;
  if (selects.mode) {
    selects.mode.value = '';
    fillModeSelect(selects.mode, gameName, o?.mode ?? null);
  }
  optionForm(gameName).set(selects, o ?? {});
  if (selects.days) selects.days.value = o?.days ? String(o.days) : '';
}

/** Read the selects; returns {game, options} or {error}. */
export function readOptionSelects(selects) {
  const name = selects.game?.value || FORM_ORDER[0];
  // The mode select follows the game (a switch keeps knockout, else the default).
  fillModeSelect(selects.mode, name);
  syncPlayers(selects, name);
  const mode = selects.mode?.value || modesOf(name)[0];
  const r = optionForm(name).read(selects, mode);
  if (r.error) return r;
  const days = Number(selects.days?.value || 0);
  if (days) {
    if (mode === 'knockout') return { error: t('turns.no_knockout') };
    r.days = days;
  }
  return { game: name, options: r };
}

/*
 * Each game's part of the form: summary(o) is one line describing its
 * options, set(selects, o) shows them, read(selects, mode) gives them
 * back (or {error}), twoPawns(mode) whether the players select is fixed.
 */
const clockOnly = (o) => clockText(o.clock ?? null);
const setClock = (selects, o) => { selects.clock.value = clockKey(o.clock ?? null); };
const knockoutFirst = (o, line) => (o.mode === 'knockout' ? `${t('mode.knockout')}, ${line}` : line);
const never = () => false;

const FORMS = {
  crossyray: {
    summary: (o) => knockoutFirst(o, t('options.summary', { w: o.width, h: o.height, clock: clockOnly(o) })),
    set(selects, o) {
      if (o.width) selects.width.value = String(o.width);
      if (o.height) selects.height.value = String(o.height);
      setClock(selects, o);
    },
    read(selects, mode) {
      const w = Number(selects.width.value);
      const h = Number(selects.height.value);
      if (w === h) return { error: t('options.square') };
      return { mode, width: w, height: h, clock: clockSetting(selects.clock.value) };
    },
    twoPawns: never,
  },
  jungle: {
    summary: (o) => knockoutFirst(o, clockOnly(o)),
    set: setClock,
    read: (selects, mode) => ({ mode, clock: clockSetting(selects.clock.value) }),
    twoPawns: never,
  },
  quoridor: {
    summary(o) {
      const q = { ...Q_DEFAULTS, ...o };
      const mode = q.mode === 'ffa' ? `${t('quoridor.mode.ffa')} (${q.players})` : modeText(q.mode);
      // A turn-based game has no turn timer: its days are its time.
      return t(o.days ? 'quoridor.summary_days' : 'quoridor.summary', {
        mode,
        size: q.size,
        goal: t(`quoridor.goal.${q.goal}`),
        walls: q.walls === 'auto' ? t('quoridor.walls.auto') : q.walls,
        turn: t('quoridor.turn_s', { s: q.turn_seconds }),
      });
    },
    set(selects, o) {
      const q = { ...Q_DEFAULTS, ...o };
      if (selects.goal) selects.goal.value = q.goal;
      if (selects.qsize) selects.qsize.value = String(q.size);
      if (selects.players) {
        selects.players.value = String(q.players);
        selects.players.disabled = q.mode !== 'ffa';
      }
      if (selects.walls) selects.walls.value = String(q.walls);
      if (selects.turn) selects.turn.value = String(q.turn_seconds);
    },
    read(selects, mode) {
      const walls = selects.walls?.value || 'auto';
      return {
        mode,
        goal: selects.goal?.value || Q_DEFAULTS.goal,
        size: Number(selects.qsize?.value || Q_DEFAULTS.size),
        players: mode === 'ffa' ? Number(selects.players?.value || 2) : 2,
        walls: walls === 'auto' ? 'auto' : Number(walls),
        turn_seconds: Number(selects.turn?.value || Q_DEFAULTS.turn_seconds),
      };
    },
    twoPawns: (mode) => mode !== 'ffa',
  },
};

/** Game `game`'s part of the options form (throws UnknownGame for another name). */
export function optionForm(game) {
  return FORMS[factsOf(game).name];
}

/** A clock select's value ('off', '3+2') as the options' clock: null or {minutes, increment}. */
export function clockSetting(key) {
  if (!key || key === 'off') return null;
  const [minutes, increment] = key.split('+').map(Number);
  return { minutes, increment };
}
