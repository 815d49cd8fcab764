/**
 * `{{ vars.name }}` in lesson text (PURE): replaced by the variable's value from `vars:` of
 * coursesync.yaml and program.yaml (the program's win). `\{{ vars.name }}` keeps the text
 * (without the backslash); any other `{{ … }}` (Jinja, Vue, Handlebars in examples) is left
 * alone. An undefined variable is an error at its place, with the closest name.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Vars } from '../model/config.js';
import { diag, type Place } from './codes.js';
import { suggest } from './suggest.js';

/** On one line: spaces and tabs inside the braces, never a line break. */
const VARIABLE = /(\\?)\{\{[ \t]*vars\.([A-Za-z0-9_-]+)[ \t]*\}\}/g;

/**
 * `text` with its variables replaced; each one used goes into `used` (name → value as text).
 * @param placeOf where (file and place) the character at an offset of `text` was written
 */
export function substituteVars(text: string, vars: Vars, placeOf: (offset: number) => { file: string; place: Place }, used: Map<string, string>, out: Diagnostic[]): string {
  if (!text.includes('{{')) return text;
  return text.replace(VARIABLE, (whole, escape: string, name: string, offset: number) => {
    if (escape) return whole.slice(1);
    if (Object.hasOwn(vars, name)) {
      const value = String(vars[name]);
      used.set(name, value);
      return value;
    }
    const near = suggest(name, Object.keys(vars));
    const { file, place } = placeOf(offset);
    const defined = Object.keys(vars).length === 0 ? 'no variable is defined' : `defined: ${Object.keys(vars).sort().slice(0, 8).join(', ')}`;
    out.push(diag('vars/undefined', file, place, `{{ vars.${name} }} is not defined (${defined})`, near ? `did you mean {{ vars.${near} }}?` : undefined));
    return whole;
  });
}
