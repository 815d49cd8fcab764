// Where a run's time goes, from the .cpuprofile files `node --cpu-prof` wrote (one per thread).
// Usage: node test/bench/profile-summary.mjs <folder or .cpuprofile>… [--json] [--top=12]
//
// Every sample is put in one bucket by its call stack:
// - module loading: the loader's own frames (resolve, read, compile) with no code of ours
//   under them, or any module's top-level code being evaluated (a frame at line 0, column 0 of
//   a file other than the entry script), split by the package or dist/ folder loaded;
// - state validation: zod called (at any depth) from dist/state/ or dist/model/state/;
//   other zod: zod called from anywhere else (config, caches, the plan);
// - stat, hashing (node:crypto hashes), file reads (readFile/readdir/open), journal fsyncs
//   (fsync/fdatasync), file writes, JSON (parse/stringify), rendering (remark, micromark,
//   mdast/hast utilities, our render code), HTTP (node:http/net, undici, dist/school-api/);
// - GC, V8/native ("(program)": mostly parsing and compiling scripts at start-up), idle;
// - other: everything else (mostly our own code: plan, diff, learner impact, the compile frame).
// Each bucket is then split by the innermost function of ours (dist/) on the stack.
// YAML parsing (yaml). The leafmost frame that matches decides (so a
// readFile under the renderer is a file read), searching up to the first function of ours;
// module evaluation wins over everything below it.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

const args = process.argv.slice(2);
const asJson = args.includes('--json');
const top = Number(args.find((a) => a.startsWith('--top='))?.slice(6) ?? 12);
const inputs = args.filter((a) => !a.startsWith('--'));

const RENDER = /\/node_modules\/(micromark[^/]*|mdast-[^/]+|remark[^/]*|unified|hast-[^/]+|hastscript|rehype[^/]*|unist-[^/]+|vfile[^/]*|property-information|decode-named-character-reference|character-entities[^/]*|character-reference-invalid|html-void-elements|space-separated-tokens|comma-separated-tokens|zwitch|ccount|stringify-entities|trim-lines|devlop|markdown-table|longest-streak|parse5|web-namespaces|bail|trough|is-plain-obj|extend|github-slugger|html-url-attributes|markdown-extensions|escape-string-regexp)\//;
const OUR_RENDER = /\/dist\/(compile\/render|load\/render-worker)\.js$/;
const YAML = /\/node_modules\/yaml\//;

/** The package (node_modules/<name>) or dist/<folder> a URL belongs to. */
export function ownerOf(url) {
  const nm = url.match(/.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (nm) return nm[1];
  const dist = url.match(/\/dist\/([^/]+)(\/[^/]+)?/);
  if (dist) return `dist/${dist[1]}${dist[2] && !dist[2].endsWith('.js') ? dist[2] : ''}`;
  if (url.startsWith('node:')) return 'node';
  return url ? basename(url) : '(native)';
}

/** The innermost function of ours (dist/) on a stack, as "name folder". */
const callerOf = (stack) => {
  const f = stack.find((x) => x.url.includes('/dist/') && !x.url.includes('/node_modules/'));
  return f ? `${f.functionName || '(anonymous)'} ${ownerOf(f.url)}` : '(no code of ours)';
};

const isTopLevel = (f) => f.functionName === '' && f.lineNumber === 0 && f.columnNumber === 0 && f.url.startsWith('file://');

/** The bucket of one frame by itself, or undefined. */
function frameBucket(f, stack, i) {
  const { functionName: fn, url } = f;
  if (url.startsWith('node:internal/modules/') || url === 'node:internal/vm' || url.startsWith('node:internal/vm/')) return 'module loading';
  if (/fsync|fdatasync/i.test(fn)) return 'journal fsyncs';
  if (/^(l|f)?stat(Sync)?$|^statfs/.test(fn) || (url === 'node:internal/fs/promises' && /stat/i.test(fn))) return 'stat';
  if (url === 'node:internal/crypto/hash' || /^(createHash|Hash)$/.test(fn)) return 'hashing';
  if (/^(readFile|readFileSync|readdir|readdirSync|readFileHandle|open|openSync|read|readSync|tryReadSync|tryStatSync|opendir)$/.test(fn) && url.startsWith('node:')) return 'file reads';
  if (/^(writeFile|writeFileSync|writeSync|write|rename|renameSync|appendFile|appendFileSync|writeAll|writev)$/.test(fn) && url.startsWith('node:')) return 'file writes';
  if (/^(parse|stringify)$/.test(fn) && url === '') return 'JSON parse/stringify';
  if (url.includes('/node_modules/zod/')) {
    // Who called zod: the first frame of ours above it.
    for (let j = i + 1; j < stack.length; j++) {
      const u = stack[j].url;
      if (u.includes('/node_modules/')) continue;
      if (/\/dist\/(state|model\/state)\//.test(u)) return 'state validation';
      if (u.includes('/dist/')) return 'other zod validation';
    }
    return 'other zod validation';
  }
  if (RENDER.test(url) || OUR_RENDER.test(url)) return 'rendering';
  if (YAML.test(url)) return 'YAML parsing';
  if (/^node:(_http_|http|https|net|internal\/http|internal\/net|dns)/.test(url) || url.includes('/node_modules/undici') || url.startsWith('node:internal/deps/undici') || url.includes('/dist/school-api/'))
    return 'HTTP';
  return undefined;
}

/** Buckets of one profile: ms per bucket, module loading by owner, other by function. */
export function summarize(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // The entry script: the outermost file:// top-level frame (the CLI, or a worker's script).
  const entries = new Set();
  for (const n of profile.nodes) {
    if (!isTopLevel(n.callFrame)) continue;
    let p = parent.get(n.id);
    let outer = true;
    while (p !== undefined) {
      if (isTopLevel(byId.get(p).callFrame)) outer = false;
      p = parent.get(p);
    }
    if (outer && !n.callFrame.url.includes('/node_modules/')) entries.add(n.callFrame.url);
  }
  const cache = new Map();
  const classify = (id) => {
    if (cache.has(id)) return cache.get(id);
    const stack = [];
    for (let p = id; p !== undefined; p = parent.get(p)) stack.push(byId.get(p).callFrame);
    const leaf = stack[0];
    let result;
    if (leaf.functionName === '(garbage collector)') result = { bucket: 'GC' };
    else if (leaf.functionName === '(idle)') result = { bucket: 'idle' };
    else if (leaf.functionName === '(program)') result = { bucket: 'V8/native (program)' };
    else if (leaf.functionName === '(root)') result = { bucket: 'other', detail: '(root)' };
    else {
      const evaluated = stack.find((f) => isTopLevel(f) && !entries.has(f.url));
      if (evaluated) result = { bucket: 'module loading', detail: ownerOf(evaluated.url) };
      else {
        for (let i = 0; i < stack.length && !result; i++) {
          const b = frameBucket(stack[i], stack, i);
          // Our own code (other than the renderer) ends the search: what it calls decided above.
          if (!b && stack[i].url.includes('/dist/') && !stack[i].url.includes('/node_modules/')) break;
          if (b === 'module loading') {
            // The loader itself: what it was loading is not on the stack; say who asked.
            const ours = stack.find((f) => f.url.startsWith('file://'));
            result = { bucket: b, detail: ours ? `loader (${ownerOf(ours.url)})` : 'loader' };
          } else if (b) result = { bucket: b, detail: callerOf(stack) };
        }
        result ??= { bucket: 'other', detail: callerOf(stack), leaf: `${leaf.functionName || '(anonymous)'} ${ownerOf(leaf.url)}` };
      }
    }
    cache.set(id, result);
    return result;
  };
  const buckets = new Map();
  const details = new Map();
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const t = (timeDeltas[i] ?? 0) / 1000;
    const { bucket, detail, leaf } = classify(samples[i]);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + t);
    for (const [b, d] of [[bucket, detail], ['other leaf', leaf]]) {
      if (!d) continue;
      const key = `${b}\u0000${d}`;
      details.set(key, (details.get(key) ?? 0) + t);
    }
  }
  return { wallMs: (profile.endTime - profile.startTime) / 1000, buckets, details };
}

const ORDER = ['module loading', 'V8/native (program)', 'state validation', 'other zod validation', 'stat', 'file reads', 'hashing', 'YAML parsing', 'rendering', 'JSON parse/stringify', 'file writes', 'journal fsyncs', 'HTTP', 'GC', 'other', 'idle'];

/** Markdown table of the profiles of one run (a folder: main thread and workers). */
export function report(files) {
  const threads = files.map((f) => ({ file: f, ...summarize(JSON.parse(readFileSync(f, 'utf8'))) }));
  // The main thread is the longest profile (workers start later and end sooner).
  threads.sort((a, b) => b.wallMs - a.wallMs);
  const [main, ...workers] = threads;
  const sum = (list, b) => list.reduce((s, t) => s + (t.buckets.get(b) ?? 0), 0);
  const lines = [];
  lines.push(`profile: main thread ${main.wallMs.toFixed(0)} ms` + (workers.length ? `, ${workers.length} worker thread(s) ${workers.map((w) => w.wallMs.toFixed(0)).join('/')} ms` : ''));
  lines.push('');
  lines.push(`| bucket | main thread ms | % of main | workers ms |`);
  lines.push('|---|---|---|---|');
  for (const b of ORDER) {
    const m = main.buckets.get(b) ?? 0;
    const w = sum(workers, b);
    if (m < 0.5 && w < 0.5) continue;
    lines.push(`| ${b} | ${m.toFixed(0)} | ${((100 * m) / main.wallMs).toFixed(1)}% | ${workers.length ? w.toFixed(0) : '–'} |`);
  }
  const detail = (bucket, n) => {
    const rows = [...main.details].filter(([k]) => k.startsWith(`${bucket}\u0000`)).sort((a, b) => b[1] - a[1]).slice(0, n);
    return rows.filter(([, t]) => t >= 1).map(([k, t]) => `${k.split('\u0000')[1]} ${t.toFixed(0)}`).join('; ');
  };
  lines.push('');
  lines.push('main thread, by who (ms): module loading by what was loaded or, for the loader, who imported; other buckets by the innermost function of ours on the stack');
  lines.push('');
  for (const b of ORDER) {
    const d = detail(b, top);
    if (d && b !== 'idle' && b !== 'GC') lines.push(`- ${b}: ${d}`);
  }
  lines.push(`- other, by leaf function: ${detail('other leaf', top)}`);
  return { text: lines.join('\n'), main, workers };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const input of inputs) {
    const files = statSync(input).isDirectory() ? readdirSync(input).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(input, f)) : [input];
    if (files.length === 0) continue;
    const { text, main, workers } = report(files);
    if (asJson) console.log(JSON.stringify({ input, main: Object.fromEntries(main.buckets), workers: workers.map((w) => Object.fromEntries(w.buckets)) }));
    else console.log(`### ${input}\n${text}\n`);
  }
}
