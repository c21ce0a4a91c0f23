// Uploaded images are checked against their declared type by their leading
// bytes, so a blob that is not the image it claims to be is refused (and an
// SVG must at least be an SVG document; it is served under a strict CSP).

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml'] as const;

export function contentTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

export function looksLikeImage(contentType: string, data: unknown): data is Buffer {
  if (!Buffer.isBuffer(data) || data.length === 0) return false;
  const starts = (hex: string, at = 0) => data.subarray(at, at + hex.length / 2).equals(Buffer.from(hex, 'hex'));
  switch (contentType) {
    case 'image/png': return starts('89504e470d0a1a0a');
    case 'image/jpeg': return starts('ffd8ff');
    case 'image/gif': return starts('474946383761') || starts('474946383961');
    case 'image/webp': return starts('52494646') && starts('57454250', 8);
    case 'image/svg+xml': {
      const head = data.subarray(0, 1024).toString('utf8').trimStart();
      return head.startsWith('<') && /<svg[\s>]/.test(data.toString('utf8'));
    }
    default: return false;
  }
}
