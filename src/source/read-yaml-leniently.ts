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
    return parse(await readFile(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}
