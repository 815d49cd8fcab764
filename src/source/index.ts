/** source/ (I/O): walk a course repo and read its files. */
export { readSource } from './read-source.js';
export { splitFrontMatter, type FrontMatterSplit } from './split-front-matter.js';
export type { LessonSource, SourceFile, SourceTree } from '../model/source-tree.js';
