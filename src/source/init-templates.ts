/**
 * What `coursesync init` writes into a course repo: a coursesync.yaml naming every option (all
 * commented out, so the file means "the defaults" until someone edits it), the ignore entries
 * for what coursesync writes locally, and editor settings mapping the JSON schemas that the
 * installed package ships. The two workflows are copied from the package's own templates.
 */
import { LOCK_FILE, STATE_DIR } from '../model/state/schema.js';

/** Where a course repo that installed coursesync finds its schemas (relative to the repo root). */
export const SCHEMA_DIR = 'node_modules/coursesync/schema';

/** Every option of coursesync.yaml, commented, with what it does and its default. */
export const CONFIG_TEMPLATE = `# yaml-language-server: $schema=./${SCHEMA_DIR}/coursesync.schema.json
#
# coursesync.yaml: how to reach the school and what apply does by default. Every option can
# be left out (as all are here); uncomment the ones you need. Environment variables and flags
# take precedence.

# school:
#   # API base address, including /api/v1 (COURSESYNC_BASE_URL or --base-url override it).
#   # The token never goes in this file: set COURSESYNC_TOKEN or use --token-file.
#   base_url: https://school.example.com/api/v1
#   # Timeout of one request, in milliseconds (1000 to 600000).
#   timeout_ms: 30000
#   # Where learners see a lesson: links between lesson files become this URL. Needed only
#   # when a lesson links to another lesson file.
#   lesson_url: https://academy.example.com/products/{program_id}/lessons/{lesson_id}

# apply:
#   # At most this many requests in flight (1 to 64; default 4). --concurrency overrides it.
#   concurrency: 4

# What apply does with a lesson whose file was removed from the repo:
#   keep       report it as orphaned and make no call (the default)
#   unpublish  make it a draft, and move it into \`archive\` when that is set
# removed_lessons: keep

# With removed_lessons: unpublish, also move removed lessons into this section id.
# archive: sec_archive

# Error-level learner impacts acknowledged in review (docs/learner-impact.md): apply then
# proceeds without --accept-impact. For a lesson whose file is gone or renamed; a lesson that
# still has a file acknowledges in its own front-matter (acknowledge: [drip-grows=21]: a sized
# rule names the size it accepts, so a bigger later change needs a new acknowledgement).
# acknowledge:
#   - rule: unpublished
#     lesson: old-lesson-key
#     reason: replaced by the new welcome lesson

# Where \`coursesync assets --out <folder>\` is served. Needed only when a lesson shows an image
# or links a file of the repo.
# assets:
#   base_url: https://cdn.example.com/course-assets/

# Files coursesync does not read, as .gitignore patterns.
# ignore:
#   - README.md
#   - drafts/

# Lesson front-matter keys another tool reads (mdbook-course's minutes:, say): left to it
# rather than reported as unknown keys. Not one of coursesync's own keys.
# front_matter:
#   ignore: [minutes, session]

# Where the repo is on the web, as a folder URL: a link to a folder with no lesson (code, say),
# to Markdown that is not a lesson or to a path ignore: leaves out goes to its page there
# instead of being an error.
# repo_url: https://github.com/OWNER/REPO/tree/main/

# Front-matter defaults for every lesson (program.yaml and section.yaml may set their own);
# a lesson's own front-matter wins.
# lesson_defaults:
#   lesson_type: text
#   drip_delay: 0
#   is_published: true
#   is_progression_locked: false
#   keep_title: false   # true: also send a leading heading equal to the lesson name
#   name_from: heading  # file: a lesson without name: is named by its file name; toc: a book page by its SUMMARY.md title; title: by its front-matter's title:

# Values lessons use as {{ vars.name }} in bodies, front-matter and partials (program.yaml may
# set its own, which win for its lessons).
# vars:
#   support_email: help@example.com
#   rust_version: "1.80"
#   school_name: Example Academy

# Named schools, e.g. a staging school tried before production (docs/environments.md). Each
# command then needs --env NAME (or COURSESYNC_ENV); each has its own state, token variable,
# settings laid over the ones above, and vars; ids that differ are maps in program.yaml and
# section.yaml (id: {staging: prog_a, production: prog_b}). For their workflows (staging, then
# production), remove .github/workflows/coursesync-*.yml and run \`coursesync init\` again.
# environments:
#   staging:
#     school: { base_url: https://staging.example.com/api/v1 }
#     token_env: COURSESYNC_TOKEN_STAGING
#     vars: { school_name: Staging Academy }
#   production:
#     school: { base_url: https://school.example.com/api/v1 }
#     token_env: COURSESYNC_TOKEN_PRODUCTION
#     promote_from: staging
`;

/**
 * coursesync.yaml as init writes it: with `baseUrl` (init --base-url), the `school:` block and its
 * `base_url` are uncommented and hold that address (the workflows read it there); every other
 * option stays commented.
 */
export function configTemplate(baseUrl?: string): string {
  if (baseUrl === undefined) return CONFIG_TEMPLATE;
  // A URL checked by checkBaseUrl is a plain YAML scalar unless it holds one of these.
  const value = /[\s#'"]/.test(baseUrl) ? JSON.stringify(baseUrl) : baseUrl;
  return CONFIG_TEMPLATE.replace(
    /^# school:\n((?:#   # .*\n)*)#   base_url: .*\n/m,
    (_m, comments: string) => `school:\n${comments.replace(/^#   #/gm, '  #')}  base_url: ${value}\n`,
  );
}

/**
 * Lines .gitignore needs: the local caches, the lock an apply holds while it runs, the
 * temporary files of atomic writes, and `_site/`, the folder the apply workflow writes the
 * assets into (`coursesync assets --out _site`) to publish them. The state file is committed.
 */
export const GITIGNORE_LINES = [
  'node_modules/',
  `${STATE_DIR}/cache/`,
  `${STATE_DIR}/${LOCK_FILE}`,
  `${STATE_DIR}/*.tmp`,
  // Each environment's state folder (docs/environments.md#state).
  `${STATE_DIR}/env/*/${LOCK_FILE}`,
  `${STATE_DIR}/env/*/*.tmp`,
  '_site/',
] as const;

/** The heading written above the lines init adds to .gitignore. */
export const GITIGNORE_HEADING = '# coursesync: local caches, the apply lock and temporary files (the state is committed)';

/**
 * VS Code (YAML extension by Red Hat): which schema checks which file. Merged into an existing
 * settings file: an entry already there (even for the same schema) is kept as it is.
 */
export const VSCODE_SETTINGS = {
  'yaml.schemas': {
    [`./${SCHEMA_DIR}/coursesync.schema.json`]: 'coursesync.yaml',
    [`./${SCHEMA_DIR}/program.schema.json`]: '**/program.yaml',
    [`./${SCHEMA_DIR}/section.schema.json`]: '**/section.yaml',
    [`./${SCHEMA_DIR}/webhooks.schema.json`]: 'webhooks.yaml',
  },
} as const;

/** The shipped workflow templates and where init puts them in a course repo. */
export const WORKFLOWS = ['coursesync-plan.yml', 'coursesync-apply.yml'] as const;
export const WORKFLOW_DIR = '.github/workflows';

/**
 * The editor extensions the settings are for, recommended to whoever opens the repo in VS Code:
 * YAML (program, section, coursesync and webhooks files) and remark (lesson front-matter, which
 * the YAML extension cannot see inside a .md file).
 */
export const VSCODE_EXTENSIONS = { recommendations: ['redhat.vscode-yaml', 'unifiedjs.vscode-remark'] } as const;

/** The two packages the remark configuration needs, installed by the course repo itself. */
export const REMARK_PACKAGES = ['remark-frontmatter', 'remark-lint-frontmatter-schema'] as const;

/**
 * .remarkrc.mjs: lesson front-matter checked against lesson.schema.json by remark-lint, in the
 * editor (VS Code: unifiedjs.vscode-remark) and on the command line (\`npx remark --frail .\`).
 * Files without front-matter (a README) are skipped by the plugin.
 */
export const REMARK_CONFIG = `// Lesson front-matter checked against coursesync's schema while you type (VS Code: the remark
// extension, unifiedjs.vscode-remark) or with \`npx remark --frail .\`. Needs, once:
//   npm install --save-dev ${REMARK_PACKAGES.join(' ')}
// validate stays the judge: it also knows lesson_defaults, links and the school's limits.
import remarkFrontmatter from 'remark-frontmatter';
import remarkLintFrontmatterSchema from 'remark-lint-frontmatter-schema';

export default {
  plugins: [
    remarkFrontmatter,
    [remarkLintFrontmatterSchema, { schemas: { './${SCHEMA_DIR}/lesson.schema.json': ['**/*.md'] } }],
  ],
};
`;
