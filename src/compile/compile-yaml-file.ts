/** program.yaml, section.yaml and coursesync.yaml → checked data (PURE). */
import type { z } from 'zod';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { SourceFile } from '../model/source-tree.js';
import { checkSchema, type FileKind } from './check-schema.js';
import { diag } from './codes.js';
import { parseYaml, type ParsedYaml } from './parse-yaml.js';

export interface CheckedYaml<T> {
  data?: T;
  yaml?: ParsedYaml;
}

/** Parse and check one YAML file; an empty file is `file/empty` unless `allowEmpty`. */
export function compileYamlFile<S extends z.ZodType>(
  schema: S,
  source: SourceFile,
  kind: FileKind,
  out: Diagnostic[],
  allowEmpty = false,
): CheckedYaml<z.output<S>> {
  const file = source.path;
  const before = out.length;
  const yaml = parseYaml(source.text, file, out);
  if (out.length > before) return { yaml };
  let value = yaml.value;
  if (value === null || value === undefined) {
    if (!allowEmpty) {
      out.push(diag('file/empty', file, undefined, `${file.slice(file.lastIndexOf('/') + 1)} is empty`));
      return { yaml };
    }
    value = {};
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    out.push(diag('yaml/not-a-mapping', file, yaml.start, 'the file is not a mapping of `key: value` lines'));
    return { yaml };
  }
  return { data: checkSchema(schema, value, yaml, file, kind, out), yaml };
}
