/**
 * GitHub Actions workflow commands. Everything user-controlled (file names, lesson names,
 * messages) is escaped, so a lesson called `::error::x` cannot inject a command of its own.
 */
import { escapeControl, type Diagnostic } from './diagnostic.js';

/**
 * Escape the message part of a workflow command. Line breaks are GitHub's `%0D`/`%0A`; other
 * control characters (ESC, BEL…, e.g. from a file name) are written out as `\u001b`, so the
 * log viewer never receives terminal sequences.
 */
export function escapeData(s: string): string {
  return escapeControl(s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

/** Escape a property value (file, title) of a workflow command. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `::error file=…,line=…,col=…,title=…::message` for one diagnostic. */
export function githubAnnotation(d: Diagnostic): string {
  const props = [`file=${escapeProperty(d.file)}`];
  if (d.line !== undefined) props.push(`line=${d.line}`);
  if (d.column !== undefined) props.push(`col=${d.column}`);
  props.push(`title=${escapeProperty(d.code)}`);
  const text = d.hint ? `${d.message} (${d.hint})` : d.message;
  return `::${d.severity === 'error' ? 'error' : 'warning'} ${props.join(',')}::${escapeData(text)}`;
}
