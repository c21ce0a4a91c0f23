// What every route module receives: the store, the mail outbox, the live
// transport (known once the server listens) and sign-in configuration.

import type { OpenIdOptions } from '../auth.js';
import type { ListValidators } from '../etags.js';
import type { LiveTransport } from '../live/transport.js';
import type { Outbox } from '../mail.js';
import type { RateLimiter } from '../rateLimits.js';
import type { MailCodePurpose } from '../store/records.js';
import type { Store } from '../store/store.js';

export interface RouteContext {
  store: Store;
  outbox: Outbox;
  transport(): LiveTransport | null;
  /** the port the server listens on */
  port(): number;
  openId: OpenIdOptions | null;
  /**
   * Where mailed links point: the configured public URL, else the server's
   * own; never the request's Host header, which anyone can set (a reset link
   * to the attacker's host would hand them the victim's code).
   */
  publicUrl(): string;
  /** per-client and per-account limits of the routes attackers repeat */
  limits: RateLimiter;
  /** the large lists' tags kept with their stream position (a revalidation builds no body) */
  validators: ListValidators;
  /** sends a one-time-code mail; set by the account routes, used by invites */
  mailCode(userId: string, purpose: MailCodePurpose): void;
}
