/**
 * A resumed duplication writes over a file at the journal's path only if that file is the copy
 * an interrupted run wrote: it carries the job's key. The key is compared as text, so a key with
 * `.` (allowed in keys) does not match another key that a pattern built from it would.
 */
import { describe, expect, it } from 'vitest';
import { declaresKey } from '../../src/clone/duplicate-lessons.js';

const file = (key: string) => `---\nname: Loops (copy)\nkey: ${key}\ncopied_from: loops\n---\n\n# Loops\n\nA *for* loop.\n`;

describe('declaresKey', () => {
  it('finds the key line of the copy', () => {
    expect(declaresKey(file('loops.v2'), 'loops.v2')).toBe(true);
    expect(declaresKey(file('loops-copy'), 'loops-copy')).toBe(true);
  });

  it('a key with "." matches only itself, not any character in its place', () => {
    expect(declaresKey(file('loopsXv2'), 'loops.v2')).toBe(false);
    expect(declaresKey(file('loops.v2-old'), 'loops.v2')).toBe(false);
    expect(declaresKey('---\nname: Other\n---\nkey: loops.v2 is mentioned in the text\n', 'loops.v2')).toBe(false);
  });
});
