// How the room page names people and marks them: the computer by its
// level, a registered member's badge, a rating, the online dot. Shared by
// the seats, members, players, scores and bracket panels.

import { t } from '../i18n.js';
import { el } from '../dom.js';
import { person, sameNames } from './model.js';
import { computerName, computerNumber, shownName } from '../names.js';

/** How a member or player is shown: the computer by its level (and number), in the page's language. */
export function displayName(who) {
  if (who?.computer) return computerName(who.computer, computerNumber(who.name));
  return who?.name ?? null;
}

/**
 * `name`, the shown name of person `id` (a member id), told apart from
 * other people of the room shown under the same name: "Minh", "Minh (2)"
 * (model.js: sameNames).
 */
export function apartName(model, id, name) {
  if (name == null) return name;
  const n = sameNames(model.room)(id, name);
  return n ? t('names.apart', { name, n }) : name;
}

/** A member (`id`) or a player (`member`) as displayName shows them, told apart from namesakes. */
export function whoName(model, who) {
  const name = displayName(who);
  return who?.computer ? name : apartName(model, who?.id ?? who?.member, name);
}

/** A player of the tournament by member id, named as the page names people. */
export function personName(model, id) {
  const who = person(model, id);
  const entrant = model.room?.tournament?.entrants?.find((x) => x.member === id);
  return whoName(model, who) ?? apartName(model, id, shownName(entrant?.name)) ?? '?';
}

/** The online (or offline) dot before a name. */
export function onlineDot(online) {
  const words = t(online ? 'members.online' : 'members.offline');
  return el('span', { role: 'img', class: `dot ${online ? 'on' : 'off'}`, title: words, 'aria-label': words });
}

/**
 * The online dot and a name (`nameNode`) kept together: the dot beside the
 * name's first line however the name wraps, never on a line of its own.
 */
export function dotted(online, nameNode) {
  return el('span', { class: 'dot-name' }, onlineDot(online), nameNode);
}

/** A member's rating at the room's game, "1 662 ± 290" (the computer's fixed one, ± 0). */
export function ratingBadge(m, testid) {
  return el('span', {
    class: 'player-rating', 'data-testid': testid, title: t('profile.rating'),
    text: t('room.rating', { rating: m.rating.rating, deviation: m.rating.deviation }),
  });
}

/** The small "registered" badge of a member with an account; its title names the account. */
export function accountBadge(m, testid) {
  return el('span', {
    class: 'badge account', 'data-testid': testid, title: t('members.account_title', { name: m.account }),
    text: t('members.account'),
  });
}

/** A line the room itself wrote in its log (model.js: `{key, who}` or `{key, name, member}`), in words. */
export function noticeLine(notice, model = null) {
  if (typeof notice === 'string') return notice;
  const named = () => (model && notice.member ? apartName(model, notice.member, shownName(notice.name)) : shownName(notice.name));
  const name = 'who' in notice ? ((model ? whoName(model, notice.who) : displayName(notice.who)) ?? '?') : (notice.name != null ? named() : t('members.guest'));
  return t(notice.key, { name });
}
