// CrossyRay's rules page (RULES.md §1) in English and Vietnamese, and its
// walkthrough. Each step is a position the server plays from `moves`
// (GET /api/position), seen as side `as` (its legal targets marked).

export default {
  game: 'crossyray',
  steps: [
    { id: 'ray', moves: [], as: 0 },
    { id: 'range', moves: ['f4'], as: 1 },
    { id: 'blocks', moves: ['e5', 'e6', 'd6', 'd5'], as: 0 },
    { id: 'cycle', moves: ['f4', 'f6', 'c6', 'a6', 'a1', 'c1', 'h1', 'h2', 'a2', 'd2', 'g2', 'g6', 'h6', 'h7', 'd7', 'd6', 'e6', 'e7'], as: 0 },
    { id: 'goal', moves: ['f4', 'h4'], as: 0 },
    { id: 'own_goal', moves: ['f4', 'h4', 'i4'], as: 1 },
    { id: 'lock', moves: ['e5', 'e6', 'd6', 'd7', 'f7', 'e7'], as: 0 },
    { id: 'clock', moves: [], as: 0, options: { clock: { minutes: 3, increment: 2 } } },
  ],
  text: {
    en: {
      title: 'CrossyRay',
      intro: 'An original game for two: a ray leaves the number placed last, and the next number is placed where it lands. Numbers pile up as blocks until a player sends the ray into the opponent\'s goal or leaves the opponent no move.',
      sections: [
        { h: 'Board', ps: [
          'The board is 9 cells wide and 7 tall unless the room chose another size (both odd, 5 to 25, never square). A goal lies just outside each short side, over its 3 middle rows (or files).',
          'The first player defends the left goal (the top goal on a tall board) and attacks the opposite one; the second player the other way round.',
        ] },
        { h: 'A move', ps: [
          'At the start the number 1 stands on the centre cell. Each move places the next number of the cycle 1 → 2 → … → 19 → 1: there is no 20.',
          'The number placed last is the current number; its cell is the origin. From the origin a ray goes up, down, left or right, never diagonally, and reaches 1 to k cells when the current number is k. The next number goes on any of them whose path is clear.',
          'Every number stays on the board for good, the starting 1 too: it is a block. A ray stops just before the first block in its way.',
        ] },
        { h: 'Goals', ps: [
          'A ray may leave the board only through a goal, and leaving costs one step of range: with j empty cells between the origin and the edge, the goal is in reach when j + 1 ≤ k, and the origin\'s line must cross the goal\'s 3 positions.',
          'Sending the ray into the opponent\'s goal wins at once. Sending it into your own goal is legal, and loses at once: the site marks your own goal with a red ring and asks before playing it.',
        ] },
        { h: 'End of the game', ps: [
          'Lock: if the player to move has no legal move, the player who just moved wins. An own goal counts as a move, so a player whose only move is an own goal must play it.',
          'With the clock on (3+2, 5+3, 10+5 or 15+10), running out of time loses. Resigning or leaving the game loses too. There are no draws.',
        ] },
      ],
      walkthrough: 'Walkthrough: pick a step to see the change',
      steps: {
        ray: ['The ray', 'The 1 stands on e4. Its ray reaches one cell each way: the first player may play e5, e3, d4 or f4 (the dots).'],
        range: ['Range and a block', 'The first player put the 2 on f4. From f4 the ray reaches 2 cells up, down and right; to the left the 1 on e4 blocks it at once.'],
        blocks: ['Blocks pile up', 'After e5, e6, d6 and d5 the 5 stands on d5. Its ray stops before the 4 above and the 2 to the right; down and left it still reaches far, even into the first player\'s own goal (the red ring).'],
        cycle: ['19, then 1', '18 moves later the 19 stands on e7: the ray could reach 19 cells, but blocks and the edge leave only f7 and g7. The number placed next is 1 again: the cycle starts over, and a 1 reaches a single cell.'],
        goal: ['A goal in reach', 'After f4 and h4 the 3 stands on h4. One empty cell (i4) lies between it and the right edge: 1 + 1 ≤ 3, and rank 4 is a goal rank, so the first player may play into the right goal, and win.'],
        own_goal: ['Your own goal', 'After f4, h4, i4 the 4 stands on the edge, in front of the right goal, which the second player defends. Playing it is legal but loses at once: the red ring marks it, and the site asks first.'],
        lock: ['A lock', 'After e5, e6, d6, d7, f7, e7 the 7 stands on e7, boxed in by blocks and the top edge, which has no goal. The first player has no move: the second player, who placed the 7, wins by lock.'],
        clock: ['The clock', 'A room may play with a chess clock: both players start with the same time and gain the increment after each of their own moves (here 3 minutes + 2 seconds). Whoever runs out of time loses.'],
      },
      sides: ['First player', 'Second player'],
    },
    vi: {
      title: 'CrossyRay',
      intro: 'Một trò chơi nguyên bản cho hai người: một tia đi ra từ số vừa đặt, và số tiếp theo được đặt ở nơi tia dừng lại. Các số chồng lên thành vật cản cho tới khi một người đưa tia vào khung thành đối phương hoặc khiến đối phương không còn nước đi.',
      sections: [
        { h: 'Bàn cờ', ps: [
          'Bàn cờ rộng 9 ô, cao 7 ô nếu phòng không chọn cỡ khác (cả hai đều lẻ, từ 5 đến 25, không bao giờ vuông). Mỗi cạnh ngắn có một khung thành nằm ngay bên ngoài, trải trên 3 hàng (hoặc cột) ở giữa.',
          'Người đi trước giữ khung thành bên trái (khung trên nếu bàn cao) và tấn công khung đối diện; người đi sau thì ngược lại.',
        ] },
        { h: 'Một nước đi', ps: [
          'Lúc đầu số 1 nằm ở ô trung tâm. Mỗi nước đặt số tiếp theo của vòng 1 → 2 → … → 19 → 1: không có số 20.',
          'Số vừa đặt là số hiện tại; ô của nó là gốc. Từ gốc, tia đi lên, xuống, sang trái hoặc phải, không bao giờ chéo, và vươn tới 1 đến k ô khi số hiện tại là k. Số tiếp theo được đặt vào bất kỳ ô nào trong đó mà đường đi còn trống.',
          'Mọi số ở lại trên bàn mãi mãi, kể cả số 1 ban đầu: nó là vật cản. Tia dừng ngay trước vật cản đầu tiên trên đường.',
        ] },
        { h: 'Khung thành', ps: [
          'Tia chỉ được rời bàn qua khung thành, và việc rời bàn tốn một bước tầm: nếu giữa gốc và mép bàn có j ô trống, khung thành nằm trong tầm khi j + 1 ≤ k, và đường thẳng của gốc phải cắt 3 vị trí của khung.',
          'Đưa tia vào khung thành đối phương là thắng ngay. Đưa tia vào khung thành của chính mình là hợp lệ, và thua ngay: trang đánh dấu khung của bạn bằng vòng đỏ và hỏi lại trước khi đi.',
        ] },
        { h: 'Kết thúc ván', ps: [
          'Khóa: nếu người đến lượt không còn nước hợp lệ nào, người vừa đi thắng. Nước vào khung nhà vẫn tính là một nước, nên người chỉ còn nước đó thì phải đi nó.',
          'Khi có đồng hồ (3+2, 5+3, 10+5 hoặc 15+10), hết giờ là thua. Xin thua hoặc bỏ ván cũng là thua. Không có hòa.',
        ] },
      ],
      walkthrough: 'Từng bước: chọn một bước để xem thay đổi',
      steps: {
        ray: ['Tia', 'Số 1 nằm ở e4. Tia của nó vươn một ô mỗi hướng: người đi trước có thể đi e5, e3, d4 hoặc f4 (các dấu chấm).'],
        range: ['Tầm và vật cản', 'Người đi trước đặt số 2 ở f4. Từ f4 tia vươn 2 ô lên, xuống và sang phải; bên trái số 1 ở e4 chặn tia ngay lập tức.'],
        blocks: ['Vật cản chồng lên', 'Sau e5, e6, d6 và d5, số 5 nằm ở d5. Tia của nó dừng trước số 4 phía trên và số 2 bên phải; đi xuống và sang trái thì vẫn vươn xa, tới cả khung thành nhà của người đi trước (vòng đỏ).'],
        cycle: ['19, rồi đến 1', '18 nước sau, số 19 nằm ở e7: tia có thể vươn 19 ô, nhưng vật cản và mép bàn chỉ còn chừa f7 và g7. Số đặt tiếp theo lại là 1: vòng bắt đầu lại, và số 1 chỉ vươn một ô.'],
        goal: ['Khung thành trong tầm', 'Sau f4 và h4, số 3 nằm ở h4. Giữa nó và mép phải có một ô trống (i4): 1 + 1 ≤ 3, và hàng 4 là hàng khung thành, nên người đi trước có thể đưa tia vào khung phải và thắng.'],
        own_goal: ['Khung thành nhà', 'Sau f4, h4, i4, số 4 nằm sát mép, trước khung phải mà người đi sau giữ. Đi vào đó là hợp lệ nhưng thua ngay: vòng đỏ đánh dấu nó, và trang hỏi lại trước.'],
        lock: ['Khóa', 'Sau e5, e6, d6, d7, f7, e7, số 7 nằm ở e7, bị vây bởi các vật cản và mép trên, nơi không có khung thành. Người đi trước không còn nước đi: người đi sau, người đặt số 7, thắng vì khóa.'],
        clock: ['Đồng hồ', 'Phòng có thể chơi với đồng hồ cờ: hai người bắt đầu với cùng thời gian và được cộng thêm sau mỗi nước của mình (ở đây 3 phút + 2 giây). Ai hết giờ trước thì thua.'],
      },
      sides: ['Người đi trước', 'Người đi sau'],
    },
  },
};
