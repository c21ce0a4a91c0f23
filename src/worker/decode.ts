// Live payload decoding (spec §7): base64 → zlib inflate → JSON → a checked
// LivePacket (normalizeLivePacket of src/shared). Any failing step drops the
// payload with a warning instead of throwing, because bad network input must
// never break the engine (DESIGN §6). Uses atob, which Node and workers share.

import { inflate } from 'pako';
import { normalizeLivePacket } from '../shared/normalize/livePacket.js';
import type { LivePacket } from '../shared/protocol.js';
import type { Logger } from './ports.js';

export function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text.trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The decoded packet, or null after logging why it was dropped. */
export function decodePacket(payload: unknown, logger: Logger): LivePacket | null {
  const json = decodePayload(payload, logger);
  return json === undefined ? null : normalizeLivePacket(json, { logger });
}

/** base64 → inflate → JSON (a whole payload, or the joined slices of a framed change); undefined after a warning. */
export function decodePayload(payload: unknown, logger: Logger): unknown {
  if (typeof payload !== 'string') {
    logger.warn('Dropped live payload: not a base64 string');
    return undefined;
  }
  try {
    return JSON.parse(inflate(base64ToBytes(payload), { toText: true })) as unknown;
  } catch (error) {
    logger.warn('Dropped live payload: cannot decode', errorText(error));
    return undefined;
  }
}

export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
