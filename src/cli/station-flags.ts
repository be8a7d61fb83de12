// The flags `crownhead station` and `crownhead hub` add to serve's: taken out
// of the command line (the rest goes to serve's settings, serve-settings.ts),
// each checked with a sentence naming the flag and the problem.

import { UsageError } from './args.ts';

/** Takes `--name VALUE` / `--name=VALUE` flags of these names out of argv; a flag given twice or without its value is refused. */
export function takeFlags(
  argv: readonly string[],
  names: readonly string[],
  usage: string,
): { taken: Record<string, string>; rest: string[] } {
  const taken: Record<string, string> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^--([a-z-]+)(?:=(.*))?$/s.exec(a);
    const name = m?.[1];
    if (!m || !name || !names.includes(name)) {
      rest.push(a);
      continue;
    }
    const value = m[2] ?? argv[++i];
    if (value === undefined || (m[2] === undefined && value.startsWith('--'))) throw new UsageError(`--${name} needs a value\n${usage}`);
    if (name in taken) throw new UsageError(`--${name} is given twice\n${usage}`);
    taken[name] = value;
  }
  return { taken, rest };
}

/** A broker address: mqtt://HOST:PORT (or mqtts://, ws://, wss://). */
export function checkBrokerUrl(flag: string, text: string): string {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new UsageError(`--${flag}: "${text}" is not an address (mqtt://HOST:PORT)`);
  }
  if (!['mqtt:', 'mqtts:', 'ws:', 'wss:'].includes(u.protocol))
    throw new UsageError(`--${flag}: "${text}" is not an MQTT address (mqtt://, mqtts://, ws:// or wss://)`);
  return text;
}

export function checkPort(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`--${flag}: "${text}" is not a port (0-65535)`);
  return n;
}

export function checkMqttVersion(text: string | undefined): 4 | 5 | undefined {
  if (text === undefined) return undefined;
  if (text === '3.1.1' || text === '4') return 4;
  if (text === '5') return 5;
  throw new UsageError(`--mqtt-version: "${text}" is not an MQTT version (3.1.1 or 5)`);
}
