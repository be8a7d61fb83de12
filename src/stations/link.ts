// One MQTT connection, as stations and the hub both make it (the `mqtt`
// client): QoS 1 throughout, a persistent session (clean start off; with MQTT 5
// a session expiry, so a short disconnect loses nothing), reconnecting on its
// own, and a will when one is given (a station's keepalive is short: its will
// then goes out within seconds of the station falling silent). MQTT 3.1.1 by default: the embedded
// broker (aedes) speaks 3.1.1 only; Mosquitto speaks both.

import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';

/** What each option is when it is not given. */
const DEFAULTS = { protocolVersion: 4, reconnectMs: 1000, keepaliveS: 30, sessionExpiryS: 86_400 } as const;

export interface LinkOptions {
  /** mqtt://HOST:PORT (or mqtts://, ws://) */
  url: string;
  clientId: string;
  username?: string;
  password?: string;
  /** 4 (MQTT 3.1.1, default) or 5 */
  protocolVersion?: 4 | 5;
  /** MQTT 5: how long the broker keeps the session after a disconnect, s (default 1 day) */
  sessionExpiryS?: number;
  /** the message the broker publishes when this client goes without saying goodbye */
  will?: { topic: string; payload: string; retain: boolean };
  /** the MQTT keepalive, s (default 30): the broker drops a client silent for 1.5 × this and publishes its will */
  keepaliveS?: number;
  /** time between reconnection attempts, ms (default 1000) */
  reconnectMs?: number;
  /** TLS: a CA to trust (mqtts://) */
  ca?: string | Buffer;
  /** TLS: check the broker's certificate (default true; false only for the hub's own embedded broker on loopback) */
  rejectUnauthorized?: boolean;
}

export function openLink(o: LinkOptions): MqttClient {
  const opts: IClientOptions = {
    clientId: o.clientId,
    clean: false,
    protocolVersion: o.protocolVersion ?? DEFAULTS.protocolVersion,
    reconnectPeriod: o.reconnectMs ?? DEFAULTS.reconnectMs,
    connectTimeout: 10_000,
    keepalive: o.keepaliveS ?? DEFAULTS.keepaliveS,
    resubscribe: true,
    ...(o.username !== undefined ? { username: o.username } : {}),
    ...(o.password !== undefined ? { password: o.password } : {}),
    ...(o.ca ? { ca: o.ca } : {}),
    ...(o.rejectUnauthorized === false ? { rejectUnauthorized: false } : {}),
    ...(o.protocolVersion === 5 ? { properties: { sessionExpiryInterval: o.sessionExpiryS ?? DEFAULTS.sessionExpiryS } } : {}),
    ...(o.will ? { will: { topic: o.will.topic, payload: Buffer.from(o.will.payload), qos: 1 as const, retain: o.will.retain } } : {}),
  };
  return mqtt.connect(o.url, opts);
}
