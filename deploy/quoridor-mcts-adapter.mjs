// Adapter for BENCHMARKS.md's public comparison: lets the ladder's
// `--match engine` play the MCTS Quoridor AI of the public project
// gorisanson/quoridor-ai (MIT; its web page's "Novice" to "Strong" levels
// are 2500 to 60000 rollouts). None of that project's code is here: this
// file loads its src/js/game.js and src/js/ai.js from a checkout of it
// named by QAI_DIR and calls them.
//
//   (a checkout of gorisanson/quoridor-ai in /tmp/qai)
//   cargo build --release -p rules --bin ladder
//   QAI_DIR=/tmp/qai QAI_ROLLOUTS=7000 target/release/ladder --game quoridor \
//     --match engine --engine "node deploy/quoridor-mcts-adapter.mjs" --games 50 --threads 2
//
// Each input line is `moves M1 M2 …`: the game so far in our notation (side
// 0 from e1 moving first, which is that project's light pawn at the
// bottom); the answer is one line, the move in our notation and the
// milliseconds it took. Their rows count from the top (row 0 = our rank
// 9); their horizontal wall (r, c) lies between rows r and r+1 across
// columns c and c+1, which is our wall named by the cell below-left of its
// centre: file c, rank 8 - r.
import fs from 'node:fs';
import vm from 'node:vm';
import readline from 'node:readline';
const dir = process.env.QAI_DIR;
const rollouts = Number(process.env.QAI_ROLLOUTS ?? 60000);
const uct = Number(process.env.QAI_UCT ?? 0.2);
const ctx = vm.createContext({ console: { log() {} }, Math, Date, Array, Object, Number });
for (const f of ['game.js', 'ai.js']) vm.runInContext(fs.readFileSync(`${dir}/src/js/${f}`, 'utf8'), ctx, { filename: f });
vm.runInContext('globalThis.Game = Game; globalThis.AI = AI;', ctx);
const file = (c) => String.fromCharCode(97 + c);
function toTheirs(m) {
  const c = m.charCodeAt(0) - 97;
  const rank = Number.parseInt(m.slice(1), 10);
  if (m.endsWith('h')) return [null, [8 - rank, c], null];
  if (m.endsWith('v')) return [null, null, [8 - rank, c]];
  return [[9 - rank, c], null, null];
}
function toOurs(mv) {
  if (mv[0]) return `${file(mv[0][1])}${9 - mv[0][0]}`;
  if (mv[1]) return `${file(mv[1][1])}${8 - mv[1][0]}h`;
  return `${file(mv[2][1])}${8 - mv[2][0]}v`;
}
const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const words = line.trim().split(/\s+/);
  if (words[0] !== 'moves') return;
  const game = new ctx.Game(true);
  for (const m of words.slice(1)) {
    if (!game.doMove(toTheirs(m), true)) { process.stdout.write(`error ${m}\n`); return; }
  }
  const ai = new ctx.AI(rollouts, uct, false, false);
  const t0 = Date.now();
  const mv = ai.chooseNextMove(game);
  process.stdout.write(`${toOurs(mv)} ${Date.now() - t0}\n`);
});
