/**
 * Where each managed lesson field is written in a lesson file, as the author wrote it (PURE):
 * plans name fields this way (`video: host_a`, not the API's `settings_embed_host_a`). `body` is
 * the Markdown under the front-matter. Next to the front-matter schema (lesson.ts); it must
 * follow compile-lesson.ts, which fills the fields (test/plan/front-matter-keys.test.ts checks).
 */
import type { LessonField } from '../school-api/school-rules.js';

export const FRONT_MATTER_KEY: Readonly<Record<LessonField, string>> = {
  name: 'name',
  lesson_type: 'lesson_type',
  drip_delay: 'drip_delay',
  is_published: 'is_published',
  is_progression_locked: 'is_progression_locked',
  description: 'description',
  body: 'body',
  settings_embed_host_a: 'video: host_a',
  settings_embed_host_b: 'video: host_b',
  settings_embed_host_c: 'video: host_c',
  settings_embed_host_d: 'video: host_d',
  settings_embed_code: 'video: embed_code',
  embed_code: 'embed_code',
};
