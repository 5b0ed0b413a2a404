// How the pages name players. The computer in the reader's language: the
// server stores and sends its English name ("Computer (Master)"), and the
// room's members and players also carry its level (`computer`), which
// names it where it is there; elsewhere (history, profile, replay: names
// only) the English name is read back to its level. Several players (a
// Quoridor team) as one list joined by the language's "and" ("Khoa và
// Vy"), and a win line whose verb agrees ("Khoa and Vy win").

import { t } from './i18n.js';

/** The computer's English names the server gives it (rules/src/level.rs), by level. */
const LEVELS = { Beginner: 'beginner', Amateur: 'amateur', Professional: 'professional', Master: 'master' };

/**
 * The computer at `level` ('beginner', …), in the page's language; `number`
 * (2, 3, …) tells apart several computers of one level in a room, as the
 * server numbers them ("Computer (Beginner) 2").
 */
export function computerName(level, number = null) {
  const name = t('computer.name', { level: t(`level.${level}`) });
  return number ? `${name} ${number}` : name;
}

/** The server's English name of the computer, read: {level, number}, or null for a person's name. */
function computerOf(name) {
  const m = /^Computer \((\w+)\)(?: (\d+))?$/.exec(name ?? '');
  return m && LEVELS[m[1]] ? { level: LEVELS[m[1]], number: m[2] ?? null } : null;
}

/** The number the server gave a computer (its name "Computer (Beginner) 2"), or null. */
export function computerNumber(name) {
  return computerOf(name)?.number ?? null;
}

/** A name as the server stored it: the computer's in the page's language, anyone else's as it is. */
export function shownName(name) {
  const c = computerOf(name);
  return c ? computerName(c.level, c.number) : name;
}

/**
 * The people of one side of a finished game, from its stored name: a
 * Quoridor team's members are joined there with " + " (docs/PROTOCOL.md,
 * "History and export"); each is shown by shownName.
 */
export function sideNames(game, name) {
  const names = game === 'quoridor' && name != null ? String(name).split(' + ') : [name];
  return names.map(shownName);
}

/** Names as one list in the page's language: "Khoa", "Khoa và Vy", "An, Khoa và Vy". */
export function nameList(names) {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} ${t('list.and')} ${names[names.length - 1]}`;
}

/** "Khoa wins" for one name, "Khoa and Vy win" for several. */
export function winLine(names) {
  const known = names.filter((n) => n != null);
  if (known.length > 1) return t('result.win_many', { names: nameList(known) });
  return t('result.win', { name: known[0] ?? '?' });
}
