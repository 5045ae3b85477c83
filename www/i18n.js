// English and Simplified Chinese for every string a person sees or hears.
//
// The page's own English strings live in web's text.js (EN); this module
// adds the English strings of the review features and of the static HTML,
// the Chinese table for all of them, the choice of language (a saved choice,
// else navigator.languages, else English), the switch, and the fill-in of
// `data-i18n` (text), `data-i18n-aria` (aria-label) and `data-i18n-title`
// attributes. A missing translation falls back to English, never to a key.
//
// Importing this module installs the translator at once, so the first
// render of the page is already in the chosen language.

import { EN, setTranslator } from './text.js';

const STORAGE_KEY = 'uttt.lang';

/** The languages offered, with their names in their own language. */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'zh-CN', name: '简体中文' },
];

/** English strings beyond text.js: the review features and the static HTML. */
const EN_MORE = {
  // ---- the game screen ----
  'play.label': 'Game board',
  'hud.label': 'Players and turn',
  'tabs.label': 'Panels',
  'tab.moves': 'Moves',
  'tab.game': 'Game',
  'tab.stats': 'Stats',
  'tab.share': 'Share',
  'btn.help': 'How to play',
  'btn.continue': 'Continue from here',
  'tip.new': 'New game (N)',
  'tip.undo': 'Undo (U or Ctrl+Z)',
  'tip.redo': 'Redo (R or Ctrl+Y)',
  'tip.hint': 'Hint (H)',
  'player.x': 'Player X',
  'player.o': 'Player O',
  'player.aiLevel': 'AI · {level}',
  'settings.levelX': "X's level",
  'settings.levelO': "O's level",
  'settings.showCoords': 'Show coordinates',
  'watch.title': 'AI vs AI',
  'watch.pause': 'Pause',
  'watch.resume': 'Resume',
  'watch.step': 'Step',
  'watch.speed': 'Speed',
  'speed.slow': 'Slow',
  'speed.normal': 'Normal',
  'speed.fast': 'Fast',
  'status.browsingAi': 'Viewing move {ply} of {length}. Continue from here to let the AI play on.',
  'status.paused': 'Paused: {player} to move. Resume, or Step one move.',
  'refuse.continueFirst': 'It is the AI’s move here: press “Continue from here” to play on from this position.',
  'refuse.changed': 'The game changed while you were asked; the move was not played.',
  'leave.newGame.title': 'Start a new game?',
  'leave.newGame.ok': 'New game',
  'leave.settings.title': 'Change the settings?',
  'leave.settings.ok': 'Change and start over',
  'leave.keep': 'Keep playing',
  'leave.body': 'The game in progress ({moves} moves) ends here. It stays in your history, where you can replay it.',
  'storage.saveFailed': 'Could not save: the browser’s storage is full. Your game is kept in this tab and saved as soon as there is room.',
  'storage.saved': 'Saved again: your game is safe.',
  'storage.corruptSettings': 'Your saved settings could not be read, so the defaults are used (the old data was set aside).',
  'storage.corruptOther': 'Some saved data could not be read and was set aside; your game goes on.',
  'result.unfinished': 'Unfinished',
  'eval.unit': '1.0 is about one small board’s worth of advantage.',
  'tutorial.count': '{n} / {total}',
  'tutorial.skip': 'Skip',
  'tutorial.back': 'Back',
  'tutorial.next': 'Next',
  'tutorial.play': 'Play',
  'tutorial.board': 'Tutorial board',
  'tutorial.reply': 'O is answering…',
  'tutorial.wait': 'Wait a moment: O is about to answer.',
  'tutorial.pressNext': 'Well done. Press Next to go on.',
  'tutorial.sent': 'You played the {cell} cell, so O must now play in the {board} board, ringed in blue.',
  'tutorial.sentFree': 'You played the {cell} cell; that board is decided, so O may play in any open board.',
  'tutorial.send.title': 'Your move sends your opponent',
  'tutorial.send.task': 'You are X and must play in the ringed {board} board. Play any cell there and watch where O is sent.',
  'tutorial.won.title': 'Win a small board',
  'tutorial.won.text': 'Three in a row inside a small board wins it: a big mark covers it, and nobody plays there again.',
  'tutorial.won.task': 'You have two in a row in the {board} board. Play the cell that makes three.',
  'tutorial.won.miss': 'Legal, but not three in a row. Look again at the {board} board.',
  'tutorial.won.done': 'Three in a row: the {board} board is yours, and counts as one X on the big board.',
  'tutorial.free.title': 'A free move',
  'tutorial.free.text': 'When you are sent to a board that is already won or full, you may play in any open board.',
  'tutorial.free.task': 'O played the {cell} cell of the {from} board, which sends you to the {cell} board. You won it already, so play in any open board.',
  'tutorial.game.title': 'Win the game',
  'tutorial.game.task': 'You have won two boards on the diagonal. Win the {board} board to make three in a row.',
  'tutorial.game.miss': 'Legal, but it does not win the {board} board. Try again.',
  'tutorial.game.done': 'Three boards in a row: you win the game! The winning line is lit up.',
  'tutorial.keys.title': 'Coordinates and keys',
  'tutorial.keys.coords': 'Every cell has a name: its column, a to i from left to right, then its row, 1 to 9 from top to bottom, as shown on the board’s edges. e5, marked here, is the centre cell of the centre board.',
  'tutorial.key.new': 'new game',
  'tutorial.key.undo': 'undo',
  'tutorial.key.redo': 'redo',
  'tutorial.key.hint': 'hint',
  'tutorial.key.board': 'jump to the board you must play in',
  'tutorial.key.help': 'this help',
  'tutorial.key.arrows': 'move on the board',
  'tutorial.key.enter': 'play the cell',
  'settings.sound': 'Sounds',
  'end.kicker': 'Game over · {count} moves',
  'end.youWin': 'You win!',
  'end.aiWins': 'The AI wins',
  'end.wins': '{player} wins!',
  'end.draw': 'Draw',
  'end.lineBoards': 'Three boards in a row: the {line}.',
  'end.lineCells': 'Three in a row: the {line}.',
  'end.tiebreak': 'No line of three: {player} won more boards, {won} to {lost}.',
  'end.drawTiebreak': 'No line of three, and the boards are level at {won} each.',
  'end.drawDetail': 'Nobody got three in a row.',
  'end.line.0': 'top row',
  'end.line.1': 'middle row',
  'end.line.2': 'bottom row',
  'end.line.3': 'left column',
  'end.line.4': 'middle column',
  'end.line.5': 'right column',
  'end.line.6': 'diagonal from top-left',
  'end.line.7': 'diagonal from top-right',
  'end.rematch': 'Rematch',
  'end.review': 'Review',
  'end.share': 'Share',
  'end.close': 'Close',
  'end.swap': 'In the rematch you play {side}.',
  // ---- static HTML (index.html) ----
  'skip.board': 'Skip to the board',
  'controls.label': 'Game controls',
  'settings.kind': 'Game',
  'settings.mode': 'Players',
  'settings.level': 'AI level',
  'settings.rules': 'Rules',
  'settings.hint': 'A change starts a new game; a game in progress asks first.',
  'how.title': 'How to play',
  'how.1': 'Win three small boards in a row to win the game.',
  'how.2': 'The cell you pick sends your opponent to the matching board: play the top-right cell, and they must play in the top-right board.',
  'foot.text': 'Rust + WebAssembly. Plays offline. No tracking.',
  'lang.label': 'Language',
  // ---- regions of a 3x3 board, in reading order ----
  'region.0': 'top-left',
  'region.1': 'top',
  'region.2': 'top-right',
  'region.3': 'left',
  'region.4': 'centre',
  'region.5': 'right',
  'region.6': 'bottom-left',
  'region.7': 'bottom',
  'region.8': 'bottom-right',
  'cell.labelPlayable': '{board} board, {cell} cell, {content}, playable',
  'cell.labelClassicPlayable': '{cell} cell, {content}, playable',
  // ---- announcements (live region) ----
  'announce.move': '{player} played {move}: {board} board, {cell} cell.',
  'announce.moveClassic': '{player} played {move}: {cell} cell.',
  'announce.aiMove': 'The AI ({player}) replied {move}: {board} board, {cell} cell.',
  'announce.aiMoveClassic': 'The AI ({player}) replied {move}: {cell} cell.',
  'announce.boardWon': '{player} won the {board} board.',
  'announce.boardDrawn': 'The {board} board is drawn.',
  'announce.position': 'Showing the position after move {ply} of {length}.',
  'announce.start': 'Showing the start position.',
  // ---- buttons of the review features ----
  'btn.hint': 'Hint',
  'btn.copyLink': 'Copy link',
  'btn.import': 'Import',
  'btn.export': 'Export',
  'btn.cancel': 'Cancel',
  'btn.ok': 'OK',
  'btn.replay': 'Replay',
  'btn.backToGame': 'Back to my previous game',
  'btn.clearHistory': 'Clear history',
  'btn.reload': 'Reload',
  'btn.first': 'First move',
  'btn.prev': 'Previous move',
  'btn.next': 'Next move',
  'btn.last': 'Last move',
  'settings.showEval': 'Show evaluation bar',
  'settings.showHint': 'Show hint button',
  'scores.xWins': 'X wins',
  'scores.oWins': 'O wins',
  // ---- review ----
  'review.title': 'Moves',
  'review.listLabel': 'Move list',
  'review.navLabel': 'Move navigation',
  'review.empty': 'No moves yet.',
  'review.moveLabel': 'Move {n}, {player} {move}',
  'review.browsing': 'Reviewing move {ply} of {length}. Play a move to continue from here.',
  'review.atStart': 'Reviewing the start position.',
  'review.branchConfirm': 'Playing here drops the {count} later moves. Continue?',
  'review.branchTitle': 'Continue from an earlier position?',
  'review.shared': 'Opened a shared game: {count} moves. Browse it or play on.',
  'review.restored': 'Your previous game is back: {count} moves.',
  // ---- evaluation and hint ----
  'eval.label': 'Evaluation',
  'eval.even': 'Even',
  'eval.none': 'No evaluation yet: it appears while the AI searches or after a hint.',
  'eval.xAhead': 'X is ahead by {score} boards',
  'eval.oAhead': 'O is ahead by {score} boards',
  'eval.xMate': 'X wins in {n}',
  'eval.oMate': 'O wins in {n}',
  'eval.depth': 'depth {depth}',
  'eval.xWon': 'X has won',
  'eval.oWon': 'O has won',
  'eval.drawn': 'Drawn',
  'hint.thinking': 'Looking for a good move…',
  'hint.result': 'Hint: {move} ({board} board, {cell} cell).',
  'hint.resultClassic': 'Hint: {move} ({cell} cell).',
  'hint.unavailable': 'No hint for this position: the AI could not answer in time.',
  // ---- share ----
  'share.title': 'Share',
  'share.copied': 'Link copied.',
  'share.copyFailed': 'Could not copy; the link is shown below.',
  'share.linkLabel': 'Link to this game',
  'share.recordLabel': 'Game record',
  'share.imported': 'Game imported: {count} moves.',
  'share.badLink': 'The link holds no valid game ({error}). Your current game is unchanged.',
  'share.badImport': 'That record is not valid ({error}). Your current game is unchanged.',
  'share.exported': 'The record is selected; copy it with Ctrl+C.',
  // ---- record errors ----
  'recerr.empty': 'it is empty',
  'recerr.expected': 'unexpected text at character {at}',
  'recerr.unknownGame': 'unknown game type at character {at}',
  'recerr.illegal': 'move {n} (character {at}) is illegal: {reason}',
  'recerr.tooLong': 'it is too long',
  'illegal.gameOver': 'the game was already over',
  'illegal.wrongBoard': 'it was not in the board it had to be in',
  'illegal.taken': 'that cell was taken',
  'illegal.decided': 'that board was already decided',
  'illegal.outOfRange': 'it is off the board',
  // ---- history and statistics ----
  'stats.title': 'Statistics',
  'stats.history': 'Finished games',
  'stats.showAll': 'Show all {count} games',
  'stats.none': 'No finished games yet.',
  'stats.vsAi': 'Against the AI',
  'stats.level': 'Level',
  'stats.wins': 'Won',
  'stats.draws': 'Drawn',
  'stats.losses': 'Lost',
  'stats.total': 'Total',
  'stats.tiebreak': 'tie-break',
  'stats.chartTitle': 'Results over time',
  'stats.chartDesc': 'One bar per game against the AI, oldest on the left: up is a win, a short mark a draw, down a loss.',
  'stats.chartSummary': '{wins} won, {draws} drawn, {losses} lost in the last {count} games against the AI.',
  'stats.movesCount': '{count} moves',
  'stats.replay': 'Replay the game of {date}',
  'stats.cleared': 'History cleared.',
  'stats.clearConfirm': 'Delete all finished games from this device?',
  'result.win': 'Won',
  'result.loss': 'Lost',
  'result.draw': 'Draw',
  'result.xWins': 'X won',
  'result.oWins': 'O won',
  // ---- offline ----
  'offline.update': 'A new version is ready.',
};

/** Simplified Chinese for every English key. */
const zh = {
  // ---- text.js (the page) ----
  'app.title': '终极井字棋',
  'app.loading': '正在加载游戏…',
  'app.loadFailed': '游戏无法启动：{error}。请重新加载页面再试。',
  'board.label': '游戏棋盘',
  'board.small': '{board}棋盘',
  'board.smallWon': '{board}棋盘，{player} 已赢',
  'board.smallDrawn': '{board}棋盘，平局',
  'cell.label': '{board}棋盘，{cell}格，{content}',
  'cell.labelClassic': '{cell}格，{content}',
  'cell.x': 'X',
  'cell.o': 'O',
  'cell.empty': '空',
  'player.you': '你',
  'status.mustPlay': '{player} 必须在{board}棋盘落子。',
  'status.mayPlay': '{player} 可以在任意未结束的棋盘落子。',
  'status.toMove': '轮到 {player}。',
  'status.yourMustPlay': '轮到你（{side}）：请在{board}棋盘落子。',
  'status.yourMayPlay': '轮到你（{side}）：可以在任意未结束的棋盘落子。',
  'status.yourMove': '轮到你（{side}）。',
  'status.thinking': '电脑（{side}）正在思考…',
  'status.aiWaiting': '下一步由电脑（{side}）走。',
  'status.wins': '{player} 获胜！',
  'status.winsTiebreak': '{player} 按决胜规则获胜，赢得棋盘 {won} 比 {lost}。',
  'status.youWin': '你赢了！下得好。',
  'status.aiWins': '这局电脑赢了。',
  'status.draw': '平局。',
  'refuse.thinking': '请稍候：电脑正在思考。',
  'refuse.aiTurn': '现在轮到电脑，不是你。',
  'refuse.watching': '现在是电脑对电脑。把“玩家”改成其他模式即可加入。',
  'refuse.wrong-board': '不能下在这里：{player} 必须在{board}棋盘落子。',
  'refuse.cell-taken': '这个格子已经有棋子了。',
  'refuse.board-decided': '这个棋盘已经结束了，请选择未结束的棋盘。',
  'refuse.game-over': '游戏已结束。开始新游戏再来一局吧。',
  'refuse.other': '不能这样走：{error}',
  'ai.restarting': '电脑意外停止，正在重新启动。你的棋局不会丢失。',
  'ai.failed': '电脑暂时不可用（{error}）。棋局已保存；可以开始新游戏或改为双人对战。',
  'ai.slow': '电脑用时过长，已重新启动并再次尝试。',
  'storage.corrupt': '无法读取保存的棋局，已开始新游戏（旧数据已另行保存）。',
  'storage.unavailable': '此浏览器不允许页面保存棋局；重新加载后棋局将会丢失。',
  'btn.new': '新游戏',
  'btn.undo': '悔棋',
  'btn.redo': '重做',
  'scores.draws': '平局',
  'kind.ultimate': '终极',
  'kind.classic': '经典',
  'mode.ai-x': '你（X）对电脑',
  'mode.ai-o': '电脑对你（O）',
  'mode.human': '双人对战',
  'mode.watch': '电脑对电脑',
  'level.beginner': '入门',
  'level.easy': '简单',
  'level.medium': '中等',
  'level.hard': '困难',
  'level.master': '大师',
  'rules.standard': '标准',
  'rules.tiebreak': '决胜规则（赢得棋盘多者胜）',
  // ---- static HTML ----
  // ---- the game screen ----
  'play.label': '棋盘',
  'hud.label': '对局双方与轮次',
  'tabs.label': '面板',
  'tab.moves': '着法',
  'tab.game': '对局',
  'tab.stats': '统计',
  'tab.share': '分享',
  'btn.help': '玩法',
  'btn.continue': '从这里继续',
  'tip.new': '新游戏（N）',
  'tip.undo': '悔棋（U 或 Ctrl+Z）',
  'tip.redo': '重做（R 或 Ctrl+Y）',
  'tip.hint': '提示（H）',
  'player.x': '玩家 X',
  'player.o': '玩家 O',
  'player.aiLevel': '电脑 · {level}',
  'settings.levelX': 'X 的难度',
  'settings.levelO': 'O 的难度',
  'settings.showCoords': '显示坐标',
  'watch.title': '电脑对电脑',
  'watch.pause': '暂停',
  'watch.resume': '继续',
  'watch.step': '走一步',
  'watch.speed': '速度',
  'speed.slow': '慢',
  'speed.normal': '中',
  'speed.fast': '快',
  'status.browsingAi': '正在查看第 {ply} 步（共 {length} 步）。点“从这里继续”让电脑接着下。',
  'status.paused': '已暂停：轮到 {player}。可以继续，或走一步。',
  'refuse.continueFirst': '这里轮到电脑走：点“从这里继续”即可从这个局面接着下。',
  'refuse.changed': '确认期间棋局已变化，这步棋没有下。',
  'leave.newGame.title': '开始新游戏？',
  'leave.newGame.ok': '新游戏',
  'leave.settings.title': '更改设置？',
  'leave.settings.ok': '更改并重新开始',
  'leave.keep': '继续这局',
  'leave.body': '进行中的这局（{moves} 步）将在此结束。它会保留在历史记录里，可以随时回放。',
  'storage.saveFailed': '无法保存：浏览器存储空间已满。棋局仍保留在此标签页中，一有空间就会保存。',
  'storage.saved': '已重新保存：棋局安全。',
  'storage.corruptSettings': '无法读取保存的设置，已使用默认设置（旧数据已另行保存）。',
  'storage.corruptOther': '部分保存的数据无法读取，已另行保存；棋局照常进行。',
  'result.unfinished': '未完成',
  'eval.unit': '1.0 大约相当于领先一个小棋盘。',
  'tutorial.count': '{n} / {total}',
  'tutorial.skip': '跳过',
  'tutorial.back': '上一步',
  'tutorial.next': '下一步',
  'tutorial.play': '开始游戏',
  'tutorial.board': '教程棋盘',
  'tutorial.reply': 'O 正在应着…',
  'tutorial.wait': '稍等：O 马上就要落子。',
  'tutorial.pressNext': '做得好。点“下一步”继续。',
  'tutorial.sent': '你下在{cell}格，所以 O 现在必须在{board}棋盘落子（蓝框标出）。',
  'tutorial.sentFree': '你下在{cell}格；那个棋盘已经结束，所以 O 可以在任意未结束的棋盘落子。',
  'tutorial.send.title': '你的落子决定对手去哪里',
  'tutorial.send.task': '你执 X，必须在框出的{board}棋盘落子。随便下一格，看看 O 会被送到哪里。',
  'tutorial.won.title': '赢下一个小棋盘',
  'tutorial.won.text': '在小棋盘里连成三个即赢下它：一个大标记会盖住它，之后谁也不能再在那里落子。',
  'tutorial.won.task': '你在{board}棋盘已经有两个连成一线。下在能连成三个的那一格。',
  'tutorial.won.miss': '可以这样走，但没有连成三个。再看看{board}棋盘。',
  'tutorial.won.done': '连成三个：{board}棋盘归你了，在大棋盘上算作一个 X。',
  'tutorial.free.title': '自由落子',
  'tutorial.free.text': '如果你被送到一个已经赢下或下满的棋盘，就可以在任意未结束的棋盘落子。',
  'tutorial.free.task': 'O 在{from}棋盘下了{cell}格，把你送到{cell}棋盘。那个棋盘你已经赢下了，所以可以在任意未结束的棋盘落子。',
  'tutorial.game.title': '赢得整局',
  'tutorial.game.task': '你已经在对角线上赢下两个棋盘。赢下{board}棋盘，就能连成三个。',
  'tutorial.game.miss': '可以这样走，但没有赢下{board}棋盘。再试一次。',
  'tutorial.game.done': '三个棋盘连成一线：你赢得了整局！获胜的一线已经亮起。',
  'tutorial.keys.title': '坐标和按键',
  'tutorial.keys.coords': '每一格都有名字：先写列，从左到右为 a 到 i；再写行，从上到下为 1 到 9，都标在棋盘边上。这里标出的 e5 就是中央棋盘的中央格。',
  'tutorial.key.new': '新游戏',
  'tutorial.key.undo': '悔棋',
  'tutorial.key.redo': '重做',
  'tutorial.key.hint': '提示',
  'tutorial.key.board': '跳到必须落子的棋盘',
  'tutorial.key.help': '打开本帮助',
  'tutorial.key.arrows': '在棋盘上移动',
  'tutorial.key.enter': '在该格落子',
  'settings.sound': '音效',
  'end.kicker': '对局结束 · 共 {count} 步',
  'end.youWin': '你赢了！',
  'end.aiWins': '电脑获胜',
  'end.wins': '{player} 获胜！',
  'end.draw': '平局',
  'end.lineBoards': '三个棋盘连成一线：{line}。',
  'end.lineCells': '三子连成一线：{line}。',
  'end.tiebreak': '没有连成一线：{player} 赢得的棋盘更多，{won} 比 {lost}。',
  'end.drawTiebreak': '没有连成一线，双方赢得的棋盘一样多，各 {won} 个。',
  'end.drawDetail': '双方都没有连成一线。',
  'end.line.0': '上面一行',
  'end.line.1': '中间一行',
  'end.line.2': '下面一行',
  'end.line.3': '左边一列',
  'end.line.4': '中间一列',
  'end.line.5': '右边一列',
  'end.line.6': '从左上到右下的对角线',
  'end.line.7': '从右上到左下的对角线',
  'end.rematch': '再来一局',
  'end.review': '复盘',
  'end.share': '分享',
  'end.close': '关闭',
  'end.swap': '再来一局时你执 {side}。',
  'skip.board': '跳到棋盘',
  'controls.label': '游戏控制',
  'settings.kind': '游戏',
  'settings.mode': '玩家',
  'settings.level': '电脑难度',
  'settings.rules': '规则',
  'settings.hint': '更改设置会开始新游戏；进行中的棋局会先询问。',
  'how.title': '玩法',
  'how.1': '在大棋盘上连成一线的三个小棋盘即获胜。',
  'how.2': '你选的格子决定对手去哪个棋盘：你下在右上格，对手就必须在右上棋盘落子。',
  'foot.text': 'Rust + WebAssembly。可离线游玩。不做跟踪。',
  'lang.label': '语言',
  'region.0': '左上',
  'region.1': '上',
  'region.2': '右上',
  'region.3': '左',
  'region.4': '中',
  'region.5': '右',
  'region.6': '左下',
  'region.7': '下',
  'region.8': '右下',
  'cell.labelPlayable': '{board}棋盘，{cell}格，{content}，可下',
  'cell.labelClassicPlayable': '{cell}格，{content}，可下',
  'announce.move': '{player} 下在 {move}：{board}棋盘，{cell}格。',
  'announce.moveClassic': '{player} 下在 {move}：{cell}格。',
  'announce.aiMove': '电脑（{player}）应着 {move}：{board}棋盘，{cell}格。',
  'announce.aiMoveClassic': '电脑（{player}）应着 {move}：{cell}格。',
  'announce.boardWon': '{player} 赢得了{board}棋盘。',
  'announce.boardDrawn': '{board}棋盘为平局。',
  'announce.position': '显示第 {ply} 步后的局面（共 {length} 步）。',
  'announce.start': '显示开局局面。',
  'btn.hint': '提示',
  'btn.copyLink': '复制链接',
  'btn.import': '导入',
  'btn.export': '导出',
  'btn.cancel': '取消',
  'btn.ok': '确定',
  'btn.replay': '回放',
  'btn.backToGame': '回到我之前的棋局',
  'btn.clearHistory': '清除记录',
  'btn.reload': '重新加载',
  'btn.first': '第一步',
  'btn.prev': '上一步',
  'btn.next': '下一步',
  'btn.last': '最后一步',
  'settings.showEval': '显示评估条',
  'settings.showHint': '显示提示按钮',
  'scores.xWins': 'X 胜',
  'scores.oWins': 'O 胜',
  'review.title': '着法',
  'review.listLabel': '着法列表',
  'review.navLabel': '着法导航',
  'review.empty': '还没有着法。',
  'review.moveLabel': '第 {n} 回合，{player} {move}',
  'review.browsing': '正在查看第 {ply} 步（共 {length} 步）。落子即从这里继续。',
  'review.atStart': '正在查看开局局面。',
  'review.branchConfirm': '在这里落子会删除之后的 {count} 步。继续吗？',
  'review.branchTitle': '从之前的局面继续？',
  'review.shared': '已打开分享的棋局：共 {count} 步。可以浏览或继续下。',
  'review.restored': '已回到你之前的棋局：共 {count} 步。',
  'eval.label': '局面评估',
  'eval.even': '均势',
  'eval.none': '暂无评估：电脑思考时或请求提示后显示。',
  'eval.xAhead': 'X 领先约 {score} 个棋盘',
  'eval.oAhead': 'O 领先约 {score} 个棋盘',
  'eval.xMate': 'X {n} 步内必胜',
  'eval.oMate': 'O {n} 步内必胜',
  'eval.depth': '深度 {depth}',
  'eval.xWon': 'X 已获胜',
  'eval.oWon': 'O 已获胜',
  'eval.drawn': '平局',
  'hint.thinking': '正在寻找好棋…',
  'hint.result': '提示：{move}（{board}棋盘，{cell}格）。',
  'hint.resultClassic': '提示：{move}（{cell}格）。',
  'hint.unavailable': '这个局面暂无提示：电脑没能及时给出答案。',
  'share.title': '分享',
  'share.copied': '链接已复制。',
  'share.copyFailed': '无法复制；链接显示在下方。',
  'share.linkLabel': '本局链接',
  'share.recordLabel': '棋谱',
  'share.imported': '已导入棋局：共 {count} 步。',
  'share.badLink': '链接中的棋局无效（{error}）。当前棋局没有改变。',
  'share.badImport': '棋谱无效（{error}）。当前棋局没有改变。',
  'share.exported': '棋谱已选中，请按 Ctrl+C 复制。',
  'recerr.empty': '内容为空',
  'recerr.expected': '第 {at} 个字符处有意外内容',
  'recerr.unknownGame': '第 {at} 个字符处的游戏类型未知',
  'recerr.illegal': '第 {n} 步（第 {at} 个字符）不合规则：{reason}',
  'recerr.tooLong': '内容太长',
  'illegal.gameOver': '游戏已经结束',
  'illegal.wrongBoard': '没有下在规定的棋盘',
  'illegal.taken': '该格已有棋子',
  'illegal.decided': '该棋盘已经结束',
  'illegal.outOfRange': '超出棋盘',
  'stats.title': '统计',
  'stats.history': '已完成的棋局',
  'stats.showAll': '显示全部 {count} 局',
  'stats.none': '还没有完成的棋局。',
  'stats.vsAi': '对战电脑',
  'stats.level': '难度',
  'stats.wins': '胜',
  'stats.draws': '平',
  'stats.losses': '负',
  'stats.total': '合计',
  'stats.tiebreak': '决胜规则',
  'stats.chartTitle': '历次结果',
  'stats.chartDesc': '每局对战电脑一根柱，最早的在左边：向上为胜，短横为平，向下为负。',
  'stats.chartSummary': '最近 {count} 局对战电脑：胜 {wins}，平 {draws}，负 {losses}。',
  'stats.movesCount': '{count} 步',
  'stats.replay': '回放 {date} 的棋局',
  'stats.cleared': '记录已清除。',
  'stats.clearConfirm': '要从本设备删除所有已完成的棋局吗？',
  'result.win': '胜',
  'result.loss': '负',
  'result.draw': '平',
  'result.xWins': 'X 胜',
  'result.oWins': 'O 胜',
  'offline.update': '新版本已就绪。',
};

/** English: the page's strings with the review and static-HTML strings added. */
const en = { ...EN_MORE, ...EN };

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

function fill(template, params) {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** The current language code ('en' or 'zh-CN'). */
export function lang() {
  return current;
}

/**
 * The string for `key` in the current language with `{name}` placeholders
 * filled from `params`. Unknown keys fall back to English, then to the key.
 */
export function t(key, params) {
  return fill(TABLES[current][key] ?? en[key] ?? key, params);
}

/** The translated name of region `i` (0-8) of a 3x3 board. */
export function regionName(i) {
  return t(`region.${i}`);
}

/** Fills every `data-i18n*` element under `root`; for the document also its language and title. */
export function applyI18n(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-aria]')) {
    el.setAttribute('aria-label', t(el.dataset.i18nAria));
  }
  for (const el of root.querySelectorAll('[data-i18n-title]')) {
    el.setAttribute('title', t(el.dataset.i18nTitle));
  }
  if (root === document) {
    document.documentElement.lang = current;
    document.title = t('app.title');
  }
}

function install() {
  // text.js asks this for every string; English comes from its own table.
  setTranslator(current === 'en' ? (key, params) => (key in EN ? undefined : t(key, params)) : t);
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
  install();
  if (typeof document !== 'undefined') {
    applyI18n(document);
    document.dispatchEvent(new CustomEvent('uttt:lang', { detail: { lang: code } }));
  }
  for (const fn of listeners) fn(code);
  return true;
}

/** Calls `fn(code)` after every language switch; returns a function that unsubscribes. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Builds the language switch (a labelled <select>) inside `host`. */
export function languageSwitch(host) {
  const label = document.createElement('label');
  label.className = 'lang-switch';
  const text = document.createElement('span');
  text.dataset.i18n = 'lang.label';
  text.textContent = t('lang.label');
  const select = document.createElement('select');
  select.id = 'lang-select';
  select.append(
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
  label.append(text, select);
  host.append(label);
  return select;
}

// Choose and install the language now, before the page's first render.
if (typeof navigator !== 'undefined') {
  current = readSaved() ?? pickLanguage(navigator.languages);
  install();
  if (typeof document !== 'undefined') applyI18n(document);
}
