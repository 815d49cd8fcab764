/**
 * The server's own Markdown → HTML conversion for `content_format: markdown` (docs/school-api.md#lesson-input-fields). It is
 * deliberately simple, and reproduces the warning of the API: Markdown blockquotes render as
 * plain text. Choice: a blockquote's content comes out as ordinary paragraphs without the
 * `>` marker (`> quote` → `<p>quote</p>`). Raw HTML inside the Markdown is passed through (the
 * forbidden-markup rule has already been applied to the text as sent).
 */
import type { Root, RootContent, Parent } from 'mdast';

type Processor = { process(text: string): Promise<{ toString(): string }> };
let processor: Promise<Processor> | undefined;

/** Replace every blockquote by its children: the quote becomes plain paragraphs. */
function flattenBlockquotes() {
  return (tree: Root): void => {
    const walk = (node: Parent): void => {
      const out: RootContent[] = [];
      for (const child of node.children as RootContent[]) {
        if ('children' in child) walk(child as Parent);
        if (child.type === 'blockquote') out.push(...(child.children as RootContent[]));
        else out.push(child);
      }
      (node as { children: RootContent[] }).children = out;
    };
    walk(tree);
  };
}

async function loadProcessor(): Promise<Processor> {
  const [{ unified }, { default: remarkParse }, { default: remarkHtml }] = await Promise.all([
    import('unified'),
    import('remark-parse'),
    import('remark-html'),
  ]);
  return unified().use(remarkParse).use(flattenBlockquotes).use(remarkHtml, { sanitize: false }) as unknown as Processor;
}

/** Convert Markdown the way the school does. */
export async function convertServerMarkdown(markdown: string): Promise<string> {
  processor ??= loadProcessor();
  const file = await (await processor).process(markdown);
  return String(file).trimEnd();
}
