// Limits every JSON body meets before a route sees it (docs/security.md):
// nesting depth (a 10,000-deep `config` once broke every later list of the
// organization) and numbers that overflowed to Infinity while parsing
// (`1e999`), which JSON cannot carry back out. Checked without recursion,
// so no body can exhaust the stack here.

import { JSON_MAX_DEPTH } from '../src/shared/rest.js';

/** What is wrong with a parsed body, or null when it is within the limits. */
export function jsonLimitProblem(body: unknown, maxDepth: number = JSON_MAX_DEPTH): string | null {
  const stack: Array<{ value: unknown; depth: number; path: string }> = [{ value: body, depth: 0, path: 'body' }];
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop()!;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return `${path} is a number out of range`;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth + 1 > maxDepth) return `body is nested deeper than ${maxDepth} levels`;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1) stack.push({ value: value[i], depth: depth + 1, path: `${path}/${i}` });
    } else {
      for (const [key, item] of Object.entries(value)) stack.push({ value: item, depth: depth + 1, path: `${path}/${key}` });
    }
  }
  return null;
}
