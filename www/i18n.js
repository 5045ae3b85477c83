// Every string a person sees or hears, in English and Simplified Chinese.
//
// Code asks `t(key, params)`; static HTML carries `data-i18n` (text),
// `data-i18n-aria` (aria-label) and `data-i18n-title` (title) attributes that
// `applyI18n` fills. The language comes from a saved choice, else from
// navigator.languages, else English; a missing key falls back to English so a
// forgotten translation never shows a raw key.

const STORAGE_KEY = 'uttt.lang';

/** The languages offered, with their names in their own language. */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'zh-CN', name: '简体中文' },
];

const en = {
  // ---- page and layout ----
  'app.title': 'Ultimate Tic-Tac-Toe',
  'app.tagline': 'Nine boards, one game.',
  'skip.board': 'Skip to the board',
  'lang.label': 'Language',
  'theme.label': 'Theme',
  // ---- regions and cells (board/cell names in reading order) ----
  'region.0': 'top-left',
  'region.1': 'top',
  'region.2': 'top-right',
  'region.3': 'left',
  'region.4': 'centre',
  'region.5': 'right',
  'region.6': 'bottom-left',
  'region.7': 'bottom',
  'region.8': 'bottom-right',
  'board.label': '{board} board',
  'board.label.won': '{board} board, won by {player}',
  'board.label.drawn': '{board} board, drawn',
  'board.label.playable': '{board} board, playable',
  'bigboard.label': 'Ultimate board',
  'classicboard.label': 'Board',
  'cell.label': '{board} board, {cell} cell, {content}',
  'cell.label.classic': '{cell} cell, {content}',
  'cell.x': 'X',
  'cell.o': 'O',
  'cell.empty': 'empty',
  'cell.playable': 'playable',
  'cell.label.playable': '{board} board, {cell} cell, {content}, playable',
  'cell.label.classic.playable': '{cell} cell, {content}, playable',
  // ---- status line ----
  'status.turn': '{player} to play',
  'status.mustPlay': '{player} must play in the {board} board',
  'status.anyBoard': '{player} may play in any open board',
  'status.yourTurn': 'Your turn ({player})',
  'status.thinking': 'The AI is thinking…',
  'status.win': '{player} wins!',
  'status.draw': 'Draw.',
  'status.youWin': 'You win!',
  'status.youLose': 'The AI wins.',
  'status.refused.thinking': 'Wait: the AI is thinking.',
  'status.refused.wrongBoard': 'Not there: the move must be in the {board} board.',
  'status.refused.taken': 'That cell is already taken.',
  'status.refused.decided': 'That board is already decided.',
  'status.refused.over': 'The game is over. Start a new game.',
  'status.refused.review': 'You are looking at an earlier position.',
  'status.workerFailed': 'The AI stopped working; restarting it. Your game is safe.',
  'status.storageReset': 'Saved data could not be read and was set aside; a new game has started.',
  'status.restored': 'Your game was restored.',
  // ---- announcements (live region) ----
  'announce.move': '{player} played {move}: {board} board, {cell} cell.',
  'announce.moveClassic': '{player} played {move}: {cell} cell.',
  'announce.aiMove': 'The AI ({player}) played {move}: {board} board, {cell} cell.',
  'announce.aiMoveClassic': 'The AI ({player}) played {move}: {cell} cell.',
  'announce.boardWon': '{player} won the {board} board.',
  'announce.boardDrawn': 'The {board} board is drawn.',
  'announce.position': 'Showing the position after move {ply} of {length}.',
  'announce.start': 'Showing the start position.',
  // ---- controls ----
  'btn.newGame': 'New game',
  'btn.undo': 'Undo',
  'btn.redo': 'Redo',
  'btn.hint': 'Hint',
  'btn.copyLink': 'Copy link',
  'btn.import': 'Import',
  'btn.export': 'Export',
  'btn.close': 'Close',
  'btn.cancel': 'Cancel',
  'btn.ok': 'OK',
  'btn.replay': 'Replay',
  'btn.continue': 'Continue from here',
  'btn.backToGame': 'Back to the game',
  'btn.clearHistory': 'Clear history',
  'btn.reload': 'Reload',
  'btn.first': 'First move',
  'btn.prev': 'Previous move',
  'btn.next': 'Next move',
  'btn.last': 'Last move',
  'shortcut.hint': 'Shortcuts: U undo, R redo, N new game; in the move list ← → Home End.',
  // ---- settings ----
  'settings.title': 'Settings',
  'settings.gameType': 'Game',
  'settings.ultimate': 'Ultimate',
  'settings.classic': 'Classic',
  'settings.mode': 'Mode',
  'settings.mode.ai': 'Versus the AI',
  'settings.mode.human': 'Two players',
  'settings.mode.watch': 'AI versus AI',
  'settings.side': 'You play',
  'settings.level': 'AI level',
  'settings.rules': 'Rules',
  'settings.rules.standard': 'Standard',
  'settings.rules.tiebreak': 'Tie-break',
  'settings.showEval': 'Show evaluation bar',
  'settings.showHint': 'Show hint button',
  'level.beginner': 'Beginner',
  'level.easy': 'Easy',
  'level.medium': 'Medium',
  'level.hard': 'Hard',
  'level.master': 'Master',
  // ---- scores ----
  'scores.title': 'Scores',
  'scores.xWins': 'X wins',
  'scores.oWins': 'O wins',
  'scores.draws': 'Draws',
  // ---- review ----
  'review.title': 'Moves',
  'review.listLabel': 'Move list',
  'review.empty': 'No moves yet.',
  'review.moveLabel': 'Move {n}, {player} {move}',
  'review.browsing': 'Reviewing move {ply} of {length}. Play a move to continue from here.',
  'review.atStart': 'Reviewing the start position.',
  'review.branchConfirm': 'Playing here drops the {count} later move(s). Continue?',
  'review.branchTitle': 'Continue from an earlier position?',
  'review.shared': 'Opened a shared game: {count} moves. Browse it or play on.',
  // ---- evaluation and hint ----
  'eval.label': 'Evaluation',
  'eval.even': 'Even',
  'eval.xAhead': 'X is ahead ({score})',
  'eval.oAhead': 'O is ahead ({score})',
  'eval.xMate': 'X wins in {n}',
  'eval.oMate': 'O wins in {n}',
  'eval.depth': 'depth {depth}',
  'hint.thinking': 'Looking for a good move…',
  'hint.result': 'Hint: {move} ({board} board, {cell} cell).',
  'hint.resultClassic': 'Hint: {move} ({cell} cell).',
  'hint.unavailable': 'No hint available now.',
  // ---- share ----
  'share.title': 'Share',
  'share.copied': 'Link copied.',
  'share.copyFailed': 'Could not copy; the link is shown below.',
  'share.linkLabel': 'Link to this game',
  'share.recordLabel': 'Game record',
  'share.importLabel': 'Paste a game record',
  'share.imported': 'Game imported: {count} moves.',
  'share.badLink': 'The link holds no valid game ({error}). Your current game is unchanged.',
  'share.badImport': 'That record is not valid ({error}). Your current game is unchanged.',
  'share.exported': 'The record is selected; copy it with Ctrl+C.',
  // ---- record errors (from check_record's kind) ----
  'recerr.empty': 'it is empty',
  'recerr.expected': 'unexpected text at character {at}',
  'recerr.outOfRange': 'a move is off the board at character {at}',
  'recerr.trailing': 'extra text at character {at}',
  'recerr.unknownGame': 'unknown game type at character {at}',
  'recerr.illegal': 'move {n} (character {at}) is illegal: {reason}',
  'recerr.impossible': 'impossible position at character {at}',
  'recerr.tooLong': 'it is too long',
  'illegal.gameOver': 'the game was already over',
  'illegal.wrongBoard': 'it had to be in the {board} board',
  'illegal.taken': 'that cell was taken',
  'illegal.decided': 'that board was already decided',
  'illegal.outOfRange': 'it is off the board',
  // ---- history and statistics ----
  'stats.title': 'Statistics',
  'stats.history': 'Finished games',
  'stats.none': 'No finished games yet.',
  'stats.level': 'Level',
  'stats.wins': 'Won',
  'stats.draws': 'Drawn',
  'stats.losses': 'Lost',
  'stats.total': 'Total',
  'stats.twoPlayer': 'Two players',
  'stats.watch': 'AI versus AI',
  'stats.chartTitle': 'Results over time',
  'stats.chartDesc': 'One bar per game, oldest on the left: up is a win, middle a draw, down a loss.',
  'stats.chartSummary': '{wins} won, {draws} drawn, {losses} lost in the last {count} games.',
  'stats.date': 'Date',
  'stats.game': 'Game',
  'stats.mode': 'Mode',
  'stats.result': 'Result',
  'stats.moves': 'Moves',
  'stats.replay': 'Replay game of {date}',
  'stats.cleared': 'History cleared.',
  'stats.clearConfirm': 'Delete all finished games from this device?',
  'result.win': 'Won',
  'result.loss': 'Lost',
  'result.draw': 'Draw',
  'result.xWins': 'X won',
  'result.oWins': 'O won',
  // ---- offline ----
  'offline.ready': 'Ready to play offline.',
  'offline.update': 'A new version is ready.',
  'offline.offline': 'You are offline; the game still works.',
};

const zh = {
  'app.title': '终极井字棋',
  'app.tagline': '九个棋盘，一局游戏。',
  'skip.board': '跳到棋盘',
  'lang.label': '语言',
  'theme.label': '主题',
  'region.0': '左上',
  'region.1': '上',
  'region.2': '右上',
  'region.3': '左',
  'region.4': '中',
  'region.5': '右',
  'region.6': '左下',
  'region.7': '下',
  'region.8': '右下',
  'board.label': '{board}棋盘',
  'board.label.won': '{board}棋盘，{player} 已赢',
  'board.label.drawn': '{board}棋盘，平局',
  'board.label.playable': '{board}棋盘，可下',
  'bigboard.label': '终极棋盘',
  'classicboard.label': '棋盘',
  'cell.label': '{board}棋盘，{cell}格，{content}',
  'cell.label.classic': '{cell}格，{content}',
  'cell.x': 'X',
  'cell.o': 'O',
  'cell.empty': '空',
  'cell.playable': '可下',
  'cell.label.playable': '{board}棋盘，{cell}格，{content}，可下',
  'cell.label.classic.playable': '{cell}格，{content}，可下',
  'status.turn': '轮到 {player}',
  'status.mustPlay': '{player} 必须在{board}棋盘落子',
  'status.anyBoard': '{player} 可以在任意未结束的棋盘落子',
  'status.yourTurn': '轮到你（{player}）',
  'status.thinking': '电脑正在思考…',
  'status.win': '{player} 获胜！',
  'status.draw': '平局。',
  'status.youWin': '你赢了！',
  'status.youLose': '电脑赢了。',
  'status.refused.thinking': '请稍候：电脑正在思考。',
  'status.refused.wrongBoard': '不能下在这里：必须在{board}棋盘落子。',
  'status.refused.taken': '这个格子已经有棋子了。',
  'status.refused.decided': '这个棋盘已经结束了。',
  'status.refused.over': '游戏已结束，请开始新游戏。',
  'status.refused.review': '你正在查看之前的局面。',
  'status.workerFailed': '电脑出错了，正在重新启动。你的棋局不会丢失。',
  'status.storageReset': '保存的数据无法读取，已另行保存；已开始新游戏。',
  'status.restored': '已恢复你的棋局。',
  'announce.move': '{player} 下在 {move}：{board}棋盘，{cell}格。',
  'announce.moveClassic': '{player} 下在 {move}：{cell}格。',
  'announce.aiMove': '电脑（{player}）下在 {move}：{board}棋盘，{cell}格。',
  'announce.aiMoveClassic': '电脑（{player}）下在 {move}：{cell}格。',
  'announce.boardWon': '{player} 赢得了{board}棋盘。',
  'announce.boardDrawn': '{board}棋盘为平局。',
  'announce.position': '显示第 {ply} 步后的局面（共 {length} 步）。',
  'announce.start': '显示开局局面。',
  'btn.newGame': '新游戏',
  'btn.undo': '悔棋',
  'btn.redo': '重做',
  'btn.hint': '提示',
  'btn.copyLink': '复制链接',
  'btn.import': '导入',
  'btn.export': '导出',
  'btn.close': '关闭',
  'btn.cancel': '取消',
  'btn.ok': '确定',
  'btn.replay': '回放',
  'btn.continue': '从这里继续',
  'btn.backToGame': '回到棋局',
  'btn.clearHistory': '清除记录',
  'btn.reload': '重新加载',
  'btn.first': '第一步',
  'btn.prev': '上一步',
  'btn.next': '下一步',
  'btn.last': '最后一步',
  'shortcut.hint': '快捷键：U 悔棋，R 重做，N 新游戏；在着法列表中用 ← → Home End。',
  'settings.title': '设置',
  'settings.gameType': '游戏',
  'settings.ultimate': '终极',
  'settings.classic': '经典',
  'settings.mode': '模式',
  'settings.mode.ai': '对战电脑',
  'settings.mode.human': '双人对战',
  'settings.mode.watch': '电脑对电脑',
  'settings.side': '你执',
  'settings.level': '电脑难度',
  'settings.rules': '规则',
  'settings.rules.standard': '标准',
  'settings.rules.tiebreak': '决胜规则',
  'settings.showEval': '显示评估条',
  'settings.showHint': '显示提示按钮',
  'level.beginner': '入门',
  'level.easy': '简单',
  'level.medium': '中等',
  'level.hard': '困难',
  'level.master': '大师',
  'scores.title': '比分',
  'scores.xWins': 'X 胜',
  'scores.oWins': 'O 胜',
  'scores.draws': '平局',
  'review.title': '着法',
  'review.listLabel': '着法列表',
  'review.empty': '还没有着法。',
  'review.moveLabel': '第 {n} 回合，{player} {move}',
  'review.browsing': '正在查看第 {ply} 步（共 {length} 步）。落子即从这里继续。',
  'review.atStart': '正在查看开局局面。',
  'review.branchConfirm': '在这里落子会删除之后的 {count} 步。继续吗？',
  'review.branchTitle': '从之前的局面继续？',
  'review.shared': '已打开分享的棋局：共 {count} 步。可以浏览或继续下。',
  'eval.label': '局面评估',
  'eval.even': '均势',
  'eval.xAhead': 'X 领先（{score}）',
  'eval.oAhead': 'O 领先（{score}）',
  'eval.xMate': 'X {n} 步内必胜',
  'eval.oMate': 'O {n} 步内必胜',
  'eval.depth': '深度 {depth}',
  'hint.thinking': '正在寻找好棋…',
  'hint.result': '提示：{move}（{board}棋盘，{cell}格）。',
  'hint.resultClassic': '提示：{move}（{cell}格）。',
  'hint.unavailable': '现在没有提示。',
  'share.title': '分享',
  'share.copied': '链接已复制。',
  'share.copyFailed': '无法复制；链接显示在下方。',
  'share.linkLabel': '本局链接',
  'share.recordLabel': '棋谱',
  'share.importLabel': '粘贴棋谱',
  'share.imported': '已导入棋局：共 {count} 步。',
  'share.badLink': '链接中的棋局无效（{error}）。当前棋局没有改变。',
  'share.badImport': '棋谱无效（{error}）。当前棋局没有改变。',
  'share.exported': '棋谱已选中，请按 Ctrl+C 复制。',
  'recerr.empty': '内容为空',
  'recerr.expected': '第 {at} 个字符处有意外内容',
  'recerr.outOfRange': '第 {at} 个字符处的着法超出棋盘',
  'recerr.trailing': '第 {at} 个字符处有多余内容',
  'recerr.unknownGame': '第 {at} 个字符处的游戏类型未知',
  'recerr.illegal': '第 {n} 步（第 {at} 个字符）不合规则：{reason}',
  'recerr.impossible': '第 {at} 个字符处的局面不可能出现',
  'recerr.tooLong': '内容太长',
  'illegal.gameOver': '游戏已经结束',
  'illegal.wrongBoard': '必须下在{board}棋盘',
  'illegal.taken': '该格已有棋子',
  'illegal.decided': '该棋盘已经结束',
  'illegal.outOfRange': '超出棋盘',
  'stats.title': '统计',
  'stats.history': '已完成的棋局',
  'stats.none': '还没有完成的棋局。',
  'stats.level': '难度',
  'stats.wins': '胜',
  'stats.draws': '平',
  'stats.losses': '负',
  'stats.total': '合计',
  'stats.twoPlayer': '双人对战',
  'stats.watch': '电脑对电脑',
  'stats.chartTitle': '历次结果',
  'stats.chartDesc': '每局一根柱，最早的在左边：向上为胜，居中为平，向下为负。',
  'stats.chartSummary': '最近 {count} 局：胜 {wins}，平 {draws}，负 {losses}。',
  'stats.date': '日期',
  'stats.game': '游戏',
  'stats.mode': '模式',
  'stats.result': '结果',
  'stats.moves': '步数',
  'stats.replay': '回放 {date} 的棋局',
  'stats.cleared': '记录已清除。',
  'stats.clearConfirm': '要从本设备删除所有已完成的棋局吗？',
  'result.win': '胜',
  'result.loss': '负',
  'result.draw': '平',
  'result.xWins': 'X 胜',
  'result.oWins': 'O 胜',
  'offline.ready': '已可离线游玩。',
  'offline.update': '新版本已就绪。',
  'offline.offline': '你已离线，游戏仍可进行。',
};

const TABLES = { en, 'zh-CN': zh };

/** The English and Chinese tables, for tests that check both are complete. */
export const tables = TABLES;

let current = 'en';
const listeners = new Set();

/** Picks a supported language code for a list of BCP 47 tags, e.g. navigator.languages. */
export function pickLanguage(tags) {
  for (const tag of tags || []) {
    const lower = String(tag).toLowerCase();
    if (lower.startsWith('zh')) {
      // Traditional-script tags get English rather than the wrong script.
      if (/^zh-(hant|tw|hk|mo)\b/.test(lower)) continue;
      return 'zh-CN';
    }
    if (lower.startsWith('en')) return 'en';
  }
  return 'en';
}

function readSaved() {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    return saved && Object.hasOwn(TABLES, saved) ? saved : null;
  } catch {
    return null; // storage may be disabled; the browser's language still works
  }
}

/** The current language code ('en' or 'zh-CN'). */
export function lang() {
  return current;
}

/**
 * The string for `key` in the current language with `{name}` placeholders
 * replaced from `params`. Unknown keys fall back to English, then to the key.
 */
export function t(key, params) {
  const template = TABLES[current][key] ?? en[key] ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** The translated name of region `i` (0-8) of a 3x3 board. */
export function regionName(i) {
  return t(`region.${i}`);
}

/** Fills every `data-i18n*` element under `root` and sets the document language. */
export function applyI18n(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) {
    el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll('[data-i18n-aria]')) {
    el.setAttribute('aria-label', t(el.dataset.i18nAria));
  }
  for (const el of root.querySelectorAll('[data-i18n-title]')) {
    el.setAttribute('title', t(el.dataset.i18nTitle));
  }
  for (const el of root.querySelectorAll('[data-i18n-placeholder]')) {
    el.setAttribute('placeholder', t(el.dataset.i18nPlaceholder));
  }
  if (root === document) {
    document.documentElement.lang = current;
    document.title = t('app.title');
  }
}

/** Switches language, saves the choice, re-translates the page and tells listeners. */
export function setLang(code) {
  if (!Object.hasOwn(TABLES, code)) return false;
  current = code;
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    // Not saved, but the switch still applies to this visit.
  }
  if (typeof document !== 'undefined') applyI18n(document);
  for (const fn of listeners) fn(code);
  return true;
}

/** Calls `fn(code)` after every language switch; returns a function that unsubscribes. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * Chooses the starting language (saved choice, else the browser's), applies
 * it, and wires an optional `<select>` as the switch.
 */
export function initI18n(select) {
  current = readSaved() ?? pickLanguage(typeof navigator === 'undefined' ? [] : navigator.languages);
  if (typeof document !== 'undefined') applyI18n(document);
  if (select) {
    select.replaceChildren(
      ...LANGUAGES.map(({ code, name }) => {
        const opt = document.createElement('option');
        opt.value = code;
        opt.lang = code;
        opt.textContent = name;
        return opt;
      }),
    );
    select.value = current;
    select.addEventListener('change', () => setLang(select.value));
  }
  return current;
}
