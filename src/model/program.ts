/** program.yaml: marks a folder as a program (docs/course-repo.md). Source of schema/program.schema.json. */
import { z } from 'zod';
import { idPerEnvironment } from './environments.js';
import { LessonDefaultsSchema } from './lesson.js';
import { VarsSchema } from './config.js';

export const ProgramFileSchema = z
  .strictObject({
    id: idPerEnvironment('program').describe('The program id in the school (required), or one per environment (e.g. {staging: prog_a, production: prog_b}).'),
    name: z.string().describe('Informational: the program name, for people reading the repo.').optional(),
    lesson_defaults: LessonDefaultsSchema.optional(),
    vars: VarsSchema.describe('Variables of this program: they override those of coursesync.yaml with the same name.').optional(),
    toc: z
      .string()
      .min(1)
      .describe('A book: the path of its SUMMARY.md (mdBook/GitBook format), relative to this folder. Each chapter is a section, its pages its lessons, in SUMMARY order; no section folders.')
      .optional(),
    site_url: z
      .url({ protocol: /^https?$/ })
      .transform((u) => (u.endsWith('/') ? u : `${u}/`))
      .describe("Where the book is published on the web (book.toml's site-url with its host, e.g. https://doc.rust-lang.org/book/): a link that leaves this folder to a file the repo does not hold (../std/index.html) goes to that page of the site.")
      .optional(),
    site_paths: z
      .record(
        z.string().regex(/^\/[^\s?#]*$/, 'must start with / and hold no blank, ? or # (an address as a link writes it: /en/part1/intro)'),
        z.string().min(1),
      )
      .describe("Where the course's own site serves this program's files, for links written as site addresses: an address → the Markdown file of the page served there (/en/part0/general_info: 0/en/part0a.md, a title-made permalink), or → the folder served under it (/2020/: _2020/, a Jekyll collection), relative to this folder. Such a link goes to that lesson or file, its #fragment checked; a trailing / is ignored.")
      .optional(),
    sections: z
      .record(z.string().min(1), idPerEnvironment('section'))
      .describe("With toc: a chapter's title, or its own page as SUMMARY.md links it (welcome.md), → section id (or one per environment), for a chapter whose school section is not named exactly like it, or whose title another chapter has too (map those by page). Other chapters are the sections of their name.")
      .optional(),
  })
  .describe('program.yaml: a coursesync program folder');
export type ProgramFile = z.output<typeof ProgramFileSchema>;
