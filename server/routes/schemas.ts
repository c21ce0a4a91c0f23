// JSON-schema pieces for request validation, so malformed input is refused
// with a 400 that names the field before any handler runs.

export const idParam = { type: 'string', pattern: '^[0-9]{1,18}$' } as const;
export const emailSchema = { type: 'string', minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' } as const;
export const timeSchema = { type: 'integer', minimum: 0, maximum: 8.64e15 } as const;
export const vec2 = { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 } as const;
export const vec3 = { type: 'array', items: { type: 'number' }, minItems: 3, maxItems: 3 } as const;
export const rgb = { anyOf: [{ type: 'array', items: { type: 'number' }, minItems: 3, maxItems: 4 }, { type: 'null' }] } as const;
export const nullableString = { type: ['string', 'null'], maxLength: 10_000 } as const;
export const stringList = { type: 'array', items: { type: 'string', maxLength: 200 }, maxItems: 10_000 } as const;
export const idList = { type: 'array', items: idParam, maxItems: 10_000 } as const;
export const configSchema = { type: 'object' } as const;

export function objectSchema(properties: Record<string, unknown>, required: string[] = [], additional = false) {
  return { type: 'object', properties, required, additionalProperties: additional } as const;
}

export function params(...names: string[]) {
  return objectSchema(Object.fromEntries(names.map((n) => [n, idParam])), names);
}
