/**
 * Plans in the author's language (PURE): a changed lesson is shown as a unified diff of its
 * Markdown file (the front-matter as the author wrote it), a new lesson as a short preview of
 * its file, and a field by its front-matter key (`video: host_a`, not `settings_embed_host_a`).
 * The texts come from the caller (src/sync/plan-sources.ts reads them from git and the work tree).
 */
import { quoted } from '../diagnostics/diagnostic.js';
import { FRONT_MATTER_KEY } from '../model/front-matter-keys.js';
import type { LessonField } from '../school-api/school-rules.js';
import { isFingerprint } from '../model/state/fingerprint.js';
import { diffLinesOf } from './describe-change.js';
import type { CallStep, FieldChange } from './plan-schema.js';

/** A call step's lesson file: as last applied and now, or why the old one is not known. */
export interface StepSource {
  /** The file as last applied; null when unknown (then `why` says why). */
  before: string | null;
  /** The file now; null when it could not be read. */
  after: string | null;
  /** One line: why `before` is not known. */
  why?: string;
}

/** Step sources by call id. */
export type PlanSources = ReadonlyMap<string, StepSource>;

/** What a plan field is called in the repo: its front-matter key, or where it comes from. */
export function fieldLabel(field: string): string {
  if (field === 'section_id') return 'section';
  return Object.hasOwn(FRONT_MATTER_KEY, field) ? FRONT_MATTER_KEY[field as LessonField] : field;
}

/** The lesson file's change as a unified diff with `---`/`+++` headers; [] when identical. */
export function sourceDiffLines(path: string, before: string, after: string): string[] {
  if (before === after) return [];
  const hunks = diffLinesOf(before, after);
  return hunks.length === 0 ? [] : [`--- ${path} (as last applied)`, `+++ ${path}`, ...hunks];
}

/** Lines of a new file shown in a plan. */
export const PREVIEW_LINES = 8;
const PREVIEW_WIDTH = 100;

/**
 * A new lesson, briefly: `name "Intro" · text · 1.2 kB, 34 lines` (with draft, drip and lock
 * when set), then the first lines of its file and how many more there are.
 */
export function createPreview(step: CallStep, file: string | null): { summary: string; lines: string[] } {
  const value = (f: string) => step.fields.find((c) => c.field === f)?.after;
  const parts = [`name ${quoted(value('name') ?? '')}`, String(value('lesson_type') ?? 'video')];
  if (value('is_published') === false) parts.push('draft');
  const drip = value('drip_delay');
  if (typeof drip === 'number' && drip > 0) parts.push(`unlocks ${drip} day${drip === 1 ? '' : 's'} after its section`);
  if (value('is_progression_locked') === true) parts.push('locks progression');
  if (file === null) {
    const body = value('body');
    if (typeof body === 'string') parts.push(`${sizeText(body.length)} of HTML`);
    return { summary: parts.join(' · '), lines: [] };
  }
  const all = file.replace(/\n$/, '').split('\n');
  parts.push(`${sizeText(new TextEncoder().encode(file).length)}, ${all.length} line${all.length === 1 ? '' : 's'}`);
  const lines = all.slice(0, PREVIEW_LINES).map((l) => (l.length > PREVIEW_WIDTH ? l.slice(0, PREVIEW_WIDTH - 1) + '…' : l));
  if (all.length > PREVIEW_LINES) lines.push(`… ${all.length - PREVIEW_LINES} more line${all.length - PREVIEW_LINES === 1 ? '' : 's'}`);
  return { summary: parts.join(' · '), lines };
}

function sizeText(bytes: number): string {
  return bytes < 1000 ? `${bytes} bytes` : `${(bytes / 1000).toFixed(1)} kB`;
}

/** A long field (body, description) without its diff: what changed, in one line. */
export function longFieldSummary(f: FieldChange): string {
  const size = (v: FieldChange['before']) => (typeof v === 'string' ? `${grouped(v.length)} characters` : 'none');
  const before = isFingerprint(f.before) ? 'HTML known by fingerprint' : size(f.before);
  return `${fieldLabel(f.field)}: changed (${before} → ${size(f.after)} of HTML)`;
}

/** A count with its thousands grouped (`12,345`) as en-US writes it, without loading the locale's number format (~10 ms, once per plan). */
const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, ',');
