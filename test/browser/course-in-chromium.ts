/**
 * What the browser tests of learner pages share: for the whole test file, an emulator, a copy of
 * a fixture course pointed at it and at a static host for its published assets
 * (test/e2e/odin-workspace.ts), and one Chromium. The steps a team runs (`coursesync assets`,
 * `coursesync apply`) run with the built CLI, in the test (`publishAndApply`, or one by one
 * where a test looks between them); this sets the stage and says where a lesson's learner page
 * is.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { LessonState } from '../../src/model/state/schema.js';
import { readStateFile } from '../../src/state/state-file.js';
import { SECRET, startTestEmulator } from '../apply/helpers.js';
import { runCli } from '../e2e/helpers.js';
import { fixtureWorkspace, type OdinWorkspace } from '../e2e/odin-workspace.js';
import { launchChromium } from './chromium.js';

export interface CourseInChromium {
  emu: RunningEmulator;
  workspace: OdinWorkspace;
  browser: Browser;
  /** The emulator's origin, where learner pages are served. */
  origin: string;
  /** The environment a school command runs with: the key and the emulator's address. */
  env(): Record<string, string>;
  /** The lessons of the repo's state, by key. */
  lessons(): Promise<Record<string, LessonState>>;
  /** The learner page of a lesson the state records. */
  pageOf(lesson: LessonState): string;
  /** Open that page in `page`, checked to answer 200. */
  visit(page: Page, lesson: LessonState): Promise<void>;
  /** What a learner reads on the open page: its main text, the same without code, its code blocks, whether each image loaded. */
  read(page: Page): Promise<LearnerView>;
  /** `coursesync assets --out` then `coursesync apply --yes`, as a team runs them, each checked to succeed (the apply silently); the lessons applied. */
  publishAndApply(): Promise<Record<string, LessonState>>;
}

/** A learner page as read (CourseInChromium.read). */
export interface LearnerView {
  text: string;
  prose: string;
  code: string[];
  images: boolean[];
}

export interface CourseInChromiumOptions {
  /** The fixture course folder, copied for the file. */
  fixture: string;
  /** The temp folder's name prefix. */
  prefix: string;
  /** The assets.base_url the fixture's coursesync.yaml names, replaced by the static host's. */
  assetsUrl: string;
  /** The school; the default is the shared test emulator. */
  emulator?: () => Promise<RunningEmulator>;
}

/** Registers the file's beforeAll/afterAll; what the returned object holds is there from the first test on. */
export function courseInChromium(options: CourseInChromiumOptions): CourseInChromium {
  let emu: RunningEmulator | undefined;
  let workspace: OdinWorkspace | undefined;
  let browser: Browser | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('courseInChromium: used before its beforeAll ran');
    return value;
  };
  beforeAll(async () => {
    emu = await (options.emulator ?? startTestEmulator)();
    workspace = await fixtureWorkspace(emu, options.prefix, options.fixture, options.assetsUrl);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await workspace?.close();
    await emu?.close();
  });
  const course: CourseInChromium = {
    get emu() { return ready(emu); },
    get workspace() { return ready(workspace); },
    get browser() { return ready(browser); },
    get origin() { return ready(emu).url.replace(/\/api\/v1$/, ''); },
    env: () => ({ COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: ready(emu).url }),
    lessons: async () => (await readStateFile(ready(workspace).repo)).state.lessons,
    pageOf: (lesson) => `${course.origin}/products/${lesson.program_id}/lessons/${lesson.id}`,
    visit: async (page, lesson) => {
      expect((await page.goto(course.pageOf(lesson), { waitUntil: 'load' }))?.status()).toBe(200);
    },
    read: async (page) =>
      page.$eval('main', (m) => {
        const el = m as unknown as HTMLElement;
        const prose = el.cloneNode(true) as HTMLElement;
        for (const code of Array.from(prose.querySelectorAll('pre, code'))) code.remove();
        return {
          text: el.innerText,
          prose: prose.textContent ?? '',
          code: Array.from(el.querySelectorAll('pre code')).map((c) => c.textContent ?? ''),
          images: Array.from(el.querySelectorAll('img')).map((i) => i.complete && i.naturalWidth > 0),
        };
      }),
    publishAndApply: async () => {
      const { repo, published } = ready(workspace);
      expect((await runCli(['assets', repo, '--out', published])).code).toBe(0);
      const applied = await runCli(['apply', repo, '--yes'], course.env());
      expect(applied.stderr).toBe('');
      expect(applied.code).toBe(0);
      return course.lessons();
    },
  };
  return course;
}
