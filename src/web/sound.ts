// Sound and speech for the page: short synthesized tones through Web Audio
// (an alert for illegal moves, a soft click for accepted moves, a chime for
// crowns, a cadence at the end) and events' sentences spoken through the Web
// Speech API. Browsers only allow audio after a user gesture: the audio
// context is created on the first click or key press (unlock()).

import type { Tone } from './state.ts';

type Ctx = AudioContext;

export class Sounds {
  private ctx: Ctx | null = null;

  /** Call from a user gesture: creates (or resumes) the audio context. */
  unlock(): void {
    try {
      if (!this.ctx) {
        // browser edge: the DOM types know AudioContext but not Safari's prefixed webkitAudioContext
        const g = globalThis as unknown as { AudioContext?: typeof AudioContext; webkitAudioContext?: typeof AudioContext };
        const C = g.AudioContext ?? g.webkitAudioContext;
        if (!C) return;
        this.ctx = new C();
      }
      if (this.ctx.state === 'suspended') void this.ctx.resume();
    } catch {
      this.ctx = null;
    }
  }

  get ready(): boolean {
    return this.ctx !== null && this.ctx.state === 'running';
  }

  private note(freq: number, start: number, dur: number, type: OscillatorType, gain: number): void {
    const ctx = this.ctx!;
    const t0 = ctx.currentTime + start;
    const osc = ctx.createOscillator();
    const g = ctx.createGain();
    osc.type = type;
    osc.frequency.setValueAtTime(freq, t0);
    g.gain.setValueAtTime(0.0001, t0);
    g.gain.exponentialRampToValueAtTime(gain, t0 + 0.008);
    g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
    osc.connect(g).connect(ctx.destination);
    osc.start(t0);
    osc.stop(t0 + dur + 0.02);
  }

  /** A soft wooden click: a short filtered noise burst with a low thump. */
  private click(): void {
    const ctx = this.ctx!;
    const len = Math.floor(ctx.sampleRate * 0.04);
    const buf = ctx.createBuffer(1, len, ctx.sampleRate);
    const data = buf.getChannelData(0);
    for (let i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / len, 4);
    const src = ctx.createBufferSource();
    src.buffer = buf;
    const filter = ctx.createBiquadFilter();
    filter.type = 'bandpass';
    filter.frequency.value = 1800;
    filter.Q.value = 1.2;
    const g = ctx.createGain();
    g.gain.value = 0.5;
    src.connect(filter).connect(g).connect(ctx.destination);
    src.start();
    this.note(190, 0, 0.07, 'sine', 0.25);
  }

  play(tone: Tone): void {
    if (!this.ctx) return;
    if (this.ctx.state === 'suspended') void this.ctx.resume();
    switch (tone) {
      case 'click':
        this.click();
        break;
      case 'alert':
        this.note(880, 0, 0.16, 'square', 0.09);
        this.note(622, 0.18, 0.26, 'square', 0.09);
        break;
      case 'crown':
        this.note(784, 0, 0.25, 'triangle', 0.18);
        this.note(988, 0.09, 0.25, 'triangle', 0.16);
        this.note(1175, 0.18, 0.4, 'triangle', 0.14);
        break;
      case 'ready':
        this.note(660, 0, 0.12, 'sine', 0.12);
        this.note(880, 0.1, 0.2, 'sine', 0.12);
        break;
      case 'end':
        this.note(523, 0, 0.5, 'triangle', 0.14);
        this.note(659, 0.12, 0.5, 'triangle', 0.12);
        this.note(784, 0.24, 0.8, 'triangle', 0.12);
        break;
    }
  }
}

/** Speaks sentences; urgent ones interrupt what is being said. */
export class Speech {
  get available(): boolean {
    return typeof globalThis.speechSynthesis !== 'undefined' && typeof globalThis.SpeechSynthesisUtterance !== 'undefined';
  }

  say(text: string, urgent: boolean): void {
    if (!this.available || !text) return;
    const synth = globalThis.speechSynthesis;
    if (urgent) synth.cancel();
    const u = new SpeechSynthesisUtterance(text);
    u.rate = 1;
    u.lang = 'en-US';
    synth.speak(u);
  }

  stop(): void {
    if (this.available) globalThis.speechSynthesis.cancel();
  }
}
