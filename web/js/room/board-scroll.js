// A board wider than its box (a 11×11 or 13×13 Quoridor board on a
// phone, whose crossings keep 32 px each) scrolls sideways inside it:
// the frame then shades the edge that has more board beyond it and a
// line above the board says to swipe. Redrawn after each board draw, on
// the board's scroll and on any change of its size.

import { $ } from '../dom.js';

let watching = false;

/** Marks the frame (`data-scrolls`, `more-left`, `more-right`) and shows the hint as the board's scroll stands. */
export function markBoardScroll() {
  const board = $('board');
  const frame = $('board-frame');
  if (!board || !frame) return;
  if (!watching) {
    watching = true;
    board.addEventListener('scroll', markBoardScroll, { passive: true });
    new ResizeObserver(markBoardScroll).observe(board);
    window.addEventListener('resize', markBoardScroll);
  }
  const over = board.scrollWidth - board.clientWidth;
  const scrolls = over > 1;
  frame.dataset.scrolls = String(scrolls);
  frame.classList.toggle('more-left', scrolls && board.scrollLeft > 1);
  frame.classList.toggle('more-right', scrolls && board.scrollLeft < over - 1);
  $('board-scroll-hint').hidden = !scrolls;
}
