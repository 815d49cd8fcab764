/**
 * A YAML file read for a hint, not checked (I/O): the value, or undefined when the file is
 * missing, unreadable or not YAML. What the file should hold is the compile's to report; a
 * caller that only wants a hint from it (the environments declared, a base URL for a failed
 * plan's comment) must not fail on it.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';

export async function readYamlLeniently(path: string): Promise<unknown> {
  try {
    return parseYamlLeniently(await readFile(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * YAML text as a plain value, for a hint or a file the compile has checked; throws when it is
 * not YAML. Repeated keys are not looked for (the last one wins): the compile reports them, and
 * the library's own check compares every pair of keys, which a file of many keys makes slow.
 */
export function parseYamlLeniently(text: string): unknown {
  return parse(text, { uniqueKeys: false }) as unknown;
}
