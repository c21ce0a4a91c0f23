// Accounts and credentials: scrypt password hashes, random opaque bearer
// tokens, one-time mail codes, roles from permissions (spec §6) and OpenID
// id_token verification (HS256 / RS256 through node:crypto).

import { hasRole as sharedHasRole, rolesFromPermissions } from '../src/shared/roles.js';
import { createHmac, createPublicKey, randomBytes, scryptSync, timingSafeEqual, verify as verifySignature } from 'node:crypto';
import type { Id, Role } from '../src/shared/types.js';
import type { MailCodePurpose, PendingAccount } from './store/records.js';
import type { Store } from './store/store.js';

export const TOKEN_LIFETIME_MS = 30 * 24 * 3600 * 1000;
/**
 * A room display signs in once and runs for months: its token lives while it
 * is used, lapsing after this long without a request (docs/security.md).
 */
export const DISPLAY_TOKEN_IDLE_MS = 90 * 24 * 3600 * 1000;
export const MAIL_CODE_LIFETIME_MS = 24 * 3600 * 1000;
const SCRYPT_KEY_BYTES = 32;

export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `${salt.toString('hex')}:${scryptSync(password, salt, SCRYPT_KEY_BYTES).toString('hex')}`;
}

/** Hash of a password nobody knows: checked against when there is no account, so both answers take as long. */
let decoyHash: string | null = null;

/**
 * Whether `password` matches `stored`. Takes the same time whether or not
 * there is a stored hash (an unknown email, an account without a password),
 * so the time of a sign-in does not tell which addresses have accounts.
 */
export function verifyPassword(password: string, stored: string | null): boolean {
  const [saltHex, hashHex] = (stored ?? '').split(':');
  const usable = !!saltHex && !!hashHex;
  decoyHash ??= hashPassword(randomBytes(16).toString('base64url'));
  const [salt, hash] = (usable ? [saltHex, hashHex] : decoyHash.split(':')) as [string, string];
  const expected = Buffer.from(hash, 'hex');
  const actual = scryptSync(password, Buffer.from(salt, 'hex'), expected.length);
  return timingSafeEqual(expected, actual) && usable;
}

/** Roles of a permission list (one home: src/shared/roles.ts). */
export function rolesOf(permissions: readonly string[]): Role[] {
  return rolesFromPermissions({ permissions });
}

export function hasRole(permissions: readonly string[], role: Role): boolean {
  return sharedHasRole({ permissions }, role);
}

/**
 * Sessions one user keeps at once (docs/security.md "Sessions per user"): past it, a new sign-in ends the
 * oldest, its live connections too. Enough for every browser and device a person uses and a few forgotten
 * ones, while a script signing in over and over (from many addresses, with the right password) can no longer
 * pile up tokens and broker credentials (up to 4 per session) without end.
 */
export const MAX_SESSIONS_PER_USER = 50;
/** Room displays of one account (often one account for a building's displays): the least recently used ends. */
export const MAX_DISPLAY_SESSIONS_PER_USER = 200;

export function issueToken(store: Store, userId: Id, options: { display?: boolean } = {}): { token: string; expiresAt: number } {
  const token = randomBytes(32).toString('base64url');
  const now = store.clock.now();
  const display = options.display === true;
  const expiresAt = now + (display ? DISPLAY_TOKEN_IDLE_MS : TOKEN_LIFETIME_MS);
  store.tokens.set(token, display ? { userId, expiresAt, display: true } : { userId, expiresAt });
  // the user's sessions of this kind, oldest first (a display's by its last use, which sets its end)
  const kept: Array<[string, number]> = [];
  for (const [t, rec] of store.tokens) {
    if (rec.userId !== userId || (rec.display === true) !== display || t === token) continue;
    if (rec.expiresAt <= now) store.revokeSessions(userId, 'displaced', { onlyToken: t });
    else kept.push([t, rec.expiresAt]);
  }
  if (display) kept.sort((a, b) => a[1] - b[1]);
  const cap = display ? MAX_DISPLAY_SESSIONS_PER_USER : MAX_SESSIONS_PER_USER;
  for (const [t] of kept.slice(0, Math.max(0, kept.length + 1 - cap))) store.revokeSessions(userId, 'displaced', { onlyToken: t });
  return { token, expiresAt };
}

export function userForToken(store: Store, token: string) {
  const rec = store.tokens.get(token);
  if (!rec) return null;
  const now = store.clock.now();
  if (rec.expiresAt <= now) {
    store.tokens.delete(token);
    return null;
  }
  // a display's token is kept alive by its use
  if (rec.display) rec.expiresAt = now + DISPLAY_TOKEN_IDLE_MS;
  return store.users.get(rec.userId) ?? null;
}

export const DISPLAY_TOKEN_REFUSED = 'A display may only read and book rooms';

/** What a display token may call besides reading: book, authorise its live channels, sign out. */
const DISPLAY_WRITES = new Set(['POST /v1/booking', 'POST /v1/pusher/auth', 'POST /v1/logout']);

/** Whether a request carrying a display token may go on (reads, and the few writes a display needs). */
export function displayMayCall(method: string, route: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || DISPLAY_WRITES.has(`${method} ${route}`);
}

export function issueMailCode(store: Store, userId: Id, purpose: MailCodePurpose): string {
  const code = randomBytes(18).toString('base64url');
  store.mailCodes.set(code, { userId, purpose, expiresAt: store.clock.now() + MAIL_CODE_LIFETIME_MS });
  return code;
}

/** A signup's code: it names the address and organization; no user exists until it is confirmed. */
export function issueSignupCode(store: Store, email: string, organizationId: Id, invite?: PendingAccount['invite']): string {
  const code = randomBytes(18).toString('base64url');
  store.mailCodes.set(code, {
    userId: null, purpose: invite ? 'invite' : 'signup', expiresAt: store.clock.now() + MAIL_CODE_LIFETIME_MS, signup: { email, organizationId, ...(invite ? { invite } : {}) },
  });
  return code;
}

/** Consumes a valid signup (or pending invitation) code and returns what it was for, or null; single use. */
export function consumeSignupCode(store: Store, code: string): PendingAccount | null {
  const rec = store.mailCodes.get(code);
  if (!rec?.signup || rec.expiresAt <= store.clock.now()) return null;
  store.mailCodes.delete(code);
  return rec.signup;
}

/**
 * Ends every outstanding mail code of a user: once their password or address
 * changed, a reset mail read by someone else (or sent to the old mailbox)
 * must not set the password afterwards (docs/security.md "Mailed codes").
 */
export function dropMailCodes(store: Store, userId: Id): void {
  for (const [code, rec] of store.mailCodes) if (rec.userId === userId) store.mailCodes.delete(code);
}

/** Consumes a code if it is valid for `userId`; single use. */
export function consumeMailCode(store: Store, code: string, userId: Id): boolean {
  const rec = store.mailCodes.get(code);
  if (!rec || rec.userId !== userId || rec.expiresAt <= store.clock.now()) return false;
  store.mailCodes.delete(code);
  return true;
}

export interface OpenIdOptions {
  /** HS256 shared secret, or an RS256 public key in PEM */
  key: string;
  algorithm: 'HS256' | 'RS256';
  /**
   * Required `aud`: this server's client id at the provider. Without it an
   * id_token the provider issued to any other app (one the user signed in to
   * elsewhere) would sign the user in here (docs/security.md).
   */
  audience: string;
  /** expected `iss`; unchecked when absent */
  issuer?: string;
}

export class IdTokenError extends Error {
  override name = 'IdTokenError';
}

/** Verifies a compact JWS and returns its claims, or throws IdTokenError. */
export function verifyIdToken(idToken: string, options: OpenIdOptions, nowMs: number): Record<string, unknown> {
  const parts = idToken.split('.');
  if (parts.length !== 3) throw new IdTokenError('id_token is not a JWT');
  const [h, p, sig] = parts as [string, string, string];
  let header: { alg?: string };
  let claims: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
  } catch {
    throw new IdTokenError('id_token is not a JWT');
  }
  if (header.alg !== options.algorithm) throw new IdTokenError('id_token algorithm not accepted');
  const data = Buffer.from(`${h}.${p}`);
  const signature = Buffer.from(sig, 'base64url');
  const valid = options.algorithm === 'HS256'
    ? safeEqual(createHmac('sha256', options.key).update(data).digest(), signature)
    : verifySignature('RSA-SHA256', data, createPublicKey(options.key), signature);
  if (!valid) throw new IdTokenError('id_token signature invalid');
  const nowS = nowMs / 1000;
  if (typeof claims.exp !== 'number' || claims.exp <= nowS) throw new IdTokenError('id_token expired');
  if (typeof claims.nbf === 'number' && claims.nbf > nowS) throw new IdTokenError('id_token not yet valid');
  if (!options.audience) throw new IdTokenError('OpenID sign-in has no audience configured');
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!aud.includes(options.audience)) throw new IdTokenError('id_token audience mismatch');
  if (options.issuer !== undefined && claims.iss !== options.issuer) throw new IdTokenError('id_token issuer mismatch');
  if (typeof claims.email !== 'string' || !claims.email) throw new IdTokenError('id_token has no email');
  // an address the provider has not verified proves nothing about who signs in (OpenID Connect Core §5.1)
  if (claims.email_verified !== true && claims.email_verified !== 'true') throw new IdTokenError('id_token email is not verified');
  return claims;
}

function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
