/** Read webhooks.yaml from a repo folder (I/O) and check it; problems become one CoursesyncError. */
import { failure } from '../diagnostics/error-codes/index.js';
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
    throw code === 'ENOENT' ? failure('webhooks/no-file', { file: WEBHOOKS_FILE, dir }) : failure('webhooks/unreadable', { path, reason: code ?? 'unreadable' });
  }
  const checked = checkWebhooksFile(text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'));
  if (!checked.webhooks) {
    throw failure('webhooks/invalid', { file: WEBHOOKS_FILE, errors: checked.diagnostics.length }, { diagnostics: checked.diagnostics });
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
