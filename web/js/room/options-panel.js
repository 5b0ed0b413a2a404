// The "Game options" panel: a line saying the room's game and options,
// and for the host between games the form that changes them (its
// submit is in forms.js). The form is set from the options when it
// appears and when they change, never while the host edits it otherwise.

import { t } from '../i18n.js';
import { $ } from '../dom.js';
import { setOptionSelects, optionsSummary, showGameFields, setSoloForm } from '../options.js';
import { isHost, isSolo, locked } from './model.js';

export function optionSelects() {
  return {
    game: $('opt-game'), width: $('opt-width'), height: $('opt-height'), clock: $('opt-clock'),
    mode: $('opt-mode'), goal: $('opt-goal'), qsize: $('opt-qsize'), players: $('opt-players'),
    walls: $('opt-walls'), turn: $('opt-turn'), days: $('opt-days'),
  };
}

let shownOptions = null; // the options the open form was last set from

export const optionsPanel = {
  name: 'options',
  slice: (m) => [m.room.options, m.room.game, isHost(m), locked(m), isSolo(m)],
  draw,
};

function draw(model) {
  const { room } = model;
  const opts = room.options ?? {};
  $('options-summary').textContent = `${t(`game.${room.game}`)}: ${optionsSummary(opts, room.game)}`;
  const editable = isHost(model) && !locked(model);
  const form = $('options-form');
  const wasHidden = form.hidden;
  form.hidden = !editable;
  // What a solo room refuses (a knockout tournament, days per move) is not offered.
  setSoloForm(optionSelects(), isSolo(model));
  // The form follows the options when it opens, and when an options event changed them.
  if (editable && (wasHidden || shownOptions !== room.options)) {
    setOptionSelects(optionSelects(), opts, room.game);
    showGameFields(form, room.game);
  }
  shownOptions = editable ? room.options : null;
}
