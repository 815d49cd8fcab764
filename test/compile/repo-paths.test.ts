/** Repo paths (compile/repo-paths.ts): the folders a set of files lies in. */
import { describe, expect, it } from 'vitest';
import { foldersOf } from '../../src/compile/repo-paths.js';

describe('foldersOf', () => {
  it('lists every folder holding a file at any depth, the root among them, once each', () => {
    expect([...foldersOf(['README.md', 'course/01-basics/README.md', 'course/01-basics/code/main.py', 'course/02-next/run.py'])].sort()).toEqual([
      '',
      'course',
      'course/01-basics',
      'course/01-basics/code',
      'course/02-next',
    ]);
    expect([...foldersOf([])]).toEqual(['']);
  });
});
