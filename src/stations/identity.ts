// Who is speaking on the broker: each station and each hub has its own
// Ed25519 key pair (node:crypto), made on first start and kept in its games
// folder (readable by its owner only, 0600), so a restart keeps the identity
// and a copy of the folder is the only way to take it elsewhere. Owns the key
// file, the public key's text form (base64url of the 32 raw bytes) and its
// short fingerprint for people, and signing and checking bytes with it.

import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { CrownheadError } from '../common/errors.ts';
import { atomicWrite } from '../storage/disk.ts';

/** A key file that cannot be read or written, or holds no Ed25519 private key. */
export class IdentityError extends CrownheadError<'identity'> {
  override readonly name = 'IdentityError';
  constructor(message: string) {
    super('identity', message);
  }
}

export interface Identity {
  /** the public key, base64url of its 32 raw bytes: what others pin */
  readonly key: string;
  /** the key's fingerprint for people: 8 hex digits of its SHA-256 */
  readonly fingerprint: string;
  sign(data: string): string;
}

/** The fingerprint people compare: the first 8 hex digits of the public key's SHA-256. */
export function fingerprint(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** DER prefix of an Ed25519 SubjectPublicKeyInfo: the 32 raw key bytes follow it. */
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

function rawPublic(k: KeyObject): string {
  const der = createPublicKey(k).export({ format: 'der', type: 'spki' });
  return der.subarray(SPKI_PREFIX.length).toString('base64url');
}

const publicKeys = new Map<string, KeyObject | null>();
/** A pinned key's KeyObject (null: not an Ed25519 public key), kept: the hub checks every message against a few keys. */
function publicKey(key: string): KeyObject | null {
  let k = publicKeys.get(key);
  if (k !== undefined) return k;
  const raw = /^[A-Za-z0-9_-]{43}$/.test(key) ? Buffer.from(key, 'base64url') : null;
  try {
    k = raw?.length === 32 ? createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' }) : null;
  } catch {
    k = null;
  }
  if (publicKeys.size > 1024) publicKeys.clear();
  publicKeys.set(key, k);
  return k;
}

/** Checks `sig` (base64url) over `data` against a public key in its text form; false for anything malformed. */
export function verifySignature(key: string, data: string, sig: string): boolean {
  const k = publicKey(key);
  if (!k || !/^[A-Za-z0-9_-]{86}$/.test(sig)) return false;
  try {
    return verify(null, Buffer.from(data, 'utf8'), k, Buffer.from(sig, 'base64url'));
  } catch {
    return false;
  }
}

function identityOf(privateKey: KeyObject): Identity {
  const key = rawPublic(privateKey);
  return {
    key,
    fingerprint: fingerprint(key),
    sign: (data) => sign(null, Buffer.from(data, 'utf8'), privateKey).toString('base64url'),
  };
}

/** A fresh identity held in memory only (tests; a hub or station given no folder). */
export function ephemeralIdentity(): Identity {
  return identityOf(generateKeyPairSync('ed25519').privateKey);
}

/**
 * The identity kept in `dir/file` (PKCS#8 PEM), made on first use: written
 * to a temp file with mode 0600, fsynced, renamed into place. A key file
 * that others may read is refused (chmod 600 it), as ssh does.
 */
export function loadIdentity(dir: string, file = 'station-key.pem'): Identity {
  const path = join(dir, file);
  let pem: string;
  try {
    pem = fs.readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new IdentityError(`cannot read the key ${path}: ${(e as Error).message}`);
    return identityOf(createKey(dir, path));
  }
  const mode = fs.statSync(path).mode & 0o077;
  if (mode && process.platform !== 'win32')
    throw new IdentityError(`the key ${path} may be read by others (mode ${(fs.statSync(path).mode & 0o777).toString(8)}): chmod 600 it`);
  let k: KeyObject;
  try {
    k = createPrivateKey(pem);
  } catch (e) {
    throw new IdentityError(
      `the key ${path} is not a private key (${(e as Error).message}): move it aside to make a new one (then pair again)`,
    );
  }
  if (k.asymmetricKeyType !== 'ed25519') throw new IdentityError(`the key ${path} is ${k.asymmetricKeyType}, not Ed25519`);
  return identityOf(k);
}

function createKey(dir: string, path: string): KeyObject {
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
  try {
    fs.mkdirSync(dir, { recursive: true });
    atomicWrite(fs, dir, path, pem, 0o600);
  } catch (e) {
    throw new IdentityError(`cannot write the key ${path}: ${(e as Error).message}`);
  }
  return privateKey;
}
