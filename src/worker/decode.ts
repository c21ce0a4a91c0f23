// Live payload decoding (spec §7): base64 → zlib inflate → JSON → a checked
// LivePacket (normalizeLivePacket of src/shared). Any failing step drops the
// payload with a warning instead of throwing, because bad network input must
// never break the engine (DESIGN §6). Uses atob, which Node and workers share.
//
// One inflater is kept for every payload (pako's zlib stream, reset per payload) with its input and output
// buffers: pako's one-shot `inflate` makes a stream, its tables, a 64 KB output buffer and a text decoder per
// call, ~100 KB of array buffers per packet, and in a worker holding a large store the garbage collections
// that much allocation sets off cost the engine more than the decoding itself (issue 14, ingest slice 8).

import { ZStream, Z_BUF_ERROR, Z_FINISH, Z_OK, Z_STREAM_END, zlibInflate, zlibInflateInit2, zlibInflateReset } from 'pako';
import { normalizeLivePacket } from '../shared/normalize/livePacket.js';
import type { LivePacket } from '../shared/protocol.js';
import type { Logger } from './ports.js';

export function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text.trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** zlib or gzip, told apart by the header, with pako's default 32 KB window (as its `inflate`) */
const WINDOW_BITS = 15 + 32;
const FIRST_OUTPUT_BYTES = 16 * 1024;

/** Inflates one payload after another with the same stream, tables, window and buffers. */
class PayloadInflater {
  private readonly strm = new ZStream();
  private input = new Uint8Array(4 * 1024);
  private output = new Uint8Array(FIRST_OUTPUT_BYTES);
  private readonly text = new TextDecoder();

  constructor() {
    const status = zlibInflateInit2(this.strm, WINDOW_BITS);
    if (status !== Z_OK) throw new Error(`inflate init failed (${status})`);
  }

  /** base64 → the inflated UTF-8 text; throws on bad base64 or zlib data */
  decode(base64: string): string {
    const binary = atob(base64.trim());
    const length = binary.length;
    if (this.input.length < length) this.input = new Uint8Array(Math.max(length, this.input.length * 2));
    const input = this.input;
    for (let i = 0; i < length; i++) input[i] = binary.charCodeAt(i);
    const strm = this.strm;
    zlibInflateReset(strm);
    strm.input = input;
    strm.next_in = 0;
    strm.avail_in = length;
    let written = 0;
    for (;;) {
      strm.output = this.output;
      strm.next_out = written;
      strm.avail_out = this.output.length - written;
      const status = zlibInflate(strm, Z_FINISH);
      written = strm.next_out;
      if (status === Z_STREAM_END) break;
      if ((status === Z_OK || status === Z_BUF_ERROR) && strm.avail_out === 0) {
        // more output than the buffer holds: a larger one, what came so far kept
        const larger = new Uint8Array(this.output.length * 2);
        larger.set(this.output.subarray(0, written));
        this.output = larger;
        continue;
      }
      throw new Error(strm.msg || `inflate failed (${status})`);
    }
    // the stream must not hold on to the payload's bytes (the buffers are reused)
    strm.input = null as unknown as Uint8Array;
    return this.text.decode(this.output.subarray(0, written));
  }
}

let inflater: PayloadInflater | null = null;

/** base64 → inflate → the payload's text, with one inflater and its buffers for every payload; throws on bad input */
export function payloadText(payload: string): string {
  inflater ??= new PayloadInflater();
  return inflater.decode(payload);
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
    return JSON.parse(payloadText(payload)) as unknown;
  } catch (error) {
    logger.warn('Dropped live payload: cannot decode', errorText(error));
    return undefined;
  }
}

export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
