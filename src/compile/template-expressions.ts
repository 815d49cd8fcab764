/**
 * What other site generators' templates write in a page (PURE), which coursesync does not run
 * (it runs `{{ vars.name }}` alone): learners would read it as written, so each is a warning at
 * its place. Outside code only, where a template engine would have run.
 * - A link or image whose address starts with an expression: `[text]({{ site.baseurl }}/x)` on
 *   a Jekyll site, `({{< ref "x" >}})` on a Hugo one. An address holding blanks is no address
 *   to Markdown: the link is not made and its brackets and braces show.
 * - Hugo's shortcodes, `{{< youtube id >}}`: their closing tags (`{{< /tabs >}}`) are not said
 *   again. (`{{% notice %}}` holds a template tag, said as one by expand-includes.ts.)
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag, type Place } from './codes.js';
import { inCode, type CodeRanges } from './code-ranges.js';

/**
 * `](` and an address that starts with `{{` (where site generators put their base URL and
 * link helpers), to the expression's end. Anchored at the address's start, so a line of many
 * `](` costs a step each, not a scan each.
 */
const TEMPLATE_ADDRESS = /\]\([ \t]*<?(\{\{[^}\n]*\}?\}?)/g;

/**
 * A Hugo shortcode, `{{< name … >}}` (a slash before the name closes one), on one line and with
 * no brace in its arguments: a line of many openings costs a step each.
 */
const SHORTCODE = /\{\{<[ \t]*(\/?)[ \t]*([A-Za-z][\w-]*)[^\n{}]*?>\}\}/g;

/**
 * Warn at each expression of another tool's template in `line`.
 * @param at the offset of `line` in the text `code` was found in
 */
export function warnTemplateExpressions(line: string, at: number, code: CodeRanges, placeOf: (offset: number) => { file: string; place: Place }, out: Diagnostic[]): void {
  // Where a link's address was said already: the shortcode in it is not said again.
  const said = new Set<number>();
  if (line.includes('](')) {
    for (const m of line.matchAll(TEMPLATE_ADDRESS)) {
      // `{{ vars.name }}` is coursesync's own, and an expression with no blank leaves an address Markdown takes (a missing file, if anything).
      if (/^\{\{\s*vars\./.test(m[1]!) || !/\s/.test(m[1]!) || inCode(code, at + m.index)) continue;
      said.add(m.index + m[0].length - m[1]!.length);
      const { file, place } = placeOf(m.index);
      out.push(diag('include/unsupported', file, place, `the address holds ${m[1]}, a template expression coursesync does not run: learners would see the link as text, not a link`, 'write the address as a path relative to this file (../assets/figure.png), as GitHub shows it'));
    }
  }
  if (!line.includes('{{<')) return;
  for (const m of line.matchAll(SHORTCODE)) {
    if (m[1] === '/' || said.has(m.index) || inCode(code, at + m.index)) continue;
    const { file, place } = placeOf(m.index);
    out.push(diag('include/unsupported', file, place, `{{< ${m[2]} >}} is a Hugo shortcode coursesync does not run: learners would see it as written`, 'write what it stands for into the lesson: an image as ![alt](path), a video lesson as its video: front-matter'));
  }
}
