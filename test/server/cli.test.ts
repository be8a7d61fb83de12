// `crownhead serve` settings: flags > environment > config file > defaults,
// each checked with errors naming the flag, variable or key at fault (exit 2),
// and --help. Spawned runs check the exit codes and the start-up lines.

import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { UsageError } from '../../src/cli/args.ts';
import { resolveServeSettings } from '../../src/cli/serve.ts';
import { removeTempDirs, tempDir } from './helpers.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
afterEach(removeTempDirs);

function io() {
  const out: string[] = [],
    err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
}
const settings = (argv: string[], env: Record<string, string> = {}, cwd = tempDir()) => resolveServeSettings(argv, env, cwd)!;
const failure = (argv: string[], env: Record<string, string> = {}, cwd = tempDir()) => {
  try {
    resolveServeSettings(argv, env, cwd);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error('expected a UsageError');
};

/** Runs the real command line; resolves with its exit code and output. */
function runCli(
  args: string[],
  env: Record<string, string> = {},
  cwd = ROOT,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CROWNHEAD_')));
    const child = spawn(process.execPath, [join(ROOT, 'bin/crownhead.js'), ...args], {
      cwd,
      env: { ...clean, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '',
      stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

describe('serve settings', () => {
  it('takes several boards: repeated --board, --sim-boards, a list in the environment or the config file', () => {
    expect(settings(['--board', 'serial:/dev/ttyACM0', '--board', 'serial:/dev/ttyACM1']).options).toMatchObject({
      club: { specs: ['serial:/dev/ttyACM0', 'serial:/dev/ttyACM1'], simBoards: 0 },
    });
    expect(settings(['--sim-boards', '4', '--public-watch']).options).toMatchObject({
      club: { specs: [], simBoards: 4 },
      http: { publicWatch: true },
    });
    expect(settings(['--board', 'sim', '--sim-boards', '2']).options.club).toEqual({ specs: ['sim'], simBoards: 2 });
    expect(settings([], { CROWNHEAD_BOARD: 'sim:1,sim:2' }).options.club?.specs).toEqual(['sim:1', 'sim:2']);
    expect(settings(['--board', 'sim']).options).toMatchObject({ board: { spec: 'sim' } });
    expect(settings(['--board', 'sim']).options.club).toBeUndefined();
    expect(() => settings(['--sim-boards', 'many'])).toThrow(
      /--sim-boards: the number of simulated boards must be a whole number from 0 to 64, not "many"/,
    );
    expect(() => settings(['--board', 'sim', '--board', 'nonsense'])).toThrow(/--board: "nonsense" is not a board/);
    expect(settings(['--board', 'sim:NORTH']).options).toMatchObject({ board: { spec: 'sim:NORTH' } });
    expect(() => settings(['--board', 'sim:north pole'])).toThrow(/--board: sim board name "north pole" is not 1–16 of/);
    expect(() => settings(['--sim-boards', '2', '--record', 'r.rec'])).toThrow(/--record: recording follows one board/);
  });

  it('has defaults', () => {
    const s = settings([]);
    expect(s.options).toMatchObject({
      // auto finds every Crownhead board on USB (one found, or none and the simulated board, is a single board as ever)
      club: { specs: ['auto'], simBoards: 0 },
      http: { host: '127.0.0.1', port: 8080, publicWatch: false },
      game: { tags: {}, tournament: false, rules: { huffing: false, crownContinue: false, autoDraw: false } },
    });
    expect(s.options.storage.gamesDir).toMatch(/games$/);
    expect(s.logLevel).toBe('info');
    expect(s.configFile).toBeNull();
  });

  it('takes flags over environment over the config file', () => {
    const cwd = tempDir();
    writeFileSync(
      join(cwd, 'crownhead.config.json'),
      JSON.stringify({ board: 'sim:3', port: 9000, black: 'Config', white: 'Config', huffing: true, 'time-control': '5m+3s', ballot: 12 }),
    );
    const s = settings(
      ['--black', 'Flag', '--port', '9100'],
      { CROWNHEAD_WHITE: 'Env', CROWNHEAD_PORT: '9050', CROWNHEAD_HUFFING: 'false', CROWNHEAD_TOURNAMENT: 'yes' },
      cwd,
    );
    expect(s.configFile).toBe(join(cwd, 'crownhead.config.json'));
    expect(s.options).toMatchObject({
      board: { spec: 'sim:3' },
      http: { port: 9100 },
      game: {
        tags: { Black: 'Flag', White: 'Env' },
        timeControl: '5m+3s',
        start: { ballot: 12 },
        tournament: true,
        rules: { huffing: false },
      },
    });
    expect(s.from).toMatchObject({ board: 'config', port: 'flag', black: 'flag', white: 'env', huffing: 'env' });
  });

  it('reads every game setting', () => {
    const s = settings([
      '--board',
      'serial:/dev/ttyACM0',
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--games',
      'g',
      '--event',
      'Open',
      '--site',
      'Hall',
      '--round',
      '3',
      '--crown-continue',
      '--auto-draw',
      '--first-player',
      'white',
      '--record',
      'r.rec',
      '--log-level',
      'debug',
      '--require-token',
    ]);
    expect(s.options).toMatchObject({
      board: { spec: 'serial:/dev/ttyACM0' },
      http: { host: '0.0.0.0', port: 0, requireToken: true },
      game: {
        start: { firstPlayer: 'white' },
        tags: { Event: 'Open', Site: 'Hall', Round: '3' },
        rules: { crownContinue: true, autoDraw: true },
      },
    });
    expect(s.options.board?.record).toMatch(/r\.rec$/);
    expect(s.logLevel).toBe('debug');
    expect(settings(['--fen', 'W:W18:B14,K1']).options.game?.start?.fen).toBe('W:W18:B14,K1');
    expect(settings(['--ballot', 'random']).options.game?.start?.ballot).toBe('random');
    expect(settings(['--eleven-man', '17']).options.game?.start?.elevenMan).toBe(17);
    expect(settings(['--eleven-man', 'random']).options.game?.start?.elevenMan).toBe('random');
    expect(settings(['--ballot', 'random', '--crossboard-only']).options.game?.start).toMatchObject({
      ballot: 'random',
      crossboardOnly: true,
    });
  });

  it('rejects bad values naming the flag, variable or key', () => {
    expect(failure(['--port', '70000'])).toMatch(/^--port: the port must be a whole number from 0 to 65535, not "70000"/);
    expect(failure(['--board', 'usb'])).toMatch(/--board: "usb" is not a board/);
    expect(failure(['--ballot', '0'])).toMatch(/--ballot: must be a ballot number from 1 to 174/);
    expect(failure(['--eleven-man', '2401'])).toMatch(
      /--eleven-man: must be an eleven-man ballot number from 1 to 2400 or "random", not "2401"/,
    );
    expect(failure(['--eleven-man', '3', '--ballot', '5'])).toMatch(
      /give either an eleven-man ballot \(--eleven-man\) or a three-move ballot \(--ballot\), not both/,
    );
    expect(failure(['--first-player', 'red'])).toMatch(/--first-player: must be black, white or random/);
    expect(failure(['--time-control', '5x'])).toMatch(/--time-control: .*not a duration/);
    expect(failure(['--time-control', '1m/forced'])).toMatch(
      /--time-control: a per-move control needs the time for a move \(like 5m\/move\)/,
    );
    expect(failure(['--time-control', '5m/move,1m/sudden'])).toMatch(/--time-control: "1m\/sudden" is not a per-move limit/);
    expect(failure(['--fen', 'Q:W1'])).toMatch(/^--fen: /);
    expect(failure(['--fen', 'B:W18:B14', '--ballot', '3'])).toMatch(/either a FEN .* or a ballot/);
    expect(failure(['--log-level', 'loud'])).toMatch(/--log-level: "loud" is not a log level/);
    expect(failure(['--colour'])).toMatch(/unknown option --colour/);
    expect(failure(['extra'])).toMatch(/takes no arguments, got "extra"/);
    expect(failure([], { CROWNHEAD_PORT: 'eighty' })).toMatch(/^CROWNHEAD_PORT: the port must be/);
    expect(failure([], { CROWNHEAD_HUFFING: 'maybe' })).toMatch(/CROWNHEAD_HUFFING must be 1\/0/);
    expect(failure([], { CROWNHEAD_BORD: 'sim' })).toMatch(/unknown environment variable CROWNHEAD_BORD/);
    const cwd = tempDir();
    writeFileSync(join(cwd, 'bad.json'), '{"board": "sim",}');
    expect(failure(['--config', 'bad.json'], {}, cwd)).toMatch(/bad\.json is not valid JSON/);
    writeFileSync(join(cwd, 'keys.json'), '{"bord": "sim"}');
    expect(failure(['--config', 'keys.json'], {}, cwd)).toMatch(/unknown key "bord"/);
    writeFileSync(join(cwd, 'types.json'), '{"huffing": "yes"}');
    expect(failure([], { CROWNHEAD_CONFIG: 'types.json' }, cwd)).toMatch(/"huffing" must be true or false, not "yes"/);
    writeFileSync(join(cwd, 'port.json'), '{"port": -1}');
    expect(failure(['--config', 'port.json'], {}, cwd)).toMatch(/"port" in .*port\.json: the port must be/);
    expect(failure(['--config', 'missing.json'], {}, cwd)).toMatch(/cannot read the config file .*missing\.json: no such file/);
    mkdirSync(join(cwd, 'sub'));
    writeFileSync(join(cwd, 'sub', 'crownhead.config.json'), '[1]');
    expect(failure([], {}, join(cwd, 'sub'))).toMatch(/must hold a JSON object/);
  });

  it('prints --help (exit 0) and exits 2 on a bad flag, in process', async () => {
    const h = io();
    expect(await main(['serve', '--help'], h.io)).toBe(0);
    expect(h.out.join('\n')).toMatch(/--time-control SPEC/);
    expect(h.out.join('\n')).toMatch(/CROWNHEAD_BOARD/);
    const b = io();
    expect(await main(['serve', '--port'], b.io)).toBe(2);
    expect(b.err.join('\n')).toMatch(/crownhead serve: option --port/);
  });
});

describe('crownhead serve, spawned', () => {
  it('exits 2 with a message on a bad flag, a bad environment variable and a bad config file', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'crownhead.config.json'), '{"port": "many"}');
    const [flag, env, config] = await Promise.all([
      runCli(['serve', '--huffing=yes']),
      runCli(['serve'], { CROWNHEAD_LOG_LEVEL: 'chatty' }),
      runCli(['serve'], {}, cwd),
    ]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/crownhead serve: option --huffing does not take an argument/);
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/CROWNHEAD_LOG_LEVEL: "chatty" is not a log level/);
    expect(config.code).toBe(2);
    expect(config.stderr).toMatch(/"port" in .*crownhead\.config\.json: the port must be a whole number/);
  });

  it('says which board it uses and where to go, as JSON lines when not on a terminal, and stops cleanly on SIGTERM', async () => {
    const dir = tempDir();
    const child = spawn(
      process.execPath,
      [join(ROOT, 'bin/crownhead.js'), 'serve', '--board', 'sim', '--port', '0', '--games', join(dir, 'games'), '--black', 'Ann'],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const lines: Record<string, unknown>[] = [];
    let buf = '';
    const ready = new Promise<string>((resolveUrl, reject) => {
      child.stdout.on('data', (d) => {
        buf += d;
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = JSON.parse(buf.slice(0, nl));
          buf = buf.slice(nl + 1);
          lines.push(line);
          if (typeof line.url === 'string') resolveUrl(line.url);
        }
      });
      child.on('exit', (code) => reject(new Error(`serve exited ${code} before it was ready`)));
    });
    const url = await ready;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(lines.map((l) => l.msg)).toEqual(
      expect.arrayContaining(['Board: simulated board SIM', expect.stringMatching(/^Crownhead is ready: open http/)]),
    );
    const state = await (await fetch(url + 'api/state')).json();
    expect(state.tags.Black).toBe('Ann');
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('with no board plugged in says so as information, not a warning, and piped gives the address as a plain line too', async () => {
    const dir = tempDir();
    // auto with no serial device (the test machine has none): the simulated board, the usual first run
    const child = spawn(process.execPath, [join(ROOT, 'bin/crownhead.js'), 'serve', '--port', '0', '--games', join(dir, 'games')], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '',
      err = '';
    child.stderr.on('data', (d) => (err += d));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        if (/"url":/.test(out)) resolve();
      });
      child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
    });
    // the plain line comes on the other pipe: wait for it (no fixed delay)
    while (!/Crownhead is ready/.test(err)) await new Promise((r) => child.stderr.once('data', r));
    const lines = out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { level: number; msg: string });
    const board = lines.find((l) => /simulated board/.test(l.msg))!;
    expect(board.msg).toMatch(/^No Crownhead board found/);
    expect(board.level).toBe(30); // info (pino: 40 is warn)
    expect(err).toMatch(/^Crownhead is ready: open http:\/\/127\.0\.0\.1:\d+\/ in a browser$/m);
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
