// URLs the server stores and the viewer follows (notification links, image
// paths): an absolute http(s) URL, or a relative path that cannot climb out
// of its base. One pattern, used by the server's request schemas and by the
// viewer before it renders a link, so `javascript:`, `data:`, `//evil` or
// `../../admin` never get stored nor become clickable.

/** Longest URL or path accepted anywhere. */
export const SAFE_URL_MAX_LENGTH = 2_048;

const ABSOLUTE = String.raw`https?://[^\s/?#\\\u0000-\u001f\u007f]+(?:[/?#][^\s\\\u0000-\u001f\u007f]*)?`;
// relative: no leading slash or backslash, no scheme (no ':' before the first '/'),
// no '.'/'..' segment (also percent-encoded), no encoded slash or backslash, no whitespace
const RELATIVE = String.raw`(?![/\\])(?![^/?#]*:)(?!(?:[^?#]*/)?(?:\.|%2[eE]){1,2}(?:[/?#]|$))(?!.*%(?:2[fF]|5[cC]))[A-Za-z0-9._~!$&'()*+,;=:@%/?#-]+`;

/** JSON-schema `pattern` (also a RegExp source) of a safe URL. */
export const SAFE_URL_PATTERN = `^(?:${ABSOLUTE}|${RELATIVE})$`;

const SAFE_URL = new RegExp(SAFE_URL_PATTERN);

/** Whether `value` is an http(s) URL or a relative path without traversal. */
export function isSafeUrl(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= SAFE_URL_MAX_LENGTH && SAFE_URL.test(value);
}
