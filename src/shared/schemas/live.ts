// The live packet (spec §3 "Live packet", docs/protocol.md §5): what every
// Pusher event and MQTT message carries once base64-decoded and inflated,
// and the frames that carry one change too large for a single message.

import { Type, type Static } from 'typebox';
import { CHANGE_KINDS, COLLECTIONS } from '../protocol.js';
import { WireId } from './common.js';

export const LiveChange = Type.Object({
  collection: Type.Enum(COLLECTIONS),
  kind: Type.Enum(CHANGE_KINDS),
  /** id of the object; required for 'deleted' */
  id: WireId,
  /** wire JSON of the object (created/modified), or measurement / heartbeat data */
  data: Type.Optional(Type.Unknown()),
});
export type LiveChange = Static<typeof LiveChange>;

/**
 * One slice of a change too large for one message. The slices of frames
 * 0…count-1, joined in order, are one encoded packet (base64 of deflated
 * JSON) whose changes belong to the last frame; every frame takes its own
 * stream sequence, so a lost slice is a gap like any other.
 */
export const LiveFrame = Type.Object({
  index: Type.Integer({ minimum: 0 }),
  count: Type.Integer({ minimum: 2 }),
  data: Type.String(),
});
export type LiveFrame = Static<typeof LiveFrame>;

export const LivePacket = Type.Object({
  /** identifies one incarnation of a stream; a server restart makes a new one */
  stream_id: Type.String({ minLength: 1 }),
  /** +1 per packet on a stream, starting at 1 */
  stream_sequence: Type.Integer({ minimum: 1 }),
  /** empty in every frame; the reassembled change appears with the last one */
  changes: Type.Array(LiveChange),
  frame: Type.Optional(LiveFrame),
});
export type LivePacket = Static<typeof LivePacket>;

/** Stream position an initial REST load reflects (response headers). */
export const StreamPosition = Type.Object({
  stream_id: Type.String(),
  /** the last sequence already contained in the response; 0 before any packet */
  stream_sequence: Type.Integer({ minimum: 0 }),
});
export type StreamPosition = Static<typeof StreamPosition>;
