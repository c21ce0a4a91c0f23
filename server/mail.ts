// The local mail outbox: signup, recovery and invite mails stay in memory
// (nothing leaves the machine); tests read them through `outbox` or
// GET /v1/dev/outbox when the server runs with dev routes.

import type { MailCodePurpose } from './store/records.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  purpose: MailCodePurpose;
  /** the one-time code and who it is for, so a client can complete the flow */
  code: string;
  /** null for a signup: the user is created when the code is confirmed */
  user_id: string | null;
  organization_id: string;
  /** ms epoch */
  sent_at: number;
}

export interface Outbox {
  send(mail: Mail): void;
  /** every mail so far, oldest first */
  list(): Mail[];
  /** latest mail to `to`, if any */
  latest(to: string): Mail | undefined;
  clear(): void;
}

export const OUTBOX_MAX_MAILS = 1_000;

export function createOutbox(): Outbox {
  const mails: Mail[] = [];
  return {
    send(mail) {
      mails.push(mail);
      if (mails.length > OUTBOX_MAX_MAILS) mails.shift();
    },
    list: () => [...mails],
    latest(to) {
      const wanted = to.toLowerCase();
      for (let i = mails.length - 1; i >= 0; i -= 1) if (mails[i]!.to === wanted) return mails[i];
      return undefined;
    },
    clear() { mails.length = 0; },
  };
}
