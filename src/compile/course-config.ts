/** coursesync.yaml (PURE): the repo's settings, checked, or the defaults when there is none. */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { CourseConfigSchema, DEFAULT_CONFIG, type CourseConfig } from '../model/config.js';
import { environmentProblems } from '../model/environments.js';
import type { SourceTree } from '../model/source-tree.js';
import { diag } from './codes.js';
import { compileYamlFile } from './compile-yaml-file.js';
import { unmatchedPatterns } from './ignore-paths.js';

export function compileConfig(source: SourceTree, out: Diagnostic[]): CourseConfig {
  if (!source.config) return DEFAULT_CONFIG;
  // `archive` with `removed_lessons: keep` is allowed: it is ready for when the policy changes.
  const { data, yaml } = compileYamlFile(CourseConfigSchema, source.config, 'config', out, true);
  if (!data) return DEFAULT_CONFIG;
  if (data.ignore && yaml) {
    const paths = [...source.programs, ...source.sections, ...source.lessons].map((f) => f.path).concat([...(source.files?.keys() ?? []), ...(source.refused?.keys() ?? [])]);
    for (const i of unmatchedPatterns(data.ignore, paths)) {
      out.push(diag('config/ignore-unmatched', source.config.path, yaml.placeOf(['ignore', i]), `the \`ignore:\` pattern ${JSON.stringify(data.ignore[i])} matches no file of the repo`));
    }
  }
  for (const [path, message] of environmentProblems(data)) out.push(diag('config/invalid-field', source.config.path, yaml?.placeOf(path), message, 'see docs/environments.md'));
  return data;
}
