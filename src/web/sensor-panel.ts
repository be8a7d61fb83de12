// The sensor view's panel on the page (the DOM side of sensors.ts): opened,
// it asks GET /api/sensors.json a few times a second and draws the answer
// into the #sensors container; closed, it stops asking (so the server lets
// the board's frames go); a click on a square starts the doctor's test there.

import { SensorSnapshot } from '../protocol/v1.ts';
import { renderSensors, SENSOR_POLL_MS, type SensorPanel } from './sensors.ts';

export interface SensorPanelDeps {
  /** GET with the page's token, the JSON body (throws with the server's message) */
  getJson(url: string): Promise<unknown>;
  /** the page's auth headers */
  headers(): Record<string, string>;
  /** puts the panel's HTML into #sensors (unchanged HTML is not redrawn) */
  patch(html: string): void;
}

export class SensorPanelView {
  private readonly state: SensorPanel = { open: false, snap: null, error: null };
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly deps: SensorPanelDeps) {}

  /** Opens the panel (asking for the latest reading a few times a second while it is open) or closes it. */
  open(open: boolean): void {
    this.state.open = open;
    if (this.timer) clearInterval(this.timer);
    this.timer = open ? setInterval(() => void this.poll(), SENSOR_POLL_MS) : null;
    if (open) void this.poll();
    else document.getElementById('b-sensors-open')?.focus();
    this.draw();
  }

  /** A test started or stopped on the server (POST/DELETE), then the panel asks again at once. */
  async request(method: 'POST' | 'DELETE', url: string): Promise<void> {
    const res = await fetch(url, { method, headers: this.deps.headers() }).catch((e: unknown) => e as Error);
    if (res instanceof Error || !res.ok)
      this.state.error = `The sensor test could not start: ${res instanceof Error ? res.message : res.status}`;
    await this.poll();
  }

  private draw(): void {
    const el = document.getElementById('sensors');
    if (el) el.hidden = !this.state.open;
    this.deps.patch(renderSensors(this.state));
  }

  private async poll(): Promise<void> {
    try {
      const r = SensorSnapshot.safeParse(await this.deps.getJson('/api/sensors.json'));
      if (!r.success) throw new Error('the readings are not in the expected form');
      this.state.snap = r.data;
      this.state.error = null;
    } catch (e) {
      this.state.error = `Cannot read the sensors: ${(e as Error).message}`;
    }
    if (this.state.open) this.draw();
  }
}
