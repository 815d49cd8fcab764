/**
 * The Markdown renderer compile uses when its caller passes none (PURE). remark and micromark
 * take a while to load and a plan whose lessons all come from the state or the memo renders
 * nothing, so compile does not import them: render.ts installs its renderMarkdown here when it
 * is loaded (compile/index.ts loads it; the load path only when a lesson must be compiled,
 * load/load-course.ts). Asked before that, it throws RendererNotLoaded.
 */
import type { RenderResult } from './rendered-html.js';

let installed: ((markdown: string) => RenderResult) | undefined;

/** Thrown when compile must render and render.ts was not loaded: the caller loads it and compiles again. */
export class RendererNotLoaded extends Error {
  constructor() {
    super('the Markdown renderer (compile/render.ts) was not loaded before compile needed it');
  }
}

/** Called by render.ts when it is loaded. */
export function provideMarkdownRenderer(render: (markdown: string) => RenderResult): void {
  installed = render;
}

/** Render with the installed renderer (see above). */
export function defaultRender(markdown: string): RenderResult {
  if (!installed) throw new RendererNotLoaded();
  return installed(markdown);
}
