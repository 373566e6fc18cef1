/**
 * The media type of an uploaded file from its first bytes, as PHP's finfo (and so the provider's
 * media library) decides it: the type a client claims is not what the server stores.
 */
const SIGNATURES: ReadonlyArray<readonly [bytes: number[], offset: number, type: string]> = [
  [[0x25, 0x50, 0x44, 0x46, 0x2d], 0, 'application/pdf'], // %PDF-
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 0, 'image/png'],
  [[0xff, 0xd8, 0xff], 0, 'image/jpeg'],
  [[0x47, 0x49, 0x46, 0x38], 0, 'image/gif'], // GIF8
  [[0x57, 0x45, 0x42, 0x50], 8, 'image/webp'], // RIFF....WEBP
  [[0x49, 0x49, 0x2a, 0x00], 0, 'image/tiff'],
  [[0x4d, 0x4d, 0x00, 0x2a], 0, 'image/tiff'],
  [[0x50, 0x4b, 0x03, 0x04], 0, 'application/zip'],
  [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], 0, 'application/vnd.ms-office'],
];

/** How many leading bytes `sniffMime` looks at. */
export const SNIFF_BYTES = 512;

export function sniffMime(head: Uint8Array): string {
  if (head.length === 0) return 'application/x-empty';
  for (const [bytes, offset, type] of SIGNATURES) {
    if (bytes.every((b, i) => head[offset + i] === b)) return type;
  }
  return looksLikeText(head) ? 'text/plain' : 'application/octet-stream';
}

function looksLikeText(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
  try {
    // A multi-byte character cut at the end of the head is still text.
    new TextDecoder('utf-8', { fatal: true }).decode(
      head.subarray(0, Math.max(0, head.length - 3)),
    );
    return true;
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return false;
  }
}
