// Jungle's rules page (RULES.md §3) in English and Vietnamese, and its
// walkthrough. Each step is a position the server plays (GET
// /api/position): `moves` from the start, or from the position string
// `options.start`; seen as side `as`, with the moves of the animal on
// `show` marked.

// Positions set up for a step (RULES.md §3, "Position string"): only the
// animals the step is about.
const START = 'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L';

export default {
  game: 'jungle',
  steps: [
    { id: 'ranks', moves: [], as: 0, show: 'a3' },
    { id: 'capture', moves: [], as: 0, show: 'c7', options: { start: '7/2p4/1wPt3/7/7/7/7/7/7 b 0 1' } },
    { id: 'rat_elephant', moves: [], as: 0, show: 'd5', options: { start: '7/7/7/3e2r/3R2E/7/7/7/7 b 0 1' } },
    { id: 'water', moves: [], as: 0, show: 'c5', options: { start: '7/7/7/7/2Re3/7/7/7/7 b 0 1' } },
    { id: 'jump', moves: [], as: 0, show: 'd5', options: { start: '7/7/7/7/3L2t/7/7/7/7 b 0 1' } },
    { id: 'jump_blocked', moves: [], as: 0, show: 'd5', options: { start: '7/7/7/7/2rL2t/7/7/7/7 b 0 1' } },
    { id: 'traps', moves: [], as: 0, show: 'd3', options: { start: '7/7/7/7/7/7/3C3/3e3/7 b 0 1' } },
    { id: 'den', moves: [], as: 0, show: 'd8', options: { start: '2d4/3R3/7/7/7/7/7/7/l6 b 0 1' } },
    { id: 'shuttle', moves: ['8 a3-a4', '8 g7-g6', '8 a4-a3', '8 g6-g7', '8 a3-a4', '8 g7-g6'], as: 0, show: 'a4' },
    { id: 'repetition', moves: ['8 a3-a4', '8 g7-g6', '8 a4-a3', '8 g6-g7', '6 a1-b1', '6 g9-f9', '6 b1-a1', '6 f9-g9'], as: 0 },
    { id: 'no_capture', moves: ['8 a3-a4', '8 g7-g6'], as: 0, options: { start: `${START} b 98 50` } },
    { id: 'rat_faq', moves: [], as: 0, show: 'd5', options: { start: '7/7/3C3/3r3/3E3/7/7/7/7 b 0 1' } },
  ],
  text: {
    en: {
      title: 'Jungle',
      intro: 'Jungle chess (Dou Shou Qi) for two: eight animals a side, ranked from the rat to the elephant, cross a board with two rivers. The first animal to walk into the enemy den wins.',
      sections: [
        { h: 'Board', ps: [
          '7 files (a to g) and 9 ranks. Blue sits at rank 1 and moves first; Red sits at rank 9.',
          'Two rivers of 2 × 3 squares lie in the middle, b4 to c6 and e4 to f6. Each side has a den in the middle of its back rank (Blue d1, Red d9) and three traps around it (Blue c1, e1, d2; Red c9, e9, d8).',
        ] },
        { h: 'Animals', ps: [
          'Each side has 8 animals; the number in the top-right corner of a piece is its rank: elephant 8, lion 7, tiger 6, leopard 5, wolf 4, dog 3, cat 2, rat 1.',
          'Start: Blue tiger a1, lion g1, cat b2, dog f2, elephant a3, wolf c3, leopard e3, rat g3; Red is the same turned round (180°).',
        ] },
        { h: 'Moving and capturing', ps: [
          'An animal moves one square up, down, left or right, never diagonally, onto an empty square or onto an enemy it may capture. It never enters its own den.',
          'An animal captures an enemy of equal or lower rank. The one exception: the rat captures the elephant, and the elephant cannot capture the rat.',
          'Only the rat may enter the water. Water and land never capture each other: a rat in the water cannot take anything on land, and nothing on land can take it. Two rats in the water may take each other.',
        ] },
        { h: 'River jumps', ps: [
          'The lion and the tiger may jump straight across a river, from one bank to the first square on the far bank: over 2 water squares across or 3 along. They land on an empty square or capture there by the usual ranks.',
          'A rat of either side in the water on the path blocks the jump.',
        ] },
        { h: 'Traps and dens', ps: [
          'An enemy animal on one of your traps can be taken by any of your animals, whatever its rank. It still captures by its own rank when it moves. On its own side\'s traps an animal keeps its rank.',
          'An animal that enters the enemy den wins the game at once.',
        ] },
        { h: 'End of the game', ps: [
          'A side with no legal move on its turn loses.',
          'No endless shuttling: if in its last three moves one animal went back and forth between the same two squares (A→B, B→A, A→B), it may not go back to A on this turn. Anything else may move; if the ban leaves the side no move, it loses.',
          'The same position with the same side to move for the third time is a draw, and so is 100 moves in all (50 each) without a capture. A move that wins outright still wins.',
          'With the clock on (3+2, 5+3, 10+5 or 15+10), running out of time loses. Resigning or leaving the game loses too.',
        ] },
        { h: 'Reading the moves', ps: [
          'The move list shows each move as the animal with its squares: 🐘 a3-a4 is the elephant from a3 to a4, 🦁 a4×d4 the lion jumping from a4 to capture on d4. Exported games write the rank number instead: 8 a3-a4, 7 a4xd4.',
        ] },
      ],
      walkthrough: 'Walkthrough: pick a step to see the change',
      steps: {
        ranks: ['Ranks', 'The number in the top-right corner of each piece is its rank: elephant 8, lion 7, tiger 6, leopard 5, wolf 4, dog 3, cat 2, rat 1. Blue moves first; the dots show where Blue\'s elephant on a3 may go: one square up, down, left or right, never diagonally.'],
        capture: ['Bigger takes smaller', 'An animal takes an enemy of equal or lower rank. Blue\'s leopard (5) on c7 may take the wolf (4) on b7 or the leopard (5) on c8 (the rings), not the tiger (6) on d7. The river below it is closed to it.'],
        rat_elephant: ['Rat and elephant', 'The one exception to the ranks: the rat (1) takes the elephant (8), and the elephant cannot take the rat. Blue\'s rat on d5 may take Red\'s elephant on d6, while Blue\'s elephant on g5 cannot take Red\'s rat on g6.'],
        water: ['Water', 'Only the rat may swim. Water and land never capture each other: from c5 Blue\'s rat cannot take Red\'s elephant on d5, and nothing on land can take the rat while it is in the river. It leaves the water only onto an empty square.'],
        jump: ['River jumps', 'The lion and the tiger jump straight across a river, bank to bank: 2 water squares across, 3 along. Blue\'s lion on d5 may jump to a5, or to g5, where it takes Red\'s tiger (6).'],
        jump_blocked: ['A rat blocks the jump', 'A rat of either side in the water on the path blocks the jump: with Red\'s rat on c5 the lion can no longer jump to a5. The other river is clear, so it may still take the tiger on g5.'],
        traps: ['Traps', 'An enemy on your trap loses its rank: any of your animals can take it. Red\'s elephant on d2, Blue\'s trap, has the red ring, and Blue\'s cat takes it: 2 d3xd2. On its own side\'s traps an animal keeps its rank.'],
        den: ['The den', 'Walking into the enemy den wins at once: Blue\'s rat on d8 may play 1 d8-d9 (the gold ring). No animal may enter its own den.'],
        shuttle: ['No endless shuttling', 'Blue\'s elephant went a3-a4, a4-a3, a3-a4 in its last three moves, so it may not go back to a3 now: its only move is a5. Every other animal may move, and the ban lasts this one turn. If the ban left a side no move at all, that side would lose.'],
        repetition: ['Repetition', 'Both elephants went out and back, then both tigers: the start position has come up for the third time with Blue to move, so the game is drawn.'],
        no_capture: ['100 moves without a capture', '100 moves in all (50 each) without a capture draw the game; a capture starts the count again. This game began with 98 such moves already played: 8 a3-a4 made 99, and 8 g7-g6 made 100.'],
        rat_faq: ['FAQ: a rat next to my elephant', 'Can my elephant take the enemy rat that came ashore next to it? No: Red\'s rat on d6 can take Blue\'s elephant, and the elephant cannot take it (no ring on d6). Move the elephant away first, or take the rat with another animal: the cat plays 2 d7xd6. A rat in the river is safe from animals on land, but cannot take an elephant on land either. Before a lion or tiger jumps, look for a rat in the water on its path.'],
      },
      sides: ['Blue', 'Red'],
    },
    vi: {
      title: 'Cờ thú',
      intro: 'Cờ thú (Đấu thú kỳ) cho hai người: mỗi bên tám con thú, xếp cấp từ chuột đến voi, băng qua một bàn cờ có hai khúc sông. Con thú đầu tiên vào được hang đối phương sẽ thắng.',
      sections: [
        { h: 'Bàn cờ', ps: [
          '7 cột (a đến g) và 9 hàng. Xanh ngồi ở hàng 1 và đi trước; Đỏ ngồi ở hàng 9.',
          'Hai khúc sông 2 × 3 ô nằm ở giữa, từ b4 đến c6 và từ e4 đến f6. Mỗi bên có một hang ở giữa hàng cuối (Xanh d1, Đỏ d9) và ba bẫy quanh hang (Xanh c1, e1, d2; Đỏ c9, e9, d8).',
        ] },
        { h: 'Các con thú', ps: [
          'Mỗi bên có 8 con thú; số ở góc trên bên phải quân cờ là cấp: voi 8, sư tử 7, hổ 6, báo 5, sói 4, chó 3, mèo 2, chuột 1.',
          'Thế khai cuộc: hổ Xanh ở a1, sư tử g1, mèo b2, chó f2, voi a3, sói c3, báo e3, chuột g3; bên Đỏ đặt đối xứng xoay 180°.',
        ] },
        { h: 'Đi và ăn quân', ps: [
          'Mỗi nước, một con thú đi một ô lên, xuống, sang trái hoặc sang phải, không bao giờ đi chéo, vào ô trống hoặc vào ô có thú đối phương mà nó ăn được. Không con nào được vào hang của mình.',
          'Lớn ăn nhỏ, cùng cấp ăn nhau. Ngoại lệ duy nhất: chuột ăn được voi, còn voi không ăn được chuột.',
          'Chỉ chuột được xuống sông. Dưới nước và trên bờ không ăn nhau: chuột dưới sông không ăn được gì trên bờ, và không con nào trên bờ ăn được nó. Hai con chuột dưới sông thì ăn được nhau.',
        ] },
        { h: 'Nhảy sông', ps: [
          'Sư tử và hổ được nhảy thẳng qua sông, từ bờ này sang ô đầu tiên ở bờ kia: qua 2 ô nước theo chiều ngang hoặc 3 ô theo chiều dọc. Chúng đáp xuống ô trống, hoặc ăn quân ở đó theo cấp như thường.',
          'Nếu trên đường nhảy có chuột (bên nào cũng vậy) dưới sông thì không được nhảy.',
        ] },
        { h: 'Bẫy và hang', ps: [
          'Thú đối phương đứng trong bẫy của bạn bị bất kỳ con thú nào của bạn ăn được, bất kể cấp. Nó vẫn ăn quân theo đúng cấp của mình khi đi. Đứng trong bẫy của phe mình thì con thú vẫn giữ nguyên cấp.',
          'Con thú nào vào được hang đối phương thì thắng ngay.',
        ] },
        { h: 'Kết thúc ván', ps: [
          'Đến lượt mà không còn nước đi hợp lệ nào thì thua.',
          'Không được đi qua đi lại mãi: nếu trong ba nước gần nhất, một con thú đã đi qua lại giữa cùng hai ô (A→B, B→A, A→B), thì lượt này nó không được quay lại A. Mọi nước khác vẫn được đi; nếu vì thế mà hết nước đi thì bị xử thua.',
          'Cùng một thế cờ (cùng bên đi) xuất hiện ba lần thì hòa; tổng cộng 100 nước (mỗi bên 50 nước) không ăn quân cũng hòa. Nước đi thắng ngay thì vẫn thắng.',
          'Khi có đồng hồ (3+2, 5+3, 10+5 hoặc 15+10), hết giờ là thua. Xin thua hoặc bỏ ván cũng là thua.',
        ] },
        { h: 'Đọc biên bản', ps: [
          'Biên bản ghi mỗi nước bằng hình con thú cùng ô đi và ô đến: 🐘 a3-a4 là voi đi từ a3 đến a4, 🦁 a4×d4 là sư tử nhảy từ a4 ăn quân ở d4. Ván đấu tải xuống ghi số cấp thay cho hình: 8 a3-a4, 7 a4xd4.',
        ] },
      ],
      walkthrough: 'Minh họa từng bước: chọn một bước để xem thay đổi',
      steps: {
        ranks: ['Cấp', 'Số ở góc trên bên phải mỗi quân là cấp: voi 8, sư tử 7, hổ 6, báo 5, sói 4, chó 3, mèo 2, chuột 1. Xanh đi trước; các dấu chấm là những ô voi Xanh ở a3 có thể đi: một ô lên, xuống, sang trái hoặc phải, không đi chéo.'],
        capture: ['Lớn ăn nhỏ', 'Một con thú ăn được thú đối phương cùng cấp hoặc cấp thấp hơn. Báo Xanh (5) ở c7 ăn được sói (4) ở b7 hoặc báo (5) ở c8 (các vòng), nhưng không ăn được hổ (6) ở d7. Nó cũng không được xuống sông phía dưới.'],
        rat_elephant: ['Chuột và voi', 'Ngoại lệ duy nhất về cấp: chuột (1) ăn được voi (8), còn voi không ăn được chuột. Chuột Xanh ở d5 ăn được voi Đỏ ở d6, trong khi voi Xanh ở g5 không ăn được chuột Đỏ ở g6.'],
        water: ['Sông', 'Chỉ chuột được xuống sông. Dưới nước và trên bờ không ăn nhau: từ c5, chuột Xanh không ăn được voi Đỏ ở d5, và không con nào trên bờ ăn được chuột khi nó còn ở dưới sông. Nó chỉ lên bờ vào ô trống.'],
        jump: ['Nhảy sông', 'Sư tử và hổ nhảy thẳng qua sông, từ bờ này sang bờ kia: qua 2 ô nước theo chiều ngang, 3 ô theo chiều dọc. Sư tử Xanh ở d5 nhảy được sang a5, hoặc sang g5 và ăn hổ Đỏ (6) ở đó.'],
        jump_blocked: ['Chuột chặn đường nhảy', 'Chuột (bên nào cũng vậy) ở dưới sông trên đường nhảy sẽ chặn cú nhảy: có chuột Đỏ ở c5 nên sư tử không nhảy sang a5 được nữa. Khúc sông bên kia trống, nên nó vẫn ăn được hổ ở g5.'],
        traps: ['Bẫy', 'Thú đối phương trong bẫy của bạn mất cấp: con nào của bạn cũng ăn được nó. Voi Đỏ ở d2, bẫy của Xanh, được khoanh vòng đỏ, và mèo Xanh ăn nó: 2 d3xd2. Trong bẫy của phe mình thì con thú vẫn giữ cấp.'],
        den: ['Hang', 'Vào hang đối phương là thắng ngay: chuột Xanh ở d8 có thể đi 1 d8-d9 (vòng vàng). Không con nào được vào hang của mình.'],
        shuttle: ['Không đi qua lại mãi', 'Ba nước gần nhất, voi Xanh đã đi a3-a4, a4-a3, a3-a4, nên lượt này nó không được quay lại a3: nó chỉ còn đi được a5. Mọi con khác vẫn đi được, và lệnh cấm chỉ kéo dài lượt này. Nếu vì lệnh cấm mà hết nước đi thì bên đó thua.'],
        repetition: ['Lặp lại', 'Hai con voi đi ra rồi đi về, rồi hai con hổ cũng vậy: thế khai cuộc xuất hiện lần thứ ba với Xanh đi, nên ván hòa.'],
        no_capture: ['100 nước không ăn quân', 'Tổng cộng 100 nước (mỗi bên 50) không ăn quân thì hòa; một nước ăn quân tính lại từ đầu. Ván này bắt đầu khi đã có 98 nước như thế: 8 a3-a4 là nước thứ 99, và 8 g7-g6 là nước thứ 100.'],
        rat_faq: ['Hỏi đáp: chuột cạnh voi', 'Khi chuột đối phương lên bờ đứng cạnh voi, voi có ăn được chuột không? Không: chuột Đỏ ở d6 ăn được voi Xanh, còn voi không ăn được nó (d6 không có vòng). Hãy cho voi tránh đi trước, hoặc dùng con thú khác ăn con chuột: mèo đi 2 d7xd6. Chuột đã xuống sông thì an toàn vì thú trên bờ không ăn được nó, nhưng nó cũng không ăn được voi trên bờ. Trước khi cho sư tử, hổ nhảy sông, hãy xem trên đường có chuột dưới sông không.'],
      },
      sides: ['Xanh', 'Đỏ'],
    },
  },
};
