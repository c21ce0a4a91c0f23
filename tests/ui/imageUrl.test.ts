import { describe, expect, it } from 'vitest';
import { allowedImageUrl, isAllowedImageUrl } from '../../src/ui/lib/imageUrl.js';

const policy = { apiHost: 'https://api.example.com', cdnBaseUrl: 'https://cdn.example.net/tenant/', origin: 'https://app.example.com' };

describe('imageUrl', () => {
  describe('allowedImageUrl', () => {
    it('allows images from the API host', () => {
      expect(allowedImageUrl('https://api.example.com/v1/users/1/image', policy)).toBe('https://api.example.com/v1/users/1/image');
    });
    it('allows images under the CDN base URL of the settings', () => {
      expect(isAllowedImageUrl('https://cdn.example.net/tenant/plans/f1.png', policy)).toBe(true);
    });
    it('refuses the CDN host outside the base path, also through dot segments', () => {
      expect(isAllowedImageUrl('https://cdn.example.net/other/f1.png', policy)).toBe(false);
      expect(isAllowedImageUrl('https://cdn.example.net/tenant/../other/f1.png', policy)).toBe(false);
    });
    it('resolves relative paths against the page origin and allows them', () => {
      expect(allowedImageUrl('/avatar-default.svg', policy)).toBe('https://app.example.com/avatar-default.svg');
    });
    it('refuses other hosts, look-alike hosts and other ports', () => {
      expect(isAllowedImageUrl('https://evil.example.org/a.png', policy)).toBe(false);
      expect(isAllowedImageUrl('https://api.example.com.evil.org/a.png', policy)).toBe(false);
      expect(isAllowedImageUrl('https://api.example.com:8443/a.png', policy)).toBe(false);
      expect(isAllowedImageUrl('//evil.example.org/a.png', policy)).toBe(false);
    });
    it('refuses javascript:, data: and credentials in the URL', () => {
      expect(isAllowedImageUrl('javascript:alert(1)', policy)).toBe(false);
      expect(isAllowedImageUrl('data:image/svg+xml,<svg/>', policy)).toBe(false);
      expect(isAllowedImageUrl('https://user:pw@api.example.com/a.png', policy)).toBe(false);
    });
    it('refuses empty and missing URLs', () => {
      expect(allowedImageUrl(null, policy)).toBeNull();
      expect(allowedImageUrl('', policy)).toBeNull();
    });
    it('allows the whole CDN origin when the base URL has no path', () => {
      expect(isAllowedImageUrl('https://cdn.example.net/x.png', { ...policy, cdnBaseUrl: 'https://cdn.example.net' })).toBe(true);
    });
  });
});
