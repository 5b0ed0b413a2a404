// Quoridor's rules page (RULES.md §2) in English and Vietnamese, with the
// tips and tactics of the product text, and its walkthrough. Each step is
// a position the server plays from `moves` with `options` (GET
// /api/position), seen as side `as` (its pawn moves marked); `show` draws
// a wall as the one about to be placed, green if the server lists it as
// legal, red if not; `points` shows the server's scoreboard points.

// Three pawns: side 1 walks from a5 to e2 and side 2 from e9 to e3, then
// side 0 boxes the file in with d1v and e1v (RULES.md §2, the blocking
// example).
const BLOCKING = [
  'pass', 'a4', 'e8', 'pass', 'a3', 'e7', 'pass', 'a2', 'e6', 'pass', 'b2', 'e5',
  'pass', 'c2', 'e4', 'pass', 'd2', 'pass', 'pass', 'e2', 'e3', 'd1v', 'pass', 'pass', 'e1v',
];

// Four pawns: Red walks up file e and wins while the others stop at
// distances 5, 6 and 8.
const SCORING = [
  'e2', 'b5', 'd9', 'pass', 'e3', 'c5', 'd8', 'pass', 'e4', 'd5', 'd7', 'pass',
  'e5', 'pass', 'pass', 'pass', 'e6', 'pass', 'pass', 'pass', 'e7', 'pass', 'pass', 'pass',
  'e8', 'pass', 'pass', 'pass', 'e9',
];

export default {
  game: 'quoridor',
  steps: [
    { id: 'steps', moves: [], as: 0 },
    { id: 'jump', moves: ['e2', 'e8', 'e3', 'e7', 'e4', 'e6', 'e5'], as: 1 },
    { id: 'diagonal', moves: ['e2', 'e8', 'e3', 'e7', 'e4', 'e6', 'e5', 'pass', 'e4h'], as: 1 },
    { id: 'walls', moves: ['e2', 'e2h'], as: 0, show: 'e2v' },
    { id: 'never_shut', moves: ['b8h', 'd8h', 'f8h', 'h8h', 'a7h', 'pass'], as: 0, show: 'a8v' },
    { id: 'blocking', moves: BLOCKING, as: 1, options: { players: 3 } },
    { id: 'centre', moves: [], as: 0, options: { players: 4, goal: 'centre' } },
    { id: 'modes', moves: [], as: 0, options: { players: 6 } },
    { id: 'scoring', moves: SCORING, as: 0, options: { players: 4 }, points: true },
    { id: 'draws', moves: ['e2', 'e8', 'e3', 'e7'], as: 0, options: { move_limit: 2 } },
  ],
  text: {
    en: {
      title: 'Quoridor',
      intro: 'Pawns race across a square board while the players slow each other down with walls. No dice, no cards: once the game starts, everything is your choice. Each turn is a small puzzle: one step nearer the goal, or one of your few walls to lengthen someone else\'s way? Walls may never shut a pawn in, so the art is to make everyone\'s way as long as possible, except yours.',
      sections: [
        { h: 'Board and turns', ps: [
          'A square board of 9 × 9 cells (the classic), 11 × 11 or 13 × 13. With two players Red starts in the middle of the bottom edge and Yellow in the middle of the top edge; each races to the opposite edge. Who moves first is drawn at random.',
          'On your turn you do exactly one thing: move your pawn, place a wall, or pass.',
        ] },
        { h: 'Pawn moves', ps: [
          'A pawn steps one cell up, down, left or right, never diagonally and never through a wall.',
          'A pawn facing another pawn may jump straight over it. If a wall, the edge of the board or another pawn stands behind it, the pawn may go diagonally beside it instead. Only one pawn is jumped at a time.',
        ] },
        { h: 'Walls', ps: [
          'A wall is two cells long and lies in the groove between cells, right up to the edge of the board. Walls may not overlap or cross; they may touch end to end or meet in a T.',
          'You may block and slow anyone, but never shut a pawn in, your own included: every pawn must keep a way to its goal, and the board only offers the walls that leave one. With no walls left you can only move or pass.',
        ] },
        { h: 'Passing and the blocking rule', ps: [
          'You may pass instead of moving; when your time per turn (15 to 90 seconds, 30 by default) runs out, the turn is simply passed.',
          'The one exception: if your pawn is blocking a pawn that has no other way to its goal, you may not pass; move or place a wall. If your time runs out while you are blocking, your pawn steps aside, towards its own goal.',
        ] },
        { h: 'Goals and the centre race', ps: [
          'The first pawn to reach any cell of the edge opposite its start wins.',
          'The host may choose the centre as the goal instead, in every mode: every pawn then starts the same number of steps from the centre cell (from the corners with 2 to 4 pawns, two per edge with 5 to 8), and the first pawn to step or jump onto the centre wins. No wall may cut any pawn off from the centre.',
        ] },
        { h: 'Modes', ps: [
          'Two players always play the classic game. With three or more, the host picks a mode.',
          'Free-for-all (the default): every player has a pawn, a colour and a number. With 3 or 4 pawns they start in the middle of the edges; with 5 to 8, up to two share an edge. On 9 × 9 each player has 7 walls with 3 players, 5 with 4, and 3 with 5 to 8; larger boards give more.',
          'Teams: Red against Yellow. Each team shares one pawn and the team\'s walls (10 on 9 × 9), and its members take the team\'s turns in order.',
          'Knockout: players are paired for classic one-against-one matches, all at the same time; winners meet in the next round until one champion remains. An odd player out gets a bye; a drawn match is replayed with the other player first, then settled by a coin toss.',
          'The host also picks the goal, the board size, the walls per player (Auto, or 1, 3, 5, 7, 10, 15 or 20) and the time per turn.',
        ] },
        { h: 'Scoring', ps: [
          'Quoridor rewards winning big, not just winning. When a pawn reaches its goal, every pawn\'s distance is measured: the fewest steps it still needs, going round the walls. The winner\'s is 0.',
          'The pawns are ranked from nearest to farthest, and each scores twice the distance at its mirror place in the ranking: the winner twice the farthest pawn\'s distance, the second twice the second farthest\'s, and so on down to the last, who scores nothing. With distances 0, 1, 4 and 9 the pawns score 18, 8, 2 and 0. Pawns at the same distance score alike, by the worse of their places.',
          'With two players the winner scores twice the loser\'s distance. In teams every member scores the team pawn\'s points. Winning because everyone else left scores 10, provided at least two moves were made. Points add up on the room\'s scoreboard over every game played there.',
        ] },
        { h: 'Draws', ps: [
          'If nobody has reached the goal after 60 moves per pawn (75 on 11 × 11, 90 on 13 × 13), the game is drawn. Passes and timed-out turns count as moves. A draw scores nothing.',
        ] },
        { h: 'Tips and tactics', ps: [
          'Count steps, not cells. A pawn\'s real distance is its shortest way round the walls. When you lead, run; when you fall behind, place walls.',
          'Place walls late, not early. A wall right in front of the leader costs the most. Early walls are easy to walk round, so keep a few for the end.',
          'Don\'t run out of walls first. A player with no walls can only move, and the opponent can build a long detour without fear of an answer.',
          'Mind the jump. Stepping right in front of another pawn lets it jump over you. Sometimes placing a wall first is the better move.',
          'Play for points. The winner scores twice the farthest pawn\'s distance, so keeping an opponent stuck far away pays even when your win is certain.',
        ] },
      ],
      walkthrough: 'Walkthrough: pick a step to see the change',
      steps: {
        steps: ['A step', 'Red starts on e1 and Yellow on e9. Red moves first here: one cell up, left or right (the dots), or a wall, or a pass.'],
        jump: ['A jump', 'After e2 e8 e3 e7 e4 e6 e5 the pawns stand face to face. Yellow on e6 may jump straight over Red to e4, or step to d6, f6 or e7.'],
        diagonal: ['A diagonal', 'Yellow passed and Red placed the wall e4h right behind itself. The straight jump to e4 is closed, so Yellow may go diagonally beside Red, to d5 or f5, besides its usual steps.'],
        walls: ['Walls', 'Yellow placed e2h, two cells long, in front of Red: Red can no longer step up and must go round. A wall may not cross or overlap another: e2v, drawn in red, would cross e2h, so it cannot be placed.'],
        never_shut: ['Never shut in', 'Walls now close rank 9 off everywhere except through a8. The wall a8v, drawn in red, would shut both pawns in, Red from its goal and Yellow from its way down, so the board does not offer it. Any wall that leaves every pawn a way is allowed.'],
        blocking: ['Pass and the blocking rule', 'Three pawns: walls d1v and e1v box Red in on e1 under pawns 2 and 3. Pawn 2 is blocking Red, who has no other way to its goal, so pawn 2 may not pass: it must move (its only step is the jump to e4) or place a wall. In any other turn a pass is allowed.'],
        centre: ['The centre race', 'With the centre as the goal, four pawns start in the corners, each 8 steps from the centre cell (the ring). The first to step or jump onto it wins, and no wall may cut anyone off from it.'],
        modes: ['Modes', 'Six players in free-for-all: two pawns share an edge, each racing to the opposite one, with 3 walls each on 9 × 9. In teams, Red and Yellow each share one pawn; in a knockout, pairs play classic matches at the same time.'],
        scoring: ['Scoring: the mirror rule', 'Red reached e9. The others are 5 (pawn 2 on d5), 6 (pawn 3 on d7) and 8 (pawn 4 on i5) steps from their goals. Mirrored: Red scores twice 8, pawn 2 twice 6, pawn 3 twice 5, and the farthest nothing: 16, 12, 10 and 0.'],
        draws: ['The draw limit', 'The game is drawn when every pawn has made 60 moves (75 on 11 × 11, 90 on 13 × 13) and nobody has arrived. Here a drill limit of 2 moves per pawn ends it after e2 e8 e3 e7.'],
      },
      sides: ['Red', 'Yellow', 'Blue', 'Green', 'Purple', 'Orange', 'Teal', 'Pink'],
    },
    vi: {
      title: 'Rào chắn',
      intro: 'Rào chắn thuộc dòng trò chơi chiến thuật trừu tượng: các quân đua nhau băng qua một bàn cờ vuông còn người chơi thì dùng tường chặn nhau. Không có xúc xắc, không có bài: khi ván đã bắt đầu, mọi thứ phụ thuộc vào lựa chọn của bạn. Mỗi lượt là một bài toán nhỏ: tiến gần đích thêm một bước, hay dùng một trong số ít bức tường của bạn để kéo dài đường đi của người khác? Tường không bao giờ được nhốt kín một quân, nên cái hay của trò chơi là làm cho đường về đích của mọi người dài nhất có thể, trừ đường của bạn.',
      sections: [
        { h: 'Bàn cờ và lượt đi', ps: [
          'Bàn cờ vuông 9 × 9 ô (cổ điển), 11 × 11 hoặc 13 × 13. Khi chơi hai người, quân đỏ xuất phát ở giữa mép dưới và quân vàng ở giữa mép trên; mỗi quân đua về mép đối diện. Người đi trước được chọn ngẫu nhiên.',
          'Đến lượt mình, bạn chỉ làm một việc: đi quân, đặt một bức tường, hoặc bỏ lượt.',
        ] },
        { h: 'Đi quân', ps: [
          'Quân đi một ô lên, xuống, sang trái hoặc sang phải, không bao giờ đi chéo và không bao giờ xuyên qua tường.',
          'Khi quân của bạn đối mặt một quân khác, bạn có thể nhảy thẳng qua nó. Nếu phía sau nó là tường, mép bàn hoặc một quân khác, bạn đi chéo sang bên cạnh nó. Mỗi lần chỉ nhảy qua một quân.',
        ] },
        { h: 'Tường', ps: [
          'Mỗi bức tường dài hai ô và đặt vào rãnh giữa các ô, sát tới mép bàn. Tường không được chồng hay cắt nhau; chúng được nối đầu nhau hoặc gặp nhau hình chữ T.',
          'Bạn có thể chặn và làm chậm bất kỳ ai, nhưng không bao giờ được nhốt kín một quân, kể cả quân của mình: mọi quân luôn phải còn một đường tới đích, và bàn cờ chỉ cho đặt những bức tường còn chừa lại đường đó. Hết tường thì bạn chỉ có thể đi quân hoặc bỏ lượt.',
        ] },
        { h: 'Bỏ lượt và luật chặn đường', ps: [
          'Bạn có thể bỏ lượt thay vì đi; nếu hết thời gian mỗi lượt (15 đến 90 giây, mặc định 30 giây) thì lượt chỉ đơn giản là được chuyển đi.',
          'Ngoại lệ duy nhất: nếu quân của bạn đang chắn đường một quân không còn lối nào khác về đích, bạn không được bỏ lượt: hãy đi quân hoặc đặt tường. Nếu hết giờ khi bạn đang chặn đường người khác, quân của bạn tự bước tránh ra, về phía đích của chính nó.',
        ] },
        { h: 'Đích và đua vào trung tâm', ps: [
          'Quân đầu tiên chạm tới bất kỳ ô nào ở mép đối diện chỗ xuất phát sẽ thắng.',
          'Chủ phòng có thể chọn đích là ô trung tâm, ở mọi chế độ: khi đó mọi quân xuất phát cách ô trung tâm cùng số bước (từ các góc khi có 2 đến 4 quân, mỗi mép hai quân khi có 5 đến 8), và quân đầu tiên bước hoặc nhảy vào ô trung tâm sẽ thắng. Không bức tường nào được chặn kín đường vào đó của bất kỳ quân nào.',
        ] },
        { h: 'Chế độ chơi', ps: [
          'Hai người luôn chơi bản cổ điển. Từ ba người trở lên, chủ phòng chọn một chế độ.',
          'Mỗi người một phe (mặc định): mỗi người có quân, màu và số riêng. Với 3 hoặc 4 quân, các quân xuất phát ở giữa các mép; từ 5 đến 8 quân, tối đa hai quân chung một mép. Trên bàn 9 × 9, mỗi người có 7 bức tường khi chơi 3 người, 5 bức khi chơi 4 người, và 3 bức khi chơi từ 5 đến 8 người; bàn lớn hơn thì nhiều tường hơn.',
          'Đấu đội: đỏ đấu vàng. Mỗi đội dùng chung một quân và số tường của đội (10 bức trên bàn 9 × 9), các thành viên thay phiên nhau đi lượt của đội theo thứ tự.',
          'Giải đấu: người chơi bắt cặp đấu các trận cổ điển một đấu một, tất cả diễn ra cùng lúc; người thắng gặp nhau ở vòng sau cho tới khi còn một nhà vô địch. Nếu số người lẻ, một người được miễn đấu một vòng; trận hòa được đấu lại với người kia đi trước, nếu lại hòa thì tung đồng xu.',
          'Chủ phòng cũng chọn đích, kích thước bàn cờ, số tường mỗi người (Tự động, hoặc 1, 3, 5, 7, 10, 15 hay 20) và thời gian mỗi lượt.',
        ] },
        { h: 'Cách tính điểm', ps: [
          'Rào chắn không chỉ thưởng cho việc thắng, mà còn cho việc thắng đậm. Khi một quân về đích, khoảng cách của mọi quân được tính: số bước ít nhất mà quân đó còn cần để về đích, đi vòng qua các bức tường. Khoảng cách của người thắng là 0.',
          'Các quân được xếp từ gần đích nhất đến xa nhất, và mỗi quân được gấp đôi khoảng cách ở vị trí đối xứng của nó trong hàng: người thắng được gấp đôi khoảng cách của quân xa nhất, quân thứ hai được gấp đôi khoảng cách của quân xa thứ hai, cứ thế đến quân cuối cùng không được điểm. Với khoảng cách 0, 1, 4 và 9, các quân được 18, 8, 2 và 0 điểm. Các quân cách đích bằng nhau được điểm như nhau, theo vị trí kém hơn trong số đó.',
          'Khi chơi hai người, người thắng được gấp đôi khoảng cách của người thua. Khi đấu đội, mỗi người được số điểm của quân thuộc đội mình. Thắng vì mọi người khác đã rời đi: 10 điểm, miễn là đã có ít nhất hai nước đi. Điểm được cộng dồn vào bảng điểm của phòng qua mọi ván chơi trong phòng đó.',
        ] },
        { h: 'Hòa', ps: [
          'Nếu sau 60 nước mỗi quân (75 trên bàn 11 × 11, 90 trên bàn 13 × 13) mà chưa ai về đích, ván đấu hòa. Lượt bỏ qua và lượt hết giờ đều được tính là nước đi. Hòa thì không có điểm.',
        ] },
        { h: 'Mẹo và chiến thuật', ps: [
          'Đếm bước, đừng đếm ô. Khoảng cách thật của một quân là đường ngắn nhất vòng qua các bức tường. Đang dẫn thì cứ chạy; đang bị bỏ lại thì đặt tường.',
          'Đặt tường muộn, đừng đặt sớm. Bức tường ngay trước mặt người dẫn đầu khiến họ thiệt nhiều nhất. Tường đặt sớm dễ bị đi vòng, nên hãy giữ vài bức cho cuối ván.',
          'Đừng hết tường trước. Người đã hết tường chỉ có thể đi quân, và đối thủ có thể dựng cả một đường vòng dài mà không sợ bị đáp trả.',
          'Cẩn thận cú nhảy. Bước ngay tới trước mặt một quân khác là cho nó nhảy qua đầu bạn. Đôi khi đặt tường trước lại là nước hay hơn.',
          'Chơi để lấy điểm. Người thắng được gấp đôi khoảng cách của quân xa nhất, nên giữ một đối thủ kẹt xa đích vẫn có lợi ngay cả khi bạn đã chắc thắng.',
        ] },
      ],
      walkthrough: 'Minh họa từng bước: chọn một bước để xem thay đổi',
      steps: {
        steps: ['Một bước', 'Quân đỏ xuất phát ở e1 và quân vàng ở e9. Ở đây đỏ đi trước: một ô lên, sang trái hoặc sang phải (các dấu chấm), hoặc đặt tường, hoặc bỏ lượt.'],
        jump: ['Nhảy', 'Sau e2 e8 e3 e7 e4 e6 e5, hai quân đối mặt nhau. Quân vàng ở e6 có thể nhảy thẳng qua quân đỏ xuống e4, hoặc bước sang d6, f6 hay e7.'],
        diagonal: ['Đi chéo', 'Vàng bỏ lượt và đỏ đặt tường e4h ngay sau lưng mình. Đường nhảy thẳng xuống e4 bị chặn, nên vàng được đi chéo sang bên cạnh quân đỏ, tới d5 hoặc f5, ngoài các bước thường.'],
        walls: ['Tường', 'Vàng đặt tường e2h, dài hai ô, ngay trước mặt đỏ: đỏ không bước lên được nữa và phải đi vòng. Tường không được cắt hay chồng lên nhau: e2v, vẽ màu đỏ, sẽ cắt e2h nên không đặt được.'],
        never_shut: ['Không được nhốt kín', 'Các bức tường giờ chặn hàng 9 ở mọi chỗ trừ lối qua a8. Bức tường a8v, vẽ màu đỏ, sẽ nhốt kín cả hai quân, đỏ không tới được đích và vàng không đi xuống được, nên bàn cờ không cho đặt. Bức tường nào còn chừa đường cho mọi quân thì đều được đặt.'],
        blocking: ['Bỏ lượt và luật chặn đường', 'Ba quân: hai tường d1v và e1v nhốt quân đỏ ở e1, dưới quân số 2 và số 3. Quân số 2 đang chặn đường quân đỏ, vốn không còn lối nào khác về đích, nên quân số 2 không được bỏ lượt: nó phải đi (bước duy nhất là nhảy lên e4) hoặc đặt tường. Ở các lượt khác thì được bỏ lượt.'],
        centre: ['Đua vào trung tâm', 'Khi đích là ô trung tâm, bốn quân xuất phát ở bốn góc, mỗi quân cách ô trung tâm (vòng tròn) 8 bước. Quân đầu tiên bước hoặc nhảy vào đó sẽ thắng, và không bức tường nào được chặn kín đường vào đó của bất kỳ ai.'],
        modes: ['Chế độ chơi', 'Sáu người, mỗi người một phe: hai quân chung một mép, mỗi quân đua về mép đối diện, mỗi người có 3 bức tường trên bàn 9 × 9. Khi đấu đội, đỏ và vàng mỗi đội dùng chung một quân; trong giải đấu, từng cặp chơi các trận cổ điển cùng lúc.'],
        scoring: ['Tính điểm: luật đối xứng', 'Quân đỏ đã tới e9. Các quân còn lại cách đích 5 (quân số 2 ở d5), 6 (quân số 3 ở d7) và 8 bước (quân số 4 ở i5). Theo luật đối xứng: đỏ được gấp đôi 8, quân số 2 gấp đôi 6, quân số 3 gấp đôi 5, quân xa nhất không được điểm: 16, 12, 10 và 0.'],
        draws: ['Giới hạn hòa', 'Ván hòa khi mọi quân đã đi 60 nước (75 trên bàn 11 × 11, 90 trên bàn 13 × 13) mà chưa ai về đích. Ở đây giới hạn luyện tập 2 nước mỗi quân kết thúc ván sau e2 e8 e3 e7.'],
      },
      sides: ['Đỏ', 'Vàng', 'Xanh dương', 'Xanh lá', 'Tím', 'Cam', 'Xanh ngọc', 'Hồng'],
    },
  },
};
