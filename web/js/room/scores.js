// The room's scoreboard: a row a person (their account, else their
// member), the viewer's own row marked.

import { t } from '../i18n.js';
import { $, el } from '../dom.js';
import { accountBadge, apartName } from './people.js';
import { sameNames, scoreRowId } from './model.js';
import { shownName } from '../names.js';

export const scoresPanel = {
  name: 'scores',
  slice: (m) => [m.room.scores, m.you, sameNames(m.room).key],
  draw,
};

/** Whether a scoreboard row is the viewer's: by account when it has one, else by member. */
function isMine(row, you) {
  return row.account ? row.account === you?.account : row.member === you?.member;
}

function draw(model) {
  const rows = model.room.scores ?? [];
  const box = $('scores');
  if (!rows.length) {
    box.replaceChildren(el('p', { class: 'hint', text: t('scores.none') }));
    return;
  }
  const head = el('tr', {}, ...['scores.name', 'scores.points', 'scores.wins', 'scores.draws', 'scores.losses'].map((k) => el('th', { scope: 'col', text: t(k) })));
  // Two guests with the same name have a row each.
  const body = rows.map((r) => {
    // Two guests of one name told apart ("Minh (2)"), as everywhere on the page.
    const who = el('td', {}, apartName(model, scoreRowId(model.room.members, r), shownName(r.name)));
    if (r.account) who.append(' ', accountBadge(r, null));
    const attrs = { 'data-testid': 'score-row', class: isMine(r, model.you) ? 'you' : null, dataset: { account: r.account ?? '', member: r.member ?? '' } };
    return el('tr', attrs, who, el('td', { text: String(r.points) }),
      el('td', { text: String(r.wins) }), el('td', { text: String(r.draws) }), el('td', { text: String(r.losses) }));
  });
  box.replaceChildren(el('table', { class: 'scores' }, el('thead', {}, head), el('tbody', {}, ...body)));
}
