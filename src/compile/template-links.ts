/**
 * Links and images whose address a template engine writes (PURE): `[text]({{ site.baseurl }}/x)`
 * on a Jekyll site, `({{< ref "x" >}})` on a Hugo one. coursesync runs no `{{ … }}` but
 * `{{ vars.name }}`, and an address holding spaces is no address to Markdown: the link is not
 * made and learners read its brackets and braces as text. Outside code only, where a template
 * engine would have run; one warning at each.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag, type Place } from './codes.js';
import type { CodeRanges } from './code-ranges.js';
import { inCode } from './code-ranges.js';

/**
 * `](` and an address that starts with `{{` (where site generators put their base URL and
 * link helpers), to the expression's end. Anchored at the address's start, so a line of many
 * `](` costs a step each, not a scan each.
 */
const TEMPLATE_ADDRESS = /\]\([ \t]*<?(\{\{[^}\n]*\}?\}?)/g;

/**
 * Warn at each link or image of `line` whose address holds a template expression.
 * @param at the offset of `line` in the text `code` was found in
 */
export function warnTemplateLinks(line: string, at: number, code: CodeRanges, placeOf: (offset: number) => { file: string; place: Place }, out: Diagnostic[]): void {
  if (!line.includes('](')) return;
  for (const m of line.matchAll(TEMPLATE_ADDRESS)) {
    // `{{ vars.name }}` is coursesync's own, and an expression with no blank leaves an address Markdown takes (a missing file, if anything).
    if (/^\{\{\s*vars\./.test(m[1]!) || !/\s/.test(m[1]!) || inCode(code, at + m.index)) continue;
    const { file, place } = placeOf(m.index);
    out.push(diag('include/unsupported', file, place, `the address holds ${m[1]}, a template expression coursesync does not run: learners would see the link as text, not a link`, 'write the address as a path relative to this file (../assets/figure.png), as GitHub shows it'));
  }
}
