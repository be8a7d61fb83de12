// The board page's endgame-database card (src/web/egdb-view.ts), drawn from
// the service's answer: what it costs before a build, progress with the time
// left while building, the reason when a build failed or was stopped, and an
// answer that is not one refused.

import { describe, expect, it } from 'vitest';
import { egdbView, readEgdbView, timeLeft } from '../../src/web/egdb-view.ts';

const base = { done: 0, total: 0, elapsedMs: 0, bytes: 0, message: '' };

describe('the endgame-database card', () => {
  it('offers the build with what it costs, shows progress and time left, and the built database in use', () => {
    const absent = egdbView({ ...base, state: 'absent', message: 'not built' });
    expect(absent).toContain('data-act="egdb-build"');
    expect(absent).toMatch(/13 minutes.*136 MB on disk and 2\.4 GB of memory/);
    const building = egdbView({
      ...base,
      state: 'building',
      done: 20,
      total: 85,
      elapsedMs: 200_000,
      message: 'Building: slice 20 of 85.',
    });
    expect(building).toContain('<progress value="20" max="85"');
    expect(building).toContain('about 11 min left');
    expect(building).toContain('data-act="egdb-stop"');
    expect(building).not.toContain('egdb-build');
    const built = egdbView({
      ...base,
      state: 'built',
      bytes: 135_967_948,
      message: 'The 5-piece endgame database is built (136 MB) and in use.',
    });
    expect(built).toContain('in use');
    expect(built).not.toContain('data-act');
  });

  it('a failed or stopped build says why, offers to build again, and a refusal is shown in its words', () => {
    const failed = egdbView({ ...base, state: 'failed', message: 'The build failed: <oom>.' }, 'this computer has 2.0 GB of memory');
    expect(failed).toContain('The build failed: &lt;oom&gt;.');
    expect(failed).toContain('Build it again');
    expect(failed).toMatch(/role="alert">this computer has 2\.0 GB of memory/);
    expect(timeLeft({ done: 0, total: 85, elapsedMs: 5000 })).toBe('');
    expect(timeLeft({ done: 84, total: 85, elapsedMs: 600_000 })).toBe('under a minute left');
    expect(timeLeft({ done: 10, total: 85, elapsedMs: 60_000 })).toBe('about 8 min left');
  });

  it('reads only an answer of the right shape', () => {
    expect(readEgdbView({ ...base, state: 'building', message: 'x' })).not.toBeNull();
    expect(readEgdbView({ ...base, state: 'exploded', message: 'x' })).toBeNull();
    expect(readEgdbView({ ...base, state: 'built', done: '1', message: 'x' })).toBeNull();
    expect(readEgdbView(null)).toBeNull();
  });
});
