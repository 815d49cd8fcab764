/**
 * The player a learner sees for a video lesson (PURE): the host's embed address for a host field
 * (ids through the school's own URL rules, src/school-api/video-urls.ts), or the lesson's own embed
 * code. Host names follow the kinds of host the API's four fields stand for.
 */
import { VIDEO_HOST_FIELDS, type LessonFields } from '../model/desired.js';
import { videoHostOfField, videoIdFromUrl, type VideoHost } from '../school-api/video-urls.js';
import { escapeHtml } from './html.js';

const EMBED_URL: Record<VideoHost, (id: string) => string> = {
  a: (id) => `https://www.youtube-nocookie.com/embed/${id}`,
  b: (id) => `https://player.vimeo.com/video/${id}`,
  c: (id) => `https://fast.wistia.net/embed/iframe/${id}`,
  d: (id) => `https://www.loom.com/embed/${id}`,
};

/** The player HTML of a lesson, or '' when it has none. Embed code is the lesson's own HTML, kept as written. */
export function playerHtml(fields: LessonFields): string {
  if (fields.lesson_type === 'embed') return fields.embed_code ? `<div class="player embed" data-player="embed">${fields.embed_code}</div>` : '';
  if (fields.lesson_type !== 'video') return '';
  for (const field of VIDEO_HOST_FIELDS) {
    const value = fields[field];
    if (!value) continue;
    const host = videoHostOfField(field);
    const id = videoIdFromUrl(host, value);
    if (id === null) return `<p class="player missing">video host ${host}: ${escapeHtml(value)} is not a video address this host supports</p>`;
    const src = EMBED_URL[host](encodeURIComponent(id));
    return `<div class="player" data-player="host_${host}"><iframe src="${escapeHtml(src)}" title="video (host ${host})" loading="lazy" allowfullscreen></iframe></div>`;
  }
  if (fields.settings_embed_code) return `<div class="player" data-player="embed_code">${fields.settings_embed_code}</div>`;
  return '';
}
