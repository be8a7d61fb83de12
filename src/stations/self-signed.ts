// The embedded broker's own TLS certificate, when the hub is asked to make
// one (`crownhead hub --mqtt-tls self-signed`): a key and a self-signed
// certificate made once with Debian's openssl and kept in the hub's games
// folder (mqtt-tls/), naming this machine's host name and every address it
// has, so a station reaches it by any of them. A station trusts exactly this
// certificate by giving it as its CA (`--hub-ca mqtt-tls/cert.pem`, copied
// to the station): the certificate is pinned. Owns the files and their SHA-256
// fingerprint, said at start so both ends can compare it.

import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { CrownheadError } from '../common/errors.ts';

/** The certificate cannot be made (no openssl) or read. */
export class SelfSignedError extends CrownheadError<'tls'> {
  override readonly name = 'SelfSignedError';
  constructor(message: string) {
    super('tls', message);
  }
}

export interface SelfSigned {
  cert: Buffer;
  key: Buffer;
  certFile: string;
  /** SHA-256 of the certificate, as openssl and browsers show it (AA:BB:…) */
  fingerprint: string;
}

/** Every name a station may reach this machine by: its host name, localhost, and each of its addresses. */
function altNames(): string {
  const ips = new Set(['127.0.0.1', '::1']);
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) ips.add(a.address.split('%')[0]!);
  const dns = [...new Set(['localhost', hostname()])].filter((n) => /^[A-Za-z0-9.-]+$/.test(n));
  return [...dns.map((n) => `DNS:${n}`), ...[...ips].map((ip) => `IP:${ip}`)].join(',');
}

/** The hub's own certificate and key (made on first use, kept in `dir`/mqtt-tls). */
export function selfSigned(dir: string): SelfSigned {
  const folder = join(dir, 'mqtt-tls');
  const certFile = join(folder, 'cert.pem');
  const keyFile = join(folder, 'key.pem');
  if (!fs.existsSync(certFile) || !fs.existsSync(keyFile)) {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-days',
          '3650',
          '-subj',
          `/CN=Crownhead hub ${hostname()}`,
        ].concat(['-addext', `subjectAltName=${altNames()}`, '-keyout', `${keyFile}.tmp`, '-out', `${certFile}.tmp`]),
        { stdio: 'pipe' },
      );
    } catch (e) {
      const why =
        (e as NodeJS.ErrnoException).code === 'ENOENT'
          ? 'openssl is not installed (Debian: apt install openssl)'
          : String((e as { stderr?: Buffer }).stderr ?? e).trim();
      throw new SelfSignedError(`cannot make the broker's certificate: ${why}; or give --mqtt-tls-cert FILE --mqtt-tls-key FILE`);
    }
    fs.chmodSync(`${keyFile}.tmp`, 0o600);
    fs.renameSync(`${keyFile}.tmp`, keyFile);
    fs.renameSync(`${certFile}.tmp`, certFile);
  }
  const cert = fs.readFileSync(certFile);
  return { cert, key: fs.readFileSync(keyFile), certFile, fingerprint: new X509Certificate(cert).fingerprint256 };
}
