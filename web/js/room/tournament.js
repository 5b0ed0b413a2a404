// Knockout rooms: the bracket (bracket-view.js), or the bar above the
// table the page shows ("Watching Round 1: A vs B", and the way back).

import { t } from '../i18n.js';
import { $ } from '../dom.js';
import { isKnockoutRoom, bracketView } from '../bracket.js';
import { renderBracket, statusText, roundName } from '../bracket-view.js';
import { whoName } from './people.js';
import { sameNames } from './model.js';

export const tournamentPanel = {
  name: 'tournament',
  slice: (m) => [m.room.tournament, m.room.members, m.room.tables, m.room.options, m.room.unlisted, m.view, m.tableId, m.you, sameNames(m.room).key],
  draw: (model) => draw(model),
};

/** What opening a table from the bracket does (room.js). */
let onWatch = () => {};

export function initTournament(watch) {
  onWatch = watch;
}

function draw(model) {
  const { room, view, tableId } = model;
  const knockout = isKnockoutRoom(room);
  const onBracket = knockout && view?.kind === 'bracket';
  $('play').dataset.view = onBracket ? 'bracket' : 'table';
  $('bracket-panel').hidden = !onBracket;
  $('watch-bar').hidden = !(knockout && view?.kind === 'table');
  if (!knockout) return;
  const bv = bracketView(room.tournament, { members: room.members, tables: room.tables, you: model.you, unlisted: room.unlisted ?? 0 });
  const seated = room.members.filter((x) => x.seat != null).length;
  // Namesakes told apart ("Minh (2)"), as everywhere in the room.
  const nameOf = (p) => whoName(model, p);
  if (onBracket) {
    $('bracket-status').textContent = statusText(bv, { seated, nameOf });
    const note = $('bracket-note');
    note.hidden = !(bv?.out && bv.active);
    note.textContent = note.hidden ? '' : t('ko.out');
    renderBracket($('bracket'), bv, { nameOf, onWatch, shown: tableId, seated });
    return;
  }
  $('watch-title').textContent = watchTitle(bv, tableId, nameOf);
  $('watch-title').dataset.table = tableId ?? '';
}

/** "Watching Round 1: A vs B" (or "Your match, …") for the table shown. */
function watchTitle(bv, tableId, nameOf) {
  const round = bv?.rounds.find((r) => r.matches.some((x) => x.table === tableId));
  const m = round?.matches.find((x) => x.table === tableId);
  if (!m) return '';
  const [a, b] = m.players;
  return t(m.mine ? 'ko.mine' : 'ko.watching', { round: roundName(round.label), a: nameOf(a), b: nameOf(b) });
}
