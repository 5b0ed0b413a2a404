// Every string the user reads goes through t(key, params).
//
// Two dictionaries, English and Vietnamese. The chosen language is kept in
// localStorage under `bg.lang`; the default comes from navigator.language.
// Static markup marks translatable text with data-i18n="key" (text) and
// data-i18n-attr="attr:key;attr2:key2" (attributes); applyI18n() fills them.
// Pages that draw dynamically register a callback with onLangChange() and
// redraw through t().

const en = {
  'site.title': 'Board games with friends',
  'site.tagline': 'Create a room, share the link, play in the browser.',
  'lang.label': 'Language',
  'home.create': 'Create a room',
  'home.game': 'Game',
  'home.width': 'Width',
  'home.height': 'Height',
  'home.clock': 'Clock',
  'home.create_button': 'Create room',
  'home.creating': 'Creating…',
  'home.join': 'Join a room',
  'home.code': 'Room code',
  'home.code_placeholder': 'e.g. K7QXMP',
  'home.join_button': 'Join',
  'home.checking': 'Checking…',
  'home.bad_code': 'A room code has 6 characters from A–Z and 2–9 (no 0, O, 1, I or L).',
  'home.no_room': 'There is no room {code}.',
  'home.network_error': 'Could not reach the server. Check your connection and try again.',
  'game.crossyray': 'CrossyRay',
  'options.square': 'Width and height must differ: the goals sit on the short sides.',
  'clock.off': 'No clock',
  'clock.preset': '{m} min + {i} s',
  'room.title': 'Room {code}',
  'room.home': 'Home',
  'room.game_area': 'Game',
  'room.loading': 'Loading the room…',
  'room.not_found': 'There is no room {code}.',
  'room.back_home': 'Back to the home page',
  'conn.connecting': 'Connecting…',
  'conn.online': 'Connected',
  'conn.offline': 'Offline, reconnecting in {s} s…',
  'conn.reconnecting': 'Reconnecting…',
  'name.title': 'Your name',
  'name.prompt': 'Type a name to sit down and chat.',
  'name.placeholder': '1–24 characters',
  'name.save': 'Save',
  'name.change': 'Change name',
  'name.you_are': 'You are {name}',
  'name.bad': 'A name has 1 to 24 characters and no control characters.',
  'seats.title': 'Seats',
  'seats.seat': 'Seat {n}',
  'seats.empty': 'Empty',
  'seats.sit': 'Sit here',
  'seats.stand': 'Stand up',
  'seats.need_name': 'Type a name first',
  'members.title': 'In the room',
  'members.guest': 'Guest (no name yet)',
  'members.host': 'host',
  'members.you': 'you',
  'members.online': 'online',
  'members.offline': 'offline',
  'members.seat': 'seat {n}',
  'spectators.label': 'Spectators',
  'invite.title': 'Invite friends',
  'invite.text': 'Share this link or let them scan the code.',
  'invite.copy': 'Copy',
  'invite.copied': 'Link copied',
  'invite.copy_failed': 'Could not copy: select the link and copy it by hand.',
  'invite.qr_alt': 'QR code of the invite link',
  'game.start': 'Start the game',
  'game.waiting_seats': 'Waiting for every seat to be taken.',
  'game.waiting_host': 'Waiting for the host to start the game.',
  'game.resign': 'Resign',
  'game.resign_confirm': 'Click again to resign',
  'game.your_turn': 'Your turn',
  'game.to_move': '{name} to move',
  'game.moves': 'Moves',
  'game.move_count': 'Move {n}',
  'game.no_game': 'No game yet.',
  'game.current': 'Current number {k}: a move goes 1 to {k} steps.',
  'game.side0': 'first player',
  'game.side1': 'second player',
  'game.defends': 'defends the {side} goal',
  'result.win': '{name} wins',
  'result.you_win': 'You win!',
  'result.you_lose': 'You lose.',
  'result.draw': 'Draw',
  'result.aborted': 'Game aborted',
  'reason.goal': 'goal: the ray entered the opponent’s goal',
  'reason.own_goal': 'own goal: the loser sent the ray into their own goal',
  'reason.lock': 'lock: the opponent had no legal move',
  'reason.timeout': 'timeout: the opponent ran out of time',
  'reason.resign': 'resignation',
  'reason.abandon': 'abandon: the opponent left the game',
  'reason.default': 'by default',
  'reason.den': 'den: an animal entered the opponent’s den',
  'reason.no_moves': 'no moves: the opponent had no legal move',
  'reason.repetition': 'repetition: the same position for the third time',
  'reason.no_capture': '100 moves without a capture',
  'reason.move_limit': 'move limit',
  'reason.agreement': 'agreement',
  'result.by': 'by {reason}',
  'options.title': 'Game options',
  'options.save': 'Save options',
  'options.saved': 'Options saved',
  'options.summary': '{w} × {h}, {clock}',
  'scores.title': 'Scoreboard',
  'scores.none': 'No games finished yet.',
  'scores.name': 'Player',
  'scores.points': 'Points',
  'scores.wins': 'W',
  'scores.draws': 'D',
  'scores.losses': 'L',
  'chat.title': 'Chat',
  'chat.placeholder': 'Say something (max 300 characters)',
  'chat.need_name': 'Type a name to chat',
  'chat.send': 'Send',
  'chat.empty': 'No messages yet.',
  'board.label': 'CrossyRay board, {w} by {h}. {turn}',
  'board.help': 'Arrow keys move the cursor, Enter or Space plays the move under it, Esc clears it.',
  'board.cell_empty': '{cell}: empty',
  'board.cell_number': '{cell}: number {n}',
  'board.cell_origin': '{cell}: number {n}, the ray starts here',
  'board.legal': 'legal move',
  'board.goal': '{side} goal of {name}',
  'board.goal_side': '{side} goal',
  'side.left': 'left',
  'side.right': 'right',
  'side.top': 'top',
  'side.bottom': 'bottom',
  'board.not_your_turn': 'It is not your turn.',
  'board.not_legal': '{cell} is not a legal move.',
  'error.disconnected': 'The connection was lost; the command was not confirmed.',
  'error.timeout': 'The server did not answer in time.',
  'game.jungle': 'Jungle',
  'solo.title': 'Play the computer',
  'solo.level': 'Level',
  'solo.side': 'Your side',
  'solo.side_blue': 'Blue (moves first)',
  'solo.side_red': 'Red (moves second)',
  'solo.side_random': 'Random',
  'solo.play': 'Play',
  'level.beginner': 'Beginner',
  'level.amateur': 'Amateur',
  'level.professional': 'Professional',
  'level.master': 'Master',
  'computer.name': 'Computer ({level})',
  'computer.badge': 'computer',
  'computer.add': 'Add computer',
  'computer.remove': 'Remove computer',
  'computer.thinking': '{name} is thinking…',
  'start.order': 'First move',
  'start.random': 'Drawn at random',
  'start.seats': 'Seat 1 moves first',
  'jungle.blue': 'Blue',
  'jungle.red': 'Red',
  'jungle.blue_first': 'Blue, moves first',
  'jungle.piece': '{side} {animal} ({n})',
  'jungle.water': 'river',
  'jungle.trap': 'trap of {side}',
  'jungle.den': 'den of {side}',
  'jungle.label': 'Jungle board. {turn}',
  'jungle.help': 'Arrow keys move the cursor, Enter or Space selects an animal and then moves it to the square under the cursor, Esc deselects.',
  'jungle.hint': 'Select one of your animals, then a marked square: a dot is an empty square, a dashed ring a capture, a gold ring the den.',
  'animal.rat': 'rat',
  'animal.cat': 'cat',
  'animal.dog': 'dog',
  'animal.wolf': 'wolf',
  'animal.leopard': 'leopard',
  'animal.tiger': 'tiger',
  'animal.lion': 'lion',
  'animal.elephant': 'elephant',
  'toast.close': 'Close',
};

const vi = {
  'site.title': 'Chơi cờ cùng bạn bè',
  'site.tagline': 'Tạo phòng, gửi đường dẫn, chơi ngay trên trình duyệt.',
  'lang.label': 'Ngôn ngữ',
  'home.create': 'Tạo phòng',
  'home.game': 'Trò chơi',
  'home.width': 'Chiều rộng',
  'home.height': 'Chiều cao',
  'home.clock': 'Đồng hồ',
  'home.create_button': 'Tạo phòng',
  'home.creating': 'Đang tạo…',
  'home.join': 'Vào phòng',
  'home.code': 'Mã phòng',
  'home.code_placeholder': 'ví dụ K7QXMP',
  'home.join_button': 'Vào',
  'home.checking': 'Đang kiểm tra…',
  'home.bad_code': 'Mã phòng gồm 6 ký tự từ A–Z và 2–9 (không có 0, O, 1, I, L).',
  'home.no_room': 'Không có phòng {code}.',
  'home.network_error': 'Không kết nối được máy chủ. Hãy kiểm tra mạng rồi thử lại.',
  'game.crossyray': 'CrossyRay',
  'options.square': 'Chiều rộng và chiều cao phải khác nhau: khung thành nằm ở cạnh ngắn.',
  'clock.off': 'Không tính giờ',
  'clock.preset': '{m} phút + {i} giây',
  'room.title': 'Phòng {code}',
  'room.home': 'Trang chủ',
  'room.game_area': 'Ván cờ',
  'room.loading': 'Đang tải phòng…',
  'room.not_found': 'Không có phòng {code}.',
  'room.back_home': 'Về trang chủ',
  'conn.connecting': 'Đang kết nối…',
  'conn.online': 'Đã kết nối',
  'conn.offline': 'Mất kết nối, thử lại sau {s} giây…',
  'conn.reconnecting': 'Đang kết nối lại…',
  'name.title': 'Tên của bạn',
  'name.prompt': 'Nhập tên để ngồi vào ghế và trò chuyện.',
  'name.placeholder': '1–24 ký tự',
  'name.save': 'Lưu',
  'name.change': 'Đổi tên',
  'name.you_are': 'Bạn là {name}',
  'name.bad': 'Tên có từ 1 đến 24 ký tự và không chứa ký tự điều khiển.',
  'seats.title': 'Ghế',
  'seats.seat': 'Ghế {n}',
  'seats.empty': 'Trống',
  'seats.sit': 'Ngồi đây',
  'seats.stand': 'Đứng dậy',
  'seats.need_name': 'Hãy nhập tên trước',
  'members.title': 'Trong phòng',
  'members.guest': 'Khách (chưa có tên)',
  'members.host': 'chủ phòng',
  'members.you': 'bạn',
  'members.online': 'trực tuyến',
  'members.offline': 'ngoại tuyến',
  'members.seat': 'ghế {n}',
  'spectators.label': 'Người xem',
  'invite.title': 'Mời bạn bè',
  'invite.text': 'Gửi đường dẫn này hoặc cho bạn quét mã.',
  'invite.copy': 'Sao chép',
  'invite.copied': 'Đã sao chép đường dẫn',
  'invite.copy_failed': 'Không sao chép được: hãy chọn đường dẫn và tự sao chép.',
  'invite.qr_alt': 'Mã QR của đường dẫn mời',
  'game.start': 'Bắt đầu ván',
  'game.waiting_seats': 'Đang chờ đủ người ngồi.',
  'game.waiting_host': 'Đang chờ chủ phòng bắt đầu ván.',
  'game.resign': 'Xin thua',
  'game.resign_confirm': 'Bấm lần nữa để xin thua',
  'game.your_turn': 'Đến lượt bạn',
  'game.to_move': 'Lượt của {name}',
  'game.moves': 'Nước đi',
  'game.move_count': 'Nước {n}',
  'game.no_game': 'Chưa có ván nào.',
  'game.current': 'Số hiện tại {k}: mỗi nước đi từ 1 đến {k} ô.',
  'game.side0': 'người đi trước',
  'game.side1': 'người đi sau',
  'game.defends': 'giữ khung thành {side}',
  'result.win': '{name} thắng',
  'result.you_win': 'Bạn thắng!',
  'result.you_lose': 'Bạn thua.',
  'result.draw': 'Hòa',
  'result.aborted': 'Ván bị hủy',
  'reason.goal': 'vào khung thành: tia đi vào khung thành đối phương',
  'reason.own_goal': 'phản lưới nhà: người thua đưa tia vào khung thành của mình',
  'reason.lock': 'bí nước: đối phương không còn nước đi hợp lệ',
  'reason.timeout': 'hết giờ: đối phương hết thời gian',
  'reason.resign': 'xin thua',
  'reason.abandon': 'bỏ cuộc: đối phương rời ván',
  'reason.default': 'xử thắng',
  'reason.den': 'vào hang: một con vật đã vào hang đối phương',
  'reason.no_moves': 'hết nước: đối phương không còn nước đi hợp lệ',
  'reason.repetition': 'lặp lại: cùng một thế cờ lần thứ ba',
  'reason.no_capture': '100 nước liền không ăn quân',
  'reason.move_limit': 'giới hạn nước',
  'reason.agreement': 'thỏa thuận',
  'result.by': 'do {reason}',
  'options.title': 'Tùy chọn ván',
  'options.save': 'Lưu tùy chọn',
  'options.saved': 'Đã lưu tùy chọn',
  'options.summary': '{w} × {h}, {clock}',
  'scores.title': 'Bảng điểm',
  'scores.none': 'Chưa có ván nào kết thúc.',
  'scores.name': 'Người chơi',
  'scores.points': 'Điểm',
  'scores.wins': 'T',
  'scores.draws': 'H',
  'scores.losses': 'B',
  'chat.title': 'Trò chuyện',
  'chat.placeholder': 'Nhắn gì đó (tối đa 300 ký tự)',
  'chat.need_name': 'Nhập tên để trò chuyện',
  'chat.send': 'Gửi',
  'chat.empty': 'Chưa có tin nhắn.',
  'board.label': 'Bàn CrossyRay, {w} x {h}. {turn}',
  'board.help': 'Phím mũi tên di chuyển con trỏ, Enter hoặc Space đi nước tại con trỏ, Esc để bỏ.',
  'board.cell_empty': '{cell}: trống',
  'board.cell_number': '{cell}: số {n}',
  'board.cell_origin': '{cell}: số {n}, tia xuất phát từ đây',
  'board.legal': 'nước hợp lệ',
  'board.goal': 'khung thành {side} của {name}',
  'board.goal_side': 'khung thành {side}',
  'side.left': 'trái',
  'side.right': 'phải',
  'side.top': 'trên',
  'side.bottom': 'dưới',
  'board.not_your_turn': 'Chưa đến lượt bạn.',
  'board.not_legal': '{cell} không phải nước đi hợp lệ.',
  'error.disconnected': 'Mất kết nối; lệnh chưa được xác nhận.',
  'error.timeout': 'Máy chủ không trả lời kịp.',
  'game.jungle': 'Cờ thú',
  'solo.title': 'Chơi với máy',
  'solo.level': 'Trình độ',
  'solo.side': 'Phe của bạn',
  'solo.side_blue': 'Xanh (đi trước)',
  'solo.side_red': 'Đỏ (đi sau)',
  'solo.side_random': 'Ngẫu nhiên',
  'solo.play': 'Chơi',
  'level.beginner': 'Mới tập',
  'level.amateur': 'Nghiệp dư',
  'level.professional': 'Chuyên nghiệp',
  'level.master': 'Cao thủ',
  'computer.name': 'Máy ({level})',
  'computer.badge': 'máy',
  'computer.add': 'Thêm máy',
  'computer.remove': 'Bỏ máy',
  'computer.thinking': '{name} đang nghĩ…',
  'start.order': 'Đi trước',
  'start.random': 'Bốc thăm ngẫu nhiên',
  'start.seats': 'Ghế 1 đi trước',
  'jungle.blue': 'Xanh',
  'jungle.red': 'Đỏ',
  'jungle.blue_first': 'Xanh, đi trước',
  'jungle.piece': '{animal} {side} ({n})',
  'jungle.water': 'sông',
  'jungle.trap': 'bẫy của {side}',
  'jungle.den': 'hang của {side}',
  'jungle.label': 'Bàn cờ thú. {turn}',
  'jungle.help': 'Phím mũi tên di chuyển con trỏ, Enter hoặc Space chọn một con vật rồi đi tới ô dưới con trỏ, Esc bỏ chọn.',
  'jungle.hint': 'Chọn một con vật của bạn, rồi một ô được đánh dấu: chấm là ô trống, vòng nét đứt là ăn quân, vòng vàng là hang.',
  'animal.rat': 'chuột',
  'animal.cat': 'mèo',
  'animal.dog': 'chó',
  'animal.wolf': 'sói',
  'animal.leopard': 'báo',
  'animal.tiger': 'hổ',
  'animal.lion': 'sư tử',
  'animal.elephant': 'voi',
  'toast.close': 'Đóng',
};

export const dictionaries = { en, vi };
export const languages = [
  { code: 'en', label: 'English' },
  { code: 'vi', label: 'Tiếng Việt' },
];

const STORAGE_KEY = 'bg.lang';
const listeners = new Set();

function initialLang() {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (stored && dictionaries[stored]) return stored;
  } catch { /* storage may be blocked */ }
  const nav = (navigator.language || 'en').toLowerCase();
  return nav.startsWith('vi') ? 'vi' : 'en';
}

let current = initialLang();

export function lang() {
  return current;
}

export function setLang(code) {
  if (!dictionaries[code] || code === current) return;
  current = code;
  try { localStorage.setItem(STORAGE_KEY, code); } catch { /* ignore */ }
  document.documentElement.lang = code;
  applyI18n(document);
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Translate `key`, replacing `{name}` placeholders from `params`. */
export function t(key, params = {}) {
  const text = dictionaries[current][key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, p) => (p in params ? String(params[p]) : m));
}

/** Fill every [data-i18n] and [data-i18n-attr] under `root`. */
export function applyI18n(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) {
    el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of el.dataset.i18nAttr.split(';')) {
      const [attr, key] = pair.split(':').map((s) => s.trim());
      if (attr && key) el.setAttribute(attr, t(key));
    }
  }
}

/** Wire a <select> as the language switch and translate the page. */
export function initI18n(select) {
  document.documentElement.lang = current;
  if (select) {
    select.replaceChildren(
      ...languages.map(({ code, label }) => {
        const o = document.createElement('option');
        o.value = code;
        o.textContent = label;
        return o;
      }),
    );
    select.value = current;
    select.addEventListener('change', () => setLang(select.value));
  }
  applyI18n(document);
}
