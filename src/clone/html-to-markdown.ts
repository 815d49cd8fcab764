/**
 * HTML → Markdown for imported lessons (PURE): turndown with the GFM plugin (tables,
 * strikethrough, task lists), set to the Markdown style the repo's own renderer reads back.
 * Whether the conversion is faithful is decided elsewhere (check-round-trip.ts), by rendering
 * the result with the project's renderer and comparing, never by trusting the converter.
 */
import TurndownService from 'turndown';
import { gfm } from '@joplin/turndown-plugin-gfm';

let service: TurndownService | undefined;

function converter(): TurndownService {
  if (service) return service;
  service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    fence: '```',
    bulletListMarker: '-',
    emDelimiter: '*',
    strongDelimiter: '**',
    hr: '---',
  });
  service.use(gfm);
  // Blockquotes, raw HTML the converter does not know and comments are kept as HTML blocks by
  // turndown's defaults; the round-trip check catches anything that still changes.
  return service;
}

/** Convert lesson HTML to Markdown (no trailing newline). */
export function htmlToMarkdown(html: string): string {
  return converter().turndown(html);
}
