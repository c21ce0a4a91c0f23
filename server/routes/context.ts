// What every route module receives: the store, the mail outbox, the live
// transport (known once the server listens) and sign-in configuration.

import type { FastifyRequest } from 'fastify';
import type { OpenIdOptions } from '../auth.js';
import type { LiveTransport } from '../live/transport.js';
import type { Outbox } from '../mail.js';
import type { MailCodePurpose } from '../store/records.js';
import type { Store } from '../store/store.js';

export interface RouteContext {
  store: Store;
  outbox: Outbox;
  transport(): LiveTransport | null;
  /** the port the server listens on */
  port(): number;
  openId: OpenIdOptions | null;
  /** sends a one-time-code mail; set by the account routes, used by invites */
  mailCode(req: FastifyRequest, userId: string, purpose: MailCodePurpose): void;
}
