/**
 * A lesson's front-matter block parsed by the parser its fences name (PURE): TOML between
 * `+++` lines, YAML otherwise. Compile and rendering ahead both read it so, from here.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { FrontMatterBlock } from '../model/source-tree.js';
import { parseToml } from './parse-toml.js';
import { parseYaml, type ParsedYaml } from './parse-yaml.js';

/** `block` parsed (no block is an empty one), its problems pushed onto `out` at their places in `file`. */
export function parseFrontMatter(block: FrontMatterBlock | null | undefined, file: string, out: Diagnostic[]): ParsedYaml {
  return (block?.toml ? parseToml : parseYaml)(block?.text ?? '', file, out, block?.line ?? 1);
}
