/**
 * sha256, hex (PURE): one call per text or bytes. `crypto.hash` (Node ≥ 20.12) costs a third
 * less per call than a Hash object, which counts at 10,000 lessons (a hash per file read, and
 * several per lesson digest); older Node 20 releases fall back to createHash.
 */
import * as crypto from 'node:crypto';

const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array) => string }).hash;

export const sha256: (data: string | Uint8Array) => string = oneShot ? (data) => oneShot('sha256', data) : (data) => crypto.createHash('sha256').update(data).digest('hex');
