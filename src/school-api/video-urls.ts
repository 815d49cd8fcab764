/**
 * The school's video URL → id rules (docs/school-api.md#lesson-input-fields: each host field takes a video id or a
 * supported HTTP(S) share, watch or embed URL, and a URL is stored as an id). The one place
 * these patterns live: the emulator normalises with it and the course validator checks with it.
 *
 * - host A (YouTube-like): youtube.com/watch?v=ID, youtu.be/ID, youtube.com/embed/ID
 * - host B (Vimeo-like):   vimeo.com/123, player.vimeo.com/video/123
 * - host C (Wistia-like):  <account>.wistia.com/medias/ID, fast.wistia.net/embed/iframe/ID
 * - host D (Loom-like):    loom.com/share/ID, loom.com/embed/ID
 * `www.` (and `m.` for host A) are accepted. A plain id (letters, digits, `-`, `_`) is kept as
 * it is. Anything else (another site, an unknown path, a non-http scheme) is unsupported: null,
 * which the server answers with 422.
 */

export type VideoHost = 'a' | 'b' | 'c' | 'd';

const PLAIN_ID = /^[A-Za-z0-9_-]+$/;
const NUMERIC_ID = /^\d+$/;

/** Lower-cased host name without a leading `www.`. */
function bareHost(url: URL): string {
  return url.hostname.toLowerCase().replace(/^www\./, '');
}

/** Non-empty path segments. */
function segmentsOf(url: URL): string[] {
  return url.pathname.split('/').filter((s) => s !== '');
}

/** The id if it is a plain id, else null. */
function plainId(value: string | undefined, pattern = PLAIN_ID): string | null {
  return value !== undefined && pattern.test(value) ? value : null;
}

function hostA(url: URL): string | null {
  const host = bareHost(url);
  const seg = segmentsOf(url);
  if (host === 'youtu.be') return seg.length === 1 ? plainId(seg[0]) : null;
  if (host !== 'youtube.com' && host !== 'm.youtube.com') return null;
  if (seg.length === 1 && seg[0] === 'watch') return plainId(url.searchParams.get('v') ?? undefined);
  if (seg.length === 2 && seg[0] === 'embed') return plainId(seg[1]);
  return null;
}

function hostB(url: URL): string | null {
  const host = bareHost(url);
  const seg = segmentsOf(url);
  if (host === 'vimeo.com') return seg.length >= 1 ? plainId(seg[0], NUMERIC_ID) : null;
  if (host === 'player.vimeo.com' && seg.length === 2 && seg[0] === 'video') return plainId(seg[1], NUMERIC_ID);
  return null;
}

function hostC(url: URL): string | null {
  const host = bareHost(url);
  const seg = segmentsOf(url);
  if (host.endsWith('.wistia.com') && seg.length === 2 && seg[0] === 'medias') return plainId(seg[1]);
  if (host === 'fast.wistia.net' && seg.length === 3 && seg[0] === 'embed' && seg[1] === 'iframe') return plainId(seg[2]);
  return null;
}

function hostD(url: URL): string | null {
  const host = bareHost(url);
  const seg = segmentsOf(url);
  if (host === 'loom.com' && seg.length === 2 && (seg[0] === 'share' || seg[0] === 'embed')) return plainId(seg[1]);
  return null;
}

const parsers: Record<VideoHost, (url: URL) => string | null> = { a: hostA, b: hostB, c: hostC, d: hostD };

/**
 * The video id for a host field value: a plain id is returned unchanged (after trimming
 * surrounding spaces), a supported http(s) URL of that host gives its id, anything else null.
 */
export function videoIdFromUrl(host: VideoHost, value: string): string | null {
  const text = value.trim();
  if (PLAIN_ID.test(text)) return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  return parsers[host](url);
}

/** The host letter of an API field name `settings_embed_host_<x>`. */
export function videoHostOfField(field: `settings_embed_host_${VideoHost}`): VideoHost {
  return field.slice(-1) as VideoHost;
}
