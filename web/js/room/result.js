// The result line of a finished game: who won and why, and for a player
// whether they won or lost; and a link to the game's analysis on its
// replay page (/g/ID#analysis asks the server for it at once).

import { t } from '../i18n.js';
import { $, el } from '../dom.js';
import { gameOf } from '../games/registry.js';
import { shownMatch, mySide, sameNames } from './model.js';
import { whoName } from './people.js';
import { winLine } from '../names.js';

export const resultPanel = {
  name: 'result',
  slice: (m) => [shownMatch(m), m.you, m.room.game, sameNames(m.room).key],
  draw,
};

function outcomeText(model, m) {
  const { game } = model.room;
  const displayName = (who) => whoName(model, who);
  const o = m.outcome;
  const reason = gameOf(game).reasonText(o.reason);
  if (o.kind === 'win') {
    const team = m.teams?.[o.winner];
    const names = team && team.length > 1 ? team.map((x) => displayName(x)) : [displayName(m.players[o.winner]) ?? '?'];
    return { head: winLine(names), reason };
  }
  if (o.kind === 'draw') return { head: t('result.draw'), reason };
  return { head: t('result.aborted'), reason };
}

function draw(model) {
  const m = shownMatch(model);
  const box = $('result');
  if (!m?.outcome) {
    box.hidden = true;
    box.replaceChildren();
    delete box.dataset.reason;
    delete box.dataset.winner;
    return;
  }
  const { head, reason } = outcomeText(model, m);
  const side = mySide(model);
  const won = side != null && m.outcome.kind === 'win';
  const parts = [];
  if (won) parts.push(el('strong', { class: 'you', text: side === m.outcome.winner ? t('result.you_win') : t('result.you_lose') }), ' ');
  parts.push(el('strong', { class: 'head', 'data-testid': 'result-head', text: head }), ' — ',
    el('span', { class: 'reason', 'data-testid': 'result-reason', text: t('result.by', { reason }) }));
  if (m.id && m.moves?.length) {
    parts.push(' ', el('a', {
      class: 'button small analyse-game', 'data-testid': 'analyse-game',
      href: `/g/${encodeURIComponent(m.id)}#analysis`, text: t('analysis.room_link'),
    }));
  }
  box.replaceChildren(...parts);
  box.dataset.reason = m.outcome.reason;
  box.dataset.kind = m.outcome.kind;
  if (m.outcome.kind === 'win') box.dataset.winner = String(m.outcome.winner);
  box.className = `result ${m.outcome.kind} ${won ? (side === m.outcome.winner ? 'won' : 'lost') : ''}`;
  box.hidden = false;
}
