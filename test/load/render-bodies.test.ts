/**
 * What a plan renders ahead, before compile: a lesson's body and its front-matter description,
 * but not a body that front-matter says is HTML; the same for TOML front-matter as for YAML.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { renderMissingBodies } from '../../src/load/render-bodies.js';
import { readSource } from '../../src/source/read-source.js';
import { removeRepos, writeRepo } from '../e2e/helpers.js';

afterAll(removeRepos);

describe('renderMissingBodies', () => {
  it('renders the descriptions ahead and leaves HTML bodies out, in YAML and TOML front-matter alike', async () => {
    const dir = await writeRepo({
      'p/program.yaml': 'id: prog_intro\n',
      'p/s/section.yaml': 'id: sec_start\n',
      'p/s/01-yaml.md': '---\nname: Y\ndescription: A *YAML* summary.\ncontent_format: html\n---\n<p>YAML body</p>\n',
      'p/s/02-toml.md': '+++\nname = "T"\ndescription = "A *TOML* summary."\ncontent_format = "html"\n+++\n<p>TOML body</p>\n',
      'p/s/03-markdown.md': '+++\nname = "M"\n+++\nA *Markdown* body.\n',
    });
    const { digests } = await renderMissingBodies(await readSource(dir), new Map(), 1);
    expect([...digests.keys()].sort()).toEqual(['A *Markdown* body.\n', 'A *TOML* summary.', 'A *YAML* summary.']);
  });
});
