import { describe, expect, it } from 'vitest';
import { isSafeUrl, SAFE_URL_MAX_LENGTH, SAFE_URL_PATTERN } from '../../src/shared/safeUrl.js';

describe('safeUrl', () => {
  describe('isSafeUrl', () => {
    it('accepts absolute http and https URLs', () => {
      for (const url of ['https://cdn.example/a.svg', 'http://127.0.0.1:8080/v1/files/x', 'https://x.example/?q=1#top']) expect(isSafeUrl(url), url).toBe(true);
    });
    it('accepts relative paths, hash routes and dot-files that stay below their base', () => {
      for (const url of ['floorplans/12.svg', 'assets/3/texture', '#/floor?id=3', '.well-known/x', 'a/b:c']) expect(isSafeUrl(url), url).toBe(true);
    });
    it('refuses other schemes, in any case', () => {
      for (const url of ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,x', 'vbscript:x', 'file:///etc/passwd', 'mailto:a@b.c', 'ftp://x']) {
        expect(isSafeUrl(url), url).toBe(false);
      }
    });
    it('refuses root-relative and protocol-relative paths and backslashes', () => {
      for (const url of ['/v1/organizations', '//evil.example/x', '\\\\evil\\x', 'a\\..\\b']) expect(isSafeUrl(url), url).toBe(false);
    });
    it('refuses traversal, also percent-encoded or through encoded slashes', () => {
      for (const url of ['../x', 'a/../b', 'a/..', './a', 'a/./b', '%2e%2e/x', 'a/%2E%2e/b', 'a%2f..%2fb', 'a%5c..']) expect(isSafeUrl(url), url).toBe(false);
    });
    it('refuses empty, whitespace, control characters, non-strings and over-long values', () => {
      for (const url of ['', 'a b', 'https://x.example/a b', 'http://x\u0000y', 'a\nb', null, 42, { href: 'https://x' }]) expect(isSafeUrl(url)).toBe(false);
      expect(isSafeUrl(`https://x.example/${'a'.repeat(SAFE_URL_MAX_LENGTH)}`)).toBe(false);
    });
  });
  describe('SAFE_URL_PATTERN', () => {
    it('is a valid unicode-mode pattern, as ajv compiles JSON-schema patterns', () => {
      expect(new RegExp(SAFE_URL_PATTERN, 'u').test('https://x.example')).toBe(true);
    });
  });
});
