import { describe, expect, it } from 'vitest';
import { videoIdFromUrl, type VideoHost } from '../../src/school-api/video-urls.js';

const cases: Array<[VideoHost, string, string | null]> = [
  // host A (YouTube-like)
  ['a', 'dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
  ['a', '  dQw4w9WgXcQ ', 'dQw4w9WgXcQ'],
  ['a', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
  ['a', 'https://youtube.com/watch?v=dQw4w9WgXcQ&t=42', 'dQw4w9WgXcQ'],
  ['a', 'https://m.youtube.com/watch?v=abc-_1', 'abc-_1'],
  ['a', 'http://youtu.be/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
  ['a', 'https://www.youtube.com/embed/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
  ['a', 'https://www.youtube.com/watch', null],
  ['a', 'https://www.youtube.com/channel/xyz', null],
  ['a', 'https://youtube.com.evil.com/watch?v=abc', null],
  ['a', 'https://vimeo.com/123', null],
  ['a', 'javascript:alert(1)', null],
  // host B (Vimeo-like)
  ['b', '76979871', '76979871'],
  ['b', 'https://vimeo.com/76979871', '76979871'],
  ['b', 'https://www.vimeo.com/76979871', '76979871'],
  ['b', 'https://player.vimeo.com/video/76979871', '76979871'],
  ['b', 'https://vimeo.com/channels/staff', null],
  ['b', 'https://player.vimeo.com/video/abc', null],
  ['b', 'https://youtu.be/76979871', null],
  // host C (Wistia-like)
  ['c', 'e4a27b971d', 'e4a27b971d'],
  ['c', 'https://acme.wistia.com/medias/e4a27b971d', 'e4a27b971d'],
  ['c', 'https://fast.wistia.net/embed/iframe/e4a27b971d', 'e4a27b971d'],
  ['c', 'https://wistia.com/medias/e4a27b971d', null],
  ['c', 'https://acme.wistia.com/projects/e4a27b971d', null],
  // host D (Loom-like)
  ['d', 'c3b8a1d2e4', 'c3b8a1d2e4'],
  ['d', 'https://www.loom.com/share/c3b8a1d2e4', 'c3b8a1d2e4'],
  ['d', 'https://loom.com/embed/c3b8a1d2e4', 'c3b8a1d2e4'],
  ['d', 'https://loom.com/looms/c3b8a1d2e4', null],
  ['d', 'ftp://loom.com/share/c3b8a1d2e4', null],
  ['d', 'not an id', null],
];

describe('videoIdFromUrl', () => {
  it.each(cases)('host %s: %s → %j', (host, value, expected) => {
    expect(videoIdFromUrl(host, value)).toBe(expected);
  });
});
