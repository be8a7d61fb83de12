// Every subcommand's usage line, here so `crownhead --help` and a mistyped
// command can print them without loading any subcommand.

export const PERFT_USAGE = 'usage: crownhead perft DEPTH [--fen FEN] [--divide]';
export const PDN_USAGE = `usage: crownhead pdn check [--warnings] FILE…   read and replay every game; one summary line per file
       crownhead pdn format FILE…             print the games rewritten as standard PDN`;
export const REPLAY_USAGE =
  'usage: crownhead replay FILE [--pdn OUT] [--tournament]   run a recording through tracking (in tournament mode if it was recorded so, or with --tournament); print the PDN, every alert and every notice (reminder or info) with its time';
export const SERVE_USAGE = 'usage: crownhead serve [--board SPEC] [--host ADDR] [--port N] [--games DIR] [options]';
export const STATION_USAGE =
  'usage: crownhead station --hub mqtt://HOST:PORT --hub-secret SECRET [--board SPEC] [serve options]   one board reporting to a hub';
export const HUB_USAGE =
  'usage: crownhead hub [--mqtt embedded|mqtt://HOST:PORT] [--mqtt-port N] [--port N] [serve options]   club mode whose boards are stations';
export const BESTMOVE_USAGE =
  "usage: crownhead bestmove [--fen FEN] [--time 1s | --depth N | --nodes N] [--level 1-10]   the engine's move, score and line";
export const ENGINE_USAGE =
  'usage: crownhead engine [--no-book]   the engine as a long-lived process: a line protocol on stdin/stdout (isready, newgame, go [ponder] FEN LIMIT, ponderhit, stop, quit)';
export const ANALYSE_USAGE =
  'usage: crownhead analyse GAME.pdn [--time 1s | --depth N] [--threads N] [--out FILE]   mark mistakes (?) and blunders (??) with the better move';
export const DOCTOR_USAGE =
  'usage: crownhead doctor [--board auto|serial:PATH|sim|emulator] [--squares 1-32] [--step-timeout 20s] [--report FILE] [--coins N] [--sensor SS49E|DRV5055A3|auto] [--live]   find the board, check every sensor and the magnets, save a report (--live: a live grid of the readings)';
export const EGDB_USAGE =
  'usage: crownhead egdb build [--pieces 4|5] | crownhead egdb status   build the endgame database (5 pieces: long, compressed); say what is built';
