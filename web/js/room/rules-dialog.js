// "How to play": the game's rules page (/rules/GAME?embed) in a dialog
// over the game; Escape inside the page (an iframe) closes it too.

import { $ } from '../dom.js';
import { isGame } from '../games/registry.js';
import { page } from './page.js';

export const rulesPanel = {
  name: 'rules',
  slice: (m) => [m.room.game],
  draw(model) {
    document.body.dataset.game = model.room.game;
    $('rules-open').hidden = !isGame(model.room.game);
  },
};

export function wireRules() {
  $('rules-open').addEventListener('click', () => {
    const frame = $('rules-frame');
    const src = `/rules/${page.model.room.game}?embed`;
    if (frame.getAttribute('src') !== src) frame.setAttribute('src', src);
    $('rules-dialog').showModal();
  });
  $('rules-close').addEventListener('click', () => $('rules-dialog').close());
  window.addEventListener('message', (e) => {
    if (e.origin === location.origin && e.data?.type === 'rules-close') $('rules-dialog').close();
  });
}
