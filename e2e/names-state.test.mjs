// Unit test of web/js/names.js (pure, no browser): the computer's stored
// English name in the page's language, a Quoridor team's stored name as
// its members, and a list of names joined by the language's "and" with
// the verb agreeing.

import { test } from 'node:test';
import assert from 'node:assert/strict';

// i18n.js reads the browser's language and switches it on the page's
// document: bare ones will do (node 20 has no navigator).
globalThis.document = { documentElement: {}, querySelectorAll: () => [] };
if (!globalThis.navigator) globalThis.navigator = { language: 'en' };
const { setLang } = await import('../web/js/i18n.js');
const { shownName, sideNames, nameList, winLine } = await import('../web/js/names.js');

test('the computer is named in the page\'s language; people keep their names', () => {
  setLang('vi');
  assert.equal(shownName('Computer (Beginner)'), 'Máy (Mới chơi)');
  assert.equal(shownName('Computer (Master)'), 'Máy (Bậc thầy)');
  assert.equal(shownName('Computer (Nobody)'), 'Computer (Nobody)', 'only the levels the server names');
  assert.equal(shownName('Khoa'), 'Khoa');
  assert.equal(shownName('Computer (Beginner) 2'), 'Máy (Mới chơi) 2', 'several of a level keep their numbers');
  assert.equal(shownName('Computer (Beginner) x'), 'Computer (Beginner) x');
  setLang('en');
  assert.equal(shownName('Computer (Professional)'), 'Computer (Professional)');
});

test('a Quoridor team\'s stored name is its members; other games\' names are one', () => {
  setLang('vi');
  assert.deepEqual(sideNames('quoridor', 'Khoa + Computer (Amateur)'), ['Khoa', 'Máy (Nghiệp dư)']);
  assert.deepEqual(sideNames('crossyray', 'A + B'), ['A + B']);
});

test('names join with the language\'s "and", and the English verb agrees', () => {
  setLang('vi');
  assert.equal(nameList(['Khoa', 'Vy']), 'Khoa và Vy');
  assert.equal(nameList(['An', 'Khoa', 'Vy']), 'An, Khoa và Vy');
  assert.equal(winLine(['Khoa', 'Vy']), 'Khoa và Vy thắng');
  assert.equal(winLine(['Khoa']), 'Khoa thắng');
  setLang('en');
  assert.equal(winLine(['Khoa', 'Vy']), 'Khoa and Vy win');
  assert.equal(winLine(['An', 'Khoa', 'Vy']), 'An, Khoa and Vy win');
  assert.equal(winLine(['Khoa']), 'Khoa wins');
});
