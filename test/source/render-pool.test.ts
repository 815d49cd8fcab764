import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/compile/render.js';
import { renderAll } from '../../src/source/render-pool.js';

// Worker threads run built JavaScript, so the worker path is tested on dist/ (npm test builds first).
const POOL = join(import.meta.dirname, '../../dist/source/render-pool.js');
const texts = Array.from({ length: 100 }, (_, i) => `# Lesson ${i}\n\n| a | b |\n|---|---|\n| ${i} | x |\n\n> q ${i}\n\n<script>${i}</script>\n`);

describe('rendering on worker threads', () => {
  it('gives, in order, exactly what rendering in this thread gives, problems included', async () => {
    const script = `const { renderAll } = await import(${JSON.stringify(POOL)}); process.stdout.write(JSON.stringify(await renderAll(JSON.parse(process.argv[1]), 2, { mainThread: false })));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(texts)], { maxBuffer: 1 << 26 });
    const expected = texts.map((t) => renderMarkdown(t));
    expect(expected[0]!.problems.length).toBeGreaterThan(0);
    expect(JSON.parse(stdout)).toEqual({ results: expected, inWorkers: texts.length });
  });

  it('renders in this thread when given one thread, or when running from TypeScript', async () => {
    expect(await renderAll(texts, 2, { mainThread: false })).toEqual({ results: texts.map((t) => renderMarkdown(t)), inWorkers: 0 });
    expect(await renderAll(texts.slice(0, 3), 1)).toEqual({ results: texts.slice(0, 3).map((t) => renderMarkdown(t)), inWorkers: 0 });
  });
});
