/** The composer: read a course repo from disk and compile it (I/O at the edge, then PURE). */
import { compileCourse, type CompileResult } from '../compile/index.js';
import { readSource } from './read-source.js';

/**
 * Read and compile the course repo at `dir`, coursesync.yaml included (its problems are
 * diagnostics). Throws a CoursesyncError only when `dir` itself cannot be read.
 */
export async function loadCourse(dir: string): Promise<CompileResult> {
  return compileCourse(await readSource(dir));
}
