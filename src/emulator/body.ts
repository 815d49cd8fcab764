/**
 * Request bodies: read with a size cap, then parse JSON or form-urlencoded. Form names with
 * brackets (`attributes[is_published]`, `step_type[]`) become nested objects and arrays, and
 * form text stays text: fields that want numbers or booleans are converted by `coerceFormFields`,
 * and the text `null` is never null (docs/school-api.md#update-a-lesson).
 */
import type { IncomingMessage } from 'node:http';
import { HttpError } from './errors.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Largest body we read: well above 4 × 200000-character fields, small enough to be safe. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

export type BodyKind = 'json' | 'form' | 'none';
export interface ParsedBody {
  kind: BodyKind;
  value: unknown;
}

/** Read the whole body, or throw 413 once it passes the cap (the caller then closes the socket). */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `Request body too large (limit ${limit} bytes)`, { connection: 'close' });
}

/**
 * Parse by Content-Type. An empty body is `{}`. Malformed JSON is 400 `{"error":"Malformed JSON
 * body"}`; another content type is 415.
 */
export function parseBody(contentType: string | undefined, raw: Buffer): ParsedBody {
  if (raw.length === 0) return { kind: 'none', value: {} };
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') {
    return { kind: 'form', value: parseForm(raw.toString('utf8')) };
  }
  if (type === 'application/json' || type === '' || type.endsWith('+json')) {
    try {
      // JSON is UTF-8 (RFC 8259): invalid bytes are a malformed body, not U+FFFD in a lesson
      // name (found by the fuzz test).
      return { kind: 'json', value: JSON.parse(UTF8.decode(raw)) as unknown };
    } catch {
      throw new HttpError(400, 'Malformed JSON body');
    }
  }
  throw new HttpError(415, 'Unsupported content type: send application/json or application/x-www-form-urlencoded');
}

/** `a=1&attributes[name]=x&tags[]=p&tags[]=q` → `{a:'1', attributes:{name:'x'}, tags:['p','q']}`. */
export function parseForm(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const parts = splitName(name);
    let target: Record<string, unknown> = out;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const last = i === parts.length - 1;
      const next = parts[i + 1];
      // Own properties only: a name such as `__proto__[x]` or `constructor[prototype][x]` must
      // not reach Object.prototype (found by the fuzz test); it stays a field, which
      // validation then rejects as unknown.
      const own = Object.hasOwn(target, part) ? target[part] : undefined;
      if (last) {
        if (part === '') continue; // `a[]` handled by the parent below
        setOwn(target, part, value);
      } else if (next === '' && i + 1 === parts.length - 1) {
        const list = Array.isArray(own) ? (own as unknown[]) : [];
        list.push(value);
        setOwn(target, part, list);
        break;
      } else {
        const obj = own !== null && typeof own === 'object' && !Array.isArray(own) ? (own as Record<string, unknown>) : {};
        setOwn(target, part, obj);
        target = obj;
      }
    }
  }
  return out;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function splitName(name: string): string[] {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
  if (!m) return [name];
  const rest = [...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]!);
  return [m[1]!, ...rest];
}

/**
 * Form text → native types for the named fields, in place, one level deep (call it for the
 * top level and for `attributes`). Text that does not read as the wanted type is left as text,
 * so validation reports `type`. "null" and "" are never null.
 */
export function coerceFormFields(obj: unknown, fields: { ints?: readonly string[]; bools?: readonly string[] }): void {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return;
  const o = obj as Record<string, unknown>;
  for (const f of fields.ints ?? []) {
    const v = o[f];
    if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) o[f] = Number(v.trim());
  }
  for (const f of fields.bools ?? []) {
    const v = o[f];
    if (typeof v !== 'string') continue;
    const t = v.trim().toLowerCase();
    if (t === 'true' || t === '1') o[f] = true;
    else if (t === 'false' || t === '0') o[f] = false;
  }
}
