// Building blocks of the REST and wire schemas (docs/protocol.md §1): ids,
// times, vectors, colours, bounded text, configuration objects and the
// safe-URL rule. TypeBox values are plain JSON Schema, which the reference
// server's ajv compiles as they are; `Static<typeof X>` gives the TypeScript
// type, so one declaration serves validation and the client's types.

import { Type, type TSchema } from 'typebox';
import { ROLE_PERMISSIONS } from '../constants.js';
import { SAFE_URL_MAX_LENGTH, SAFE_URL_PATTERN } from '../safeUrl.js';

/** Request bodies name every field they accept; anything else is a 400. */
export const CLOSED = { additionalProperties: false } as const;

/** `T` or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Ids are strings of digits (they fit channel and topic names). */
export const Id = Type.String({ pattern: '^[0-9]{1,18}$' });
export const IdList = Type.Array(Id, { maxItems: 10_000 });
/** Ids as the server sends them (already checked on the way in). */
export const WireId = Type.String();

export const Email = Type.String({ minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' });
/** ms since the epoch, up to the largest Date */
export const Time = Type.Integer({ minimum: 0, maximum: 8.64e15 });

export const Vec2 = Type.Tuple([Type.Number(), Type.Number()]);
export const Vec3 = Type.Tuple([Type.Number(), Type.Number(), Type.Number()]);
/** RGB, or RGBA on input */
export const Rgb = Type.Union([
  Type.Tuple([Type.Number(), Type.Number(), Type.Number()]),
  Type.Tuple([Type.Number(), Type.Number(), Type.Number(), Type.Number()]),
]);
export const Outline = Type.Array(Vec2, { maxItems: 10_000 });

export const Text = (maxLength: number, minLength = 0) => Type.String({ minLength, maxLength });
export const NullableText = Nullable(Text(10_000));
export const StringList = Type.Array(Text(200), { maxItems: 10_000 });

/** Free-form configuration (spec §3 "config"); its depth is bounded for every JSON body (docs/protocol.md §1). */
export const Config = Type.Record(Type.String(), Type.Unknown());

/** An http(s) URL, or a relative path without traversal (src/shared/safeUrl.ts). */
export const SafeUrl = Type.String({ minLength: 1, maxLength: SAFE_URL_MAX_LENGTH, pattern: SAFE_URL_PATTERN });

export const Permission = Type.Enum([ROLE_PERMISSIONS.admin, ROLE_PERMISSIONS.edit, ROLE_PERMISSIONS.service, ROLE_PERMISSIONS.regular]);
export const PermissionList = Type.Array(Permission, { maxItems: 10 });

/** Path parameters that are ids, e.g. `Params('orgId', 'locId')`. */
export function Params<const K extends string>(...names: K[]) {
  const properties = Object.fromEntries(names.map((name) => [name, Id])) as { [P in K]: typeof Id };
  return Type.Object(properties, CLOSED);
}
