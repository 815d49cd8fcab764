/** A small course repo (3 sections in 2 programs, every lesson type used) for apply tests, and edits of it. */
import { lesson } from '../e2e/helpers.js';

/** The first version of the alpha lesson: a video on host C. */
export const ALPHA_1 = lesson(
  'name: Alpha\nlesson_type: video\nvideo:\n  host_c: https://fast.wistia.net/embed/iframe/abc123xyz0',
  'First body.',
);
/** Every field of alpha changed, the video source switched to embed code (unpublishing it is acknowledged). */
export const ALPHA_2 = lesson(
  'name: Alpha renamed\nlesson_type: video\ndrip_delay: 5\nis_published: false\nis_progression_locked: true\nacknowledge: [unpublished]\ndescription: Now with a **description**.\nvideo:\n  embed_code: <div class="player">v2</div>',
  'Second body.\n\n> quoted',
);
/** File path → text. */
export const BASE_REPO: Record<string, string> = {
  'coursesync.yaml': 'removed_lessons: keep\n',
  'intro/program.yaml': 'id: prog_intro\n',
  'intro/a/section.yaml': 'id: sec_start\n',
  'intro/a/1-alpha.md': ALPHA_1,
  'intro/a/2-beta.md': lesson('name: Beta\nlesson_type: text'),
  'intro/a/3-gamma.md': lesson('name: Gamma\nlesson_type: embed\nembed_code: <div>one</div>'),
  'intro/a/4-delta.md': lesson('name: Delta\nlesson_type: text'),
  'intro/b/section.yaml': 'id: sec_types\n',
  'intro/b/1-epsilon.md': lesson('name: Epsilon\nlesson_type: text'),
  'intro/b/2-zeta.md': lesson('name: Zeta\nlesson_type: text'),
  'adv/program.yaml': 'id: prog_advanced\n',
  'adv/g/section.yaml': 'id: sec_generics\n',
  'adv/g/1-eta.md': lesson('name: Eta\nlesson_type: text'),
};

