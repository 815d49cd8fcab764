/**
 * Front-matter keys another tool reads (coursesync.yaml `front_matter.ignore`): a book written
 * for mdbook-course carries `minutes:` and `session:` on most pages, and syncs with no edit to
 * them. Without the setting such a key is an error whose hint names it; coursesync's own keys
 * cannot be listed; the lesson cache keeps a lesson compiled under one list apart from another.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { placeOf, type Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { inheritedDefaults } from '../../src/compile/course-parts.js';
import { lessonCacheKey } from '../../src/compile/lesson-cache.js';
import { DEFAULT_CONFIG } from '../../src/model/config.js';
import { loadCourse } from '../../src/load/load-course.js';
import { removeRepos, writeRepo } from '../e2e/helpers.js';

afterAll(removeRepos);

const brief = (d: Diagnostic) => `${placeOf(d)} ${d.severity} ${d.code} ${d.message}`;
const PAGE = [
  '---',
  'minutes: 5',
  'course: Fundamentals',
  'session: Day 1 Morning',
  '---',
  '',
  '<!--',
  'Copyright 2022 Google LLC',
  '-->',
  '',
  '# What is Rust?',
  '',
  'Rust is a new programming language that had its [1.0 release in 2015](https://blog.rust-lang.org/2015/05/15/Rust-1.0.html):',
  '',
  '| Feature | Rust |',
  '|---|---|',
  '| Memory safety | yes |',
  '',
  '```rust',
  'fn main() {',
  '    println!("Edit me!");',
  '}',
  '```',
  '',
].join('\n');

async function course(config: string) {
  const dir = await writeRepo({ 'coursesync.yaml': config, 'p/program.yaml': 'id: prog_rust\n', 'p/s/section.yaml': 'id: sec_hello\n', 'p/s/01-what-is-rust.md': PAGE });
  return loadCourse(dir, { renderThreads: 1 });
}

describe('front-matter keys of other tools', () => {
  it('without the setting: each is an error at its line, whose hint says how to leave it to its tool', async () => {
    const result = await course('school:\n  lesson_url: https://academy.example.com/products/{program_id}/lessons/{lesson_id}\n');
    expect(result.desired).toBeUndefined();
    expect(result.diagnostics.map(brief)).toEqual([
      'p/s/01-what-is-rust.md:2:1 error lesson/unknown-key unknown key "minutes"',
      'p/s/01-what-is-rust.md:3:1 error lesson/unknown-key unknown key "course"',
      'p/s/01-what-is-rust.md:4:1 error lesson/unknown-key unknown key "session"',
    ]);
    expect(result.diagnostics[0]!.hint).toMatch(/^allowed keys: name, key, .*; a key another tool reads is left to it by `front_matter: \{ ignore: \[key\] \}` in coursesync\.yaml$/);
  });

  it('listed under front_matter.ignore: left alone, the lesson compiles as if they were not there', async () => {
    const result = await course('front_matter:\n  ignore: [minutes, course, session, target_minutes]\n');
    expect(result.diagnostics.filter((d) => d.severity === 'error').map(brief)).toEqual([]);
    const lesson = result.desired!.programs[0]!.sections[0]!.lessons[0]!;
    expect(lesson.key).toBe('what-is-rust');
    expect(lesson.fields.name).toBe('What is Rust?');
    expect(lesson.fields.body).toContain('<table>');
    expect(lesson.fields.body).not.toContain('minutes');
  });

  it("one of coursesync's own keys cannot be listed (it would be read and ignored at once)", async () => {
    const result = await course('front_matter:\n  ignore: [minutes, drip_delay]\n');
    expect(result.diagnostics.filter((d) => d.severity === 'error').map(brief)).toContain(
      'coursesync.yaml:2:21 error config/invalid-field "front_matter.ignore.1" must not be a key coursesync reads itself',
    );
  });

  it('the lesson cache keeps a lesson compiled under one list apart from the same file under another', () => {
    const source = { path: 'p/s/01-what-is-rust.md', digest: 'a'.repeat(64) };
    // What a section's lessons inherit carries the list (sorted), so the key covers it.
    const inherited = (ignore?: string[]) => inheritedDefaults({}, { ...DEFAULT_CONFIG, ...(ignore && { front_matter: { ignore } }) });
    expect(lessonCacheKey(source, inherited(['minutes']))).not.toBe(lessonCacheKey(source, inherited()));
    expect(lessonCacheKey(source, inherited(['minutes', 'session']))).toBe(lessonCacheKey(source, inherited(['session', 'minutes'])));
    // What follows path and bytes starts with \0{, as load-course's recall reads a key.
    expect(lessonCacheKey(source, { lesson_type: 'text', ...inherited(['minutes']) }).replace(/\0\{[^]*$/, '')).toBe(lessonCacheKey(source));
  });
});
