/**
 * clone/: lessons that come into the repo from elsewhere — `import` (adopt school lessons),
 * `duplicate` (server-side copies through operations) and `clone` (repo-side copies). The pure
 * parts (lesson-file.ts, check-round-trip.ts, html-to-markdown.ts, idempotency-key.ts) are
 * apart from the composers that do I/O.
 */
export { importLessons, type ImportOptions, type ImportResult, type ImportedLesson } from './import-lessons.js';
export { duplicateLessons, type DuplicateLessonsOptions, type DuplicateLessonsResult, type DuplicatedLesson, type DuplicateProgress } from './duplicate-lessons.js';
export { duplicateProgram, type DuplicateProgramOptions, type DuplicateProgramResult } from './duplicate-program.js';
export { cloneSection, cloneLessonText, parseSectionRef, type CloneSectionOptions, type CloneSectionResult } from './clone-section.js';
export { lessonToFile, lessonFileText, compileText, serverFields, type LessonFile, type LessonFileOptions } from './lesson-file.js';
export { sameHtml, canonicalHtml } from './check-round-trip.js';
export { htmlToMarkdown } from './html-to-markdown.js';
export { duplicationKey, type DuplicationDetails } from './idempotency-key.js';
export { readJournal, writeJournal, journalPath, type Journal, type Job, type JobItem } from './journal.js';
