// Command-line parsing on node:util parseArgs, with errors that say what is wrong.

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from './suggest.ts';
import { CrownheadError } from '../common/errors.ts';

/** A command line that cannot be run as given (exit 2); the message says what to change. */
export class UsageError extends CrownheadError<'usage'> {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super('usage', message);
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

export function parse<T extends Options>(argv: string[], options: T, usage: string) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    const err = e as Error & { code?: string };
    let msg = err.message;
    if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const m = /Unknown option '([^']+)'/.exec(err.message);
      const given = m ? m[1]! : '';
      const known = Object.entries(options).flatMap(([name, o]) => [`--${name}`, ...(o.short ? [`-${o.short}`] : [])]);
      msg =
        `unknown option ${given}`.trim() +
        (given.startsWith('--')
          ? didYouMean(
              given.split('=')[0]!,
              known.filter((k) => k.startsWith('--')),
            )
          : '');
    } else if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      msg = err.message.replace(/^Option '([^']+)'/, 'option $1').split('\n')[0];
    } else if (err.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      msg = err.message.split('\n')[0];
    }
    throw new UsageError(`${msg}\n${usage}`);
  }
}

export function wholeNumber(text: string | undefined, what: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (text === undefined || !/^\d+$/.test(text)) throw new UsageError(`${what} must be a whole number, not "${text ?? ''}"`);
  const n = Number(text);
  if (n < min || n > max) throw new UsageError(`${what} must be between ${min} and ${max}, not ${n}`);
  return n;
}
