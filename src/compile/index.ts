/** compile/ (PURE): source files → desired state, with every problem as a diagnostic. */
export { compileCourse, frameCourse, type CompileCounts, type CompileOptions, type CompileResult, type CourseFrame } from './compile-course.js';
export { renderMarkdown, type RenderResult } from './render.js';
export { checkHtml, type HtmlProblem } from './check-html.js';
export { CODES, type Code } from './codes.js';
export { keyFromFileName, type RenderFn } from './compile-lesson.js';
export { compareNatural } from './natural-order.js';
