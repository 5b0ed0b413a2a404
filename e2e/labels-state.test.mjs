// Unit test (pure, no browser) of how the boards label themselves and how
// the pages write a percentage: a board's aria-label is sentences, "Jungle
// board. Lan to move. Arrow keys …" (a full stop after each part, no
// double space when there is no turn to tell), in English and Vietnamese
// (web/js/board-kit.js: sentences, with the games' label words); and
// "50 %" with a no-break space, so a narrow line never puts the "%"
// alone (web/js/i18n.js: percentText, the analysis panel's numbers).

import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.document = { documentElement: {}, querySelectorAll: () => [] };
if (!globalThis.navigator) globalThis.navigator = { language: 'en' };
const { setLang, t, percentText } = await import('../web/js/i18n.js');
const { sentences } = await import('../web/js/board-kit.js');

test('a board\'s label runs as sentences, with or without a turn', () => {
  setLang('en');
  assert.equal(sentences(t('jungle.label'), t('game.to_move', { name: 'dienthoai_vn' }), t('jungle.help')),
    'Jungle board. dienthoai_vn to move. Arrow keys move the cursor, Enter or Space selects an animal and then moves it to the square under the cursor, Esc deselects.');
  const quoridor = sentences(t('quoridor.label'), '', t('quoridor.help'));
  assert.ok(quoridor.startsWith('Quoridor board. Arrow keys'), quoridor);
  assert.doesNotMatch(quoridor, / {2}/);
  assert.ok(sentences(t('board.label', { w: 9, h: 7 }), t('game.your_turn'), t('board.help')).startsWith('CrossyRay board, 9 by 7. Your turn. Arrow keys'));
  setLang('vi');
  const vi = sentences(t('jungle.label'), t('game.your_turn'), t('jungle.help'));
  assert.ok(vi.startsWith('Bàn cờ thú. Đến lượt bạn. Phím mũi tên'), vi);
  assert.ok(sentences(t('quoridor.label'), null, t('quoridor.help')).startsWith('Bàn Rào chắn. Phím mũi tên'));
  for (const key of ['board.label', 'jungle.label', 'quoridor.label']) {
    for (const code of ['en', 'vi']) {
      setLang(code);
      assert.doesNotMatch(t(key, { w: 9, h: 7 }), /\{turn\}/, `${code} ${key}`);
    }
  }
  assert.equal(sentences('Ends here!', 'A question?', ' spaced '), 'Ends here! A question? spaced.');
  setLang('en');
});

test('a percentage keeps its number and sign together (U+00A0)', () => {
  setLang('vi');
  assert.equal(percentText(50), '50\u00a0%');
  assert.equal(percentText(62.45, 1), '62,5\u00a0%');
  setLang('en');
  assert.equal(percentText(62.45, 1), '62.5\u00a0%');
  assert.doesNotMatch(percentText(7), / /, 'no breaking space');
});
