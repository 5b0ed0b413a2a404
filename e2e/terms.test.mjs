// Pure node test (no browser): the site's Vietnamese says what the seed
// texts say. For each term the seeds name (TERMS: the seed file and a
// short quote where it appears), the Vietnamese dictionary
// (web/js/i18n/vi.json) uses the seed's word in every key that names it,
// and the word it replaced (`rejected`) nowhere: not in vi.json, not in
// the Vietnamese of the rules pages (web/js/rules/text/*.json).
//
// The seeds live beside the repository, in ../shared/seeds from its root
// (../../shared/seeds from a worktree in /work/wt/NAME; SEEDS_DIR names
// another folder). When they are there, each quote is checked against its
// seed file and must hold the word; a clone alone (as CI has it) has no
// seeds, and then the dictionary is checked against this embedded list
// only, which the test says.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vi from '../web/js/i18n/vi.json' with { type: 'json' };

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CROSSYRAY = '000_1e198942fb4fe323.txt';
const QUORIDOR = '002_b3673385431ce115.txt';
const JUNGLE = '003_754a34974e4e3901.txt';

/**
 * The seeds' terms: what the term is, the seed's `word`, the seed file and
 * a `quote` of it holding the word, the vi.json `keys` that name the term,
 * and the words the site said before (`rejected`), which must be gone.
 */
const TERMS = [
  { term: 'team mode', word: 'Đấu đội', seed: QUORIDOR, quote: '• Đấu đội: đỏ đấu vàng.', keys: ['quoridor.mode.teams'], rejected: ['Đồng đội'] },
  { term: 'free-for-all', word: 'Mỗi người một phe', seed: QUORIDOR, quote: '• Mỗi người một phe (mặc định)', keys: ['quoridor.mode.ffa'], rejected: ['Mỗi người một quân'] },
  { term: 'time per turn', word: 'Thời gian mỗi lượt', seed: QUORIDOR, quote: '• Thời gian mỗi lượt: 15 đến 90 giây cho mỗi nước đi', keys: ['quoridor.turn'], rejected: ['Thời gian mỗi nước'] },
  { term: 'seconds per turn', word: 'mỗi lượt', seed: QUORIDOR, quote: 'số tường và thời gian mỗi lượt.', keys: ['quoridor.turn_s'], rejected: ['giây mỗi nước'] },
  { term: 'the computer\'s level Beginner', word: 'Mới chơi', seed: JUNGLE, quote: 'Mới chơi · Nghiệp dư · Chuyên nghiệp · Bậc thầy', keys: ['level.beginner'], rejected: ['Mới tập'] },
  { term: 'the computer\'s level Amateur', word: 'Nghiệp dư', seed: JUNGLE, quote: 'Mới chơi · Nghiệp dư · Chuyên nghiệp · Bậc thầy', keys: ['level.amateur'], rejected: [] },
  { term: 'the computer\'s level Professional', word: 'Chuyên nghiệp', seed: JUNGLE, quote: 'Mới chơi · Nghiệp dư · Chuyên nghiệp · Bậc thầy', keys: ['level.professional'], rejected: [] },
  { term: 'the computer\'s level Master', word: 'Bậc thầy', seed: JUNGLE, quote: 'Mới chơi · Nghiệp dư · Chuyên nghiệp · Bậc thầy', keys: ['level.master'], rejected: ['Cao thủ'] },
  { term: 'the computer\'s difficulty', word: 'Độ khó của máy', seed: JUNGLE, quote: '- Độ khó của máy', keys: ['solo.level'], rejected: [] },
  { term: 'the side you play', word: 'Chơi bên', seed: JUNGLE, quote: '- Chơi bên', keys: ['solo.side'], rejected: ['Phe của bạn'] },
  { term: 'Blue, first', word: 'Xanh (đi trước)', seed: JUNGLE, quote: 'Xanh (đi trước) · Đỏ (đi sau) · Ngẫu nhiên', keys: ['solo.side_blue'], rejected: [] },
  { term: 'Red, second', word: 'Đỏ (đi sau)', seed: JUNGLE, quote: 'Xanh (đi trước) · Đỏ (đi sau) · Ngẫu nhiên', keys: ['solo.side_red'], rejected: [] },
  { term: 'random side', word: 'Ngẫu nhiên', seed: JUNGLE, quote: 'Xanh (đi trước) · Đỏ (đi sau) · Ngẫu nhiên', keys: ['solo.side_random'], rejected: [] },
  {
    term: 'CrossyRay\'s goal', word: 'gôn', seed: CROSSYRAY, quote: 'Gôn nằm ngoài bàn',
    keys: ['options.square', 'game.defends', 'reason.goal', 'board.own_goal', 'board.own_goal_confirm', 'board.ask_own_goal', 'move.goal', 'board.goal', 'board.goal_side'],
    rejected: ['khung thành'],
  },
  { term: 'own goal', word: 'phản lưới', seed: CROSSYRAY, quote: 'Nếu bạn đi ra ngoài bàn qua gôn của chính mình, đó là phản lưới.', keys: ['reason.own_goal'], rejected: ['phản lưới nhà'] },
  { term: 'the lock win', word: 'thắng bằng khóa', seed: CROSSYRAY, quote: 'Thắng bằng khóa', keys: ['reason.lock'], rejected: ['bí nước'] },
  { term: 'the first player', word: 'người đi trước', seed: CROSSYRAY, quote: 'Người đi trước sử dụng tầm của số 1', keys: ['game.side0'], rejected: [] },
  { term: 'the ray', word: 'tia', seed: CROSSYRAY, quote: 'Block chặn tia', keys: ['board.cell_origin'], rejected: [] },
  { term: 'running out of time', word: 'hết giờ', seed: CROSSYRAY, quote: 'khiến đối thủ hết giờ trong chế độ có đồng hồ', keys: ['reason.timeout'], rejected: [] },
  { term: 'Quoridor\'s name', word: 'Rào chắn', seed: QUORIDOR, quote: 'Chơi Rào chắn online cùng bạn bè', keys: ['game.quoridor', 'quoridor.label', 'shop.slot.quoridor_board'], rejected: ['Quoridor'] },
  { term: 'Quoridor\'s goal', word: 'Đích', seed: QUORIDOR, quote: '• Đích: phía bên kia (bản cổ điển) hoặc ô trung tâm.', keys: ['quoridor.goal'], rejected: [] },
  { term: 'the other side (the classic goal)', word: 'phía bên kia', seed: QUORIDOR, quote: '• Đích: phía bên kia (bản cổ điển) hoặc ô trung tâm.', keys: ['quoridor.goal.edge'], rejected: ['Cạnh đối diện'] },
  { term: 'the centre cell', word: 'ô trung tâm', seed: QUORIDOR, quote: '• Đích: phía bên kia (bản cổ điển) hoặc ô trung tâm.', keys: ['quoridor.goal.centre', 'quoridor.centre'], rejected: [] },
  { term: 'the board size', word: 'Kích thước bàn cờ', seed: QUORIDOR, quote: '• Kích thước bàn cờ: 9×9 (cổ điển), 11×11 hoặc 13×13.', keys: ['quoridor.size'], rejected: [] },
  { term: 'walls per player', word: 'Số tường mỗi người', seed: QUORIDOR, quote: '• Số tường mỗi người: Tự động', keys: ['quoridor.walls'], rejected: [] },
  { term: 'automatic walls', word: 'Tự động', seed: QUORIDOR, quote: '• Số tường mỗi người: Tự động', keys: ['quoridor.walls.auto'], rejected: [] },
  { term: 'passing', word: 'bỏ lượt', seed: QUORIDOR, quote: 'Bạn có thể bỏ lượt thay vì đi', keys: ['quoridor.pass'], rejected: [] },
  { term: 'the next game starting by itself', word: 'Tự bắt đầu ván sau', seed: QUORIDOR, quote: '• Tự bắt đầu ván sau: ván tiếp theo bắt đầu 30 giây sau', keys: ['countdown.autostart'], rejected: ['Tự bắt đầu ván tiếp theo'] },
  { term: 'the tournament', word: 'Giải đấu', seed: QUORIDOR, quote: '• Giải đấu: người chơi bắt cặp đấu các trận cổ điển một đấu một', keys: ['mode.knockout', 'ko.title', 'ko.start'], rejected: [] },
  { term: 'the bye', word: 'miễn đấu', seed: QUORIDOR, quote: 'Nếu số người lẻ, một người được miễn đấu một vòng.', keys: ['ko.bye'], rejected: [] },
  { term: 'the coin toss', word: 'tung đồng xu', seed: QUORIDOR, quote: 'nếu lại hòa thì phân định bằng tung đồng xu.', keys: ['ko.coin_toss', 'ko.state.coin'], rejected: [] },
  { term: 'the champion', word: 'vô địch', seed: QUORIDOR, quote: 'cho tới khi còn một nhà vô địch', keys: ['ko.champion_title', 'ko.status.finished'], rejected: [] },
  { term: 'the host', word: 'chủ phòng', seed: QUORIDOR, quote: 'Chủ phòng cần một tài khoản miễn phí', keys: ['members.host', 'game.waiting_host', 'error.not_host'], rejected: [] },
  { term: 'spectators', word: 'người xem', seed: QUORIDOR, quote: 'có thể theo dõi với tư cách người xem', keys: ['spectators.label'], rejected: [] },
  { term: 'the invite link', word: 'liên kết mời', seed: QUORIDOR, quote: 'Chia sẻ liên kết mời, mã phòng gồm 6 ký tự hoặc mã QR của phòng.', keys: ['site.tagline', 'invite.text', 'invite.copied'], rejected: ['đường dẫn'] },
  { term: 'the room\'s QR code', word: 'mã QR của phòng', seed: QUORIDOR, quote: 'Chia sẻ liên kết mời, mã phòng gồm 6 ký tự hoặc mã QR của phòng.', keys: ['invite.qr_alt'], rejected: [] },
  { term: 'the scoreboard', word: 'bảng điểm', seed: QUORIDOR, quote: 'Điểm được cộng dồn vào bảng điểm của phòng', keys: ['scores.title'], rejected: [] },
  { term: 'a draw', word: 'Hòa', seed: QUORIDOR, quote: 'Trận hòa được đấu lại', keys: ['result.draw', 'history.res.draw'], rejected: [] },
  { term: 'voice chat', word: 'trò chuyện thoại', seed: QUORIDOR, quote: 'Có sẵn trò chuyện thoại và nhắn tin', keys: ['voice.title', 'voice.unsupported'], rejected: ['bằng giọng nói'] },
  { term: 'the move record', word: 'Biên bản', seed: JUNGLE, quote: '- Biên bản ghi mỗi nước bằng số cấp', keys: ['game.moves'], rejected: [] },
  { term: 'the river', word: 'sông', seed: JUNGLE, quote: '- Sông: b4–c6 và e4–f6', keys: ['jungle.water'], rejected: [] },
  { term: 'a trap', word: 'bẫy', seed: JUNGLE, quote: '- Bẫy: mỗi bên hang một bẫy', keys: ['jungle.trap', 'jungle.trapped'], rejected: [] },
  { term: 'the den', word: 'hang', seed: JUNGLE, quote: '- Hang: Xanh d1, Đỏ d9.', keys: ['jungle.den', 'reason.den'], rejected: [] },
  { term: 'checking in', word: 'điểm danh', seed: JUNGLE, quote: 'Nhận xu bằng cách điểm danh', keys: ['coins.checkin', 'coins.already'], rejected: [] },
  { term: 'coins', word: 'xu', seed: JUNGLE, quote: 'Nhận xu bằng cách điểm danh', keys: ['coins.balance', 'shop.price'], rejected: [] },
];

const lower = (s) => s.toLocaleLowerCase('vi');

/** Where the seeds are, or null. */
function seedsDir() {
  const candidates = [process.env.SEEDS_DIR, path.join(ROOT, '..', 'shared', 'seeds'), path.join(ROOT, '..', '..', 'shared', 'seeds')];
  return candidates.find((dir) => dir && existsSync(path.join(dir, QUORIDOR))) ?? null;
}

/** Every Vietnamese text of the rules pages, as [where, text]. */
function rulesTexts() {
  const dir = path.join(ROOT, 'web', 'js', 'rules', 'text');
  const out = [];
  const walk = (where, v) => {
    if (typeof v === 'string') out.push([where, v]);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(`${where}.${k}`, x);
  };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    walk(`${file} vi`, JSON.parse(readFileSync(path.join(dir, file), 'utf8')).vi);
  }
  return out;
}

const SEEDS = seedsDir();

test('each term\'s quote is in its seed file and holds the seed\'s word', { skip: SEEDS ? false : 'no seeds beside this clone (../shared/seeds): the dictionary is checked against the embedded list only' }, () => {
  const texts = new Map();
  for (const { term, word, seed, quote } of TERMS) {
    if (!texts.has(seed)) texts.set(seed, readFileSync(path.join(SEEDS, seed), 'utf8'));
    assert.ok(texts.get(seed).includes(quote), `${term}: "${quote}" is in ${seed}`);
    assert.ok(lower(quote).includes(lower(word)), `${term}: the quote holds "${word}"`);
  }
});

test('the Vietnamese dictionary uses the seeds\' word for each term, in every key that names it', (t) => {
  if (!SEEDS) t.diagnostic('no seeds beside this clone: checking vi.json against the list embedded in this test');
  for (const { term, word, keys } of TERMS) {
    for (const key of keys) {
      assert.ok(key in vi, `${term}: vi.json has ${key}`);
      assert.ok(lower(vi[key]).includes(lower(word)), `${term}: vi.json ${key} ("${vi[key]}") says "${word}"`);
    }
  }
});

test('the words the seeds do not use are gone from the Vietnamese, dictionary and rules pages alike', () => {
  const texts = [...Object.entries(vi).map(([k, v]) => [`vi.json ${k}`, v]), ...rulesTexts()];
  for (const { term, rejected } of TERMS) {
    for (const bad of rejected) {
      const found = texts.filter(([, v]) => lower(v).includes(lower(bad))).map(([where]) => where);
      assert.deepEqual(found, [], `${term}: "${bad}" is not the seeds' word`);
    }
  }
});
