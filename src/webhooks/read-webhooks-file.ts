/** Read webhooks.yaml from a repo folder (I/O) and check it; problems become one CoursesyncError. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { CoursesyncError } from '../diagnostics/errors.js';
import { checkWebhooksFile, WEBHOOKS_FILE, type DesiredWebhook } from './check-webhooks-file.js';

/**
 * The desired webhooks of the repo at `dir`.
 * @throws CoursesyncError `webhooks/no-file` (no webhooks.yaml), `webhooks/invalid` (with diagnostics)
 */
export async function readWebhooksFile(dir: string): Promise<DesiredWebhook[]> {
  const path = join(dir, WEBHOOKS_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CoursesyncError(code === 'ENOENT' ? `There is no ${WEBHOOKS_FILE} in ${dir}.` : `Cannot read ${path} (${code ?? 'unreadable'}).`, {
      code: code === 'ENOENT' ? 'webhooks/no-file' : 'webhooks/unreadable',
      hint:
        code === 'ENOENT'
          ? `Create ${WEBHOOKS_FILE} at the repo root with a list of webhooks (see README, "Webhooks as code"), or pass the repo folder: coursesync webhooks plan <dir>.`
          : 'Check the permissions of the file.',
    });
  }
  const checked = checkWebhooksFile(text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'));
  if (!checked.webhooks) {
    const n = checked.diagnostics.length;
    throw new CoursesyncError(`${WEBHOOKS_FILE} has ${n} error${n === 1 ? '' : 's'}; nothing was planned.`, {
      code: 'webhooks/invalid',
      hint: `Fix ${WEBHOOKS_FILE} at the places named above, then run the command again.`,
      diagnostics: checked.diagnostics,
    });
  }
  return checked.webhooks;
}

/**
 * Check webhooks.yaml when the repo has one (for `coursesync validate`): its diagnostics, or
 * undefined when there is no such file. A repo without webhooks as code is valid.
 */
export async function checkWebhooksAt(dir: string): Promise<{ count: number; diagnostics: Diagnostic[] } | undefined> {
  try {
    const webhooks = await readWebhooksFile(dir);
    return { count: webhooks.length, diagnostics: [] };
  } catch (e) {
    if (e instanceof CoursesyncError && e.code === 'webhooks/no-file') return undefined;
    if (e instanceof CoursesyncError && e.diagnostics.length > 0) return { count: 0, diagnostics: e.diagnostics };
    throw e;
  }
}
