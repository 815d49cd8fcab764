/**
 * A deterministic generator of realistic course repos for benchmarks: 10 programs, 200
 * sections and N lessons of 1–5 KB Markdown each (~3 KB on average: headings, lists, code, a
 * table, a blockquote, links, an image), with every lesson type and video host. The same seed always writes the same bytes.
 *
 * As a module: `await generateRepo(dir, { lessons: 10_000, seed: 1 })`.
 * From the command line (Node 20 runs JavaScript, so compile it first):
 *   npx tsc --outDir test/bench/out --module nodenext --target es2022 --types node --skipLibCheck test/bench/generate-repo.ts
 *   node test/bench/out/generate-repo.js /tmp/bench-repo 10000 [seed]
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface GenerateOptions {
  lessons: number;
  seed?: number;
  programs?: number;
  sections?: number;
  /**
   * Local references as course teams write them: an image next to the lessons, a link to the
   * previous lesson's heading and an in-page anchor per lesson (and the two settings they need).
   */
  references?: boolean;
}

/** A real 1×1 PNG: every section's img/figure.png. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8cfc000000301010018dd8db00000000049454e44ae426082', 'hex');

/** mulberry32: a tiny, well-known seeded PRNG (Math.random cannot be seeded). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'type interface generic union narrowing compiler module import export function value return ' +
  'object array tuple string number boolean promise async await class method property readonly ' +
  'lesson section program student course example pattern test build config strict inference ' +
  'the a of to and in is it that for with as on this be by are we you can your each when'
).split(' ');

function generator(seed: number) {
  const r = rng(seed);
  const int = (n: number) => Math.floor(r() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const sentence = () => {
    const s = words(8 + int(10));
    return s.charAt(0).toUpperCase() + s.slice(1) + '.';
  };
  const paragraph = () => Array.from({ length: 3 + int(3) }, sentence).join(' ');
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[int(16)]).join('');

  const video = (): string => {
    switch (int(8)) {
      case 0: return `video:\n  host_a: https://www.youtube.com/watch?v=${hex(11)}\n`;
      case 1: return `video:\n  host_a: "${hex(11)}"\n`; // quoted: an id like 1e5… would be a YAML number
      case 2: return `video:\n  host_b: https://vimeo.com/${100000 + int(900000)}\n`;
      case 3: return `video:\n  host_b: "${100000 + int(900000)}"\n`;
      case 4: return `video:\n  host_c: https://fast.wistia.net/embed/iframe/${hex(10)}\n`;
      case 5: return `video:\n  host_d: https://www.loom.com/share/${hex(32)}\n`;
      case 6: return `video:\n  embed_code: '<video src="https://media.example.com/${hex(8)}.mp4" controls></video>'\n`;
      default: return '';
    }
  };

  const frontMatter = (name: string): string => {
    const type = pick(['video', 'video', 'video', 'text', 'text', 'pdf', 'embed', 'audio'] as const);
    let fm = `name: ${JSON.stringify(name)}\nlesson_type: ${type}\n`;
    if (type === 'video') fm += video();
    if (type === 'embed') fm += `embed_code: '<iframe src="https://quiz.example.com/${hex(6)}"></iframe>'\n`;
    if (int(4) === 0) fm += `drip_delay: ${int(30)}\n`;
    if (int(8) === 0) fm += 'is_progression_locked: true\n';
    if (int(10) === 0) fm += 'is_published: false\n';
    if (int(3) === 0) fm += `description: ${JSON.stringify(sentence())}\n`;
    return fm;
  };

  /**
   * 1–5 KB of Markdown (uniform, ~3 KB on average) with the constructs real lessons use: the
   * short ones first (a list, code, a table, a link, an image), so even a 1 KB lesson has them,
   * then headings, paragraphs and a block quote until the lesson reaches its size.
   */
  const body = (title: string): string => {
    const target = 1024 + int(4 * 1024);
    const blocks: Array<() => string> = [
      paragraph,
      () => Array.from({ length: 4 }, () => `- ${words(5 + int(5))}`).join('\n'),
      () => '```ts\n' + `function ${pick(WORDS)}${int(100)}<T>(input: T): T {\n  // ${words(6)}\n  return input;\n}\n` + '```',
      () => `| ${words(1)} | ${words(1)} | ${words(1)} |\n|---|---|---|\n` + Array.from({ length: 4 }, () => `| ${words(2)} | ${int(1000)} | \`${pick(WORDS)}\` |`).join('\n'),
      () => `1. ${words(6)}\n2. ${words(6)}\n3. [${words(2)}](https://example.com/${hex(6)})`,
      () => `![${words(2)}](https://example.com/img/${hex(8)}.png)`,
      () => `## ${words(3)}\n\n${paragraph()}`,
      () => `> ${sentence()}\n> ${sentence()}`,
      paragraph,
      () => `### ${words(2)}\n\n${paragraph()}`,
      paragraph,
    ];
    const parts = [`# ${title}`];
    let size = parts[0]!.length;
    for (let i = 0; size < target; i++) {
      const block = blocks[i < blocks.length ? i : 6 + ((i - blocks.length) % (blocks.length - 6))]!();
      parts.push(block);
      size += block.length + 2;
    }
    return parts.join('\n\n') + '\n';
  };
  return { int, frontMatter, body, words };
}

/** Write a course repo of `lessons` lessons into `dir` (emptied first). */
export async function generateRepo(dir: string, options: GenerateOptions): Promise<{ programs: number; sections: number; lessons: number }> {
  const programs = options.programs ?? 10;
  const sections = options.sections ?? 200;
  const g = generator(options.seed ?? 1);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const refs = options.references === true;
  await writeFile(
    path.join(dir, 'coursesync.yaml'),
    'school:\n  base_url: http://127.0.0.1:4010/api/v1\n' +
      (refs ? '  lesson_url: https://academy.example.com/products/{program_id}/lessons/{lesson_id}\nassets:\n  base_url: https://cdn.example.com/course/\n' : ''),
  );
  const perProgram = Math.ceil(sections / programs);
  let lesson = 0;
  for (let s = 0; s < sections; s++) {
    const p = Math.floor(s / perProgram);
    const programDir = path.join(dir, `${String(p + 1).padStart(2, '0')}-program`);
    if (s % perProgram === 0) {
      await mkdir(programDir, { recursive: true });
      await writeFile(path.join(programDir, 'program.yaml'), `id: prog_${p + 1}\nname: Program ${p + 1}\n`);
    }
    const sectionDir = path.join(programDir, `${String((s % perProgram) + 1).padStart(2, '0')}-section`);
    await mkdir(sectionDir, { recursive: true });
    await writeFile(path.join(sectionDir, 'section.yaml'), `id: sec_${s + 1}\n`);
    // Spread lessons evenly: section s gets lessons [start, end).
    const end = Math.floor(((s + 1) * options.lessons) / sections);
    const files: Array<Promise<void>> = [];
    if (refs) {
      await mkdir(path.join(sectionDir, 'img'), { recursive: true });
      files.push(writeFile(path.join(sectionDir, 'img', 'figure.png'), PNG));
    }
    let previous: { file: string; slug: string } | undefined;
    for (let i = 1; lesson < end; i++, lesson++) {
      const title = `${g.words(3)} ${lesson + 1}`;
      const file = `${i}-lesson-${lesson + 1}.md`;
      // GitHub's slug of the title (words and digits only): lower case, spaces as -.
      const slug = title.toLowerCase().replace(/ /g, '-');
      let body = g.body(title);
      if (refs) {
        body += `\n![Figure of ${title}](img/figure.png)\n\nBack to [the top](#${slug})` + (previous ? `, or [the previous lesson](${previous.file}#${previous.slug}).\n` : '.\n');
      }
      const text = `---\n${g.frontMatter(title)}---\n${body}`;
      files.push(writeFile(path.join(sectionDir, file), text));
      previous = { file, slug };
    }
    await Promise.all(files);
  }
  return { programs: Math.ceil(sections / perProgram), sections, lessons: options.lessons };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir, lessons = '10000', seed = '1'] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: node test/bench/out/generate-repo.js <dir> [lessons=10000] [seed=1]');
    process.exitCode = 1;
  } else {
    const counts = await generateRepo(dir, { lessons: Number(lessons), seed: Number(seed) });
    console.log(`wrote ${counts.programs} programs, ${counts.sections} sections, ${counts.lessons} lessons to ${dir}`);
  }
}
