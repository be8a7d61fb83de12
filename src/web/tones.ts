// Which sound (and how urgently) goes with each session event the page
// hears: the table of tones the reducer (state.ts) consults.

import type { GameEvent } from '../protocol/v1.ts';

export type Tone = 'alert' | 'click' | 'crown' | 'ready' | 'end';

/** Which sound goes with a session event. */
export function toneOf(event: GameEvent): { tone: Tone | null; urgent: boolean } {
  switch (event.type) {
    case 'alert':
    case 'time':
      return { tone: 'alert', urgent: true };
    case 'move':
    case 'move-replaced':
    case 'takeback':
      return { tone: 'click', urgent: false };
    case 'crown-awaited':
    case 'crowned':
      return { tone: 'crown', urgent: false };
    case 'ready':
    case 'alert-cleared':
    case 'calibrated':
      return { tone: 'ready', urgent: false };
    case 'game-over':
      return { tone: 'end', urgent: true };
    case 'board':
      return event.connected === false ? { tone: 'alert', urgent: true } : { tone: 'ready', urgent: false };
    case 'storage':
      return event.ok ? { tone: null, urgent: false } : { tone: 'alert', urgent: true };
    default:
      return { tone: null, urgent: false };
  }
}
