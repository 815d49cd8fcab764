/**
 * The folders and files the tool writes for a program that exists in the school (PURE):
 * `sections list --scaffold` and `duplicate program` both start a program folder this way.
 */
import type { Section } from '../school-api/wire/sections.js';

/** Lower-case ASCII letters, digits and `-` from any text (accents dropped); may be empty. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
}

/** A folder name for a section: its 1-based place, two digits, and a slug of its name. */
export function sectionFolderName(index: number, name: string): string {
  return `${String(index + 1).padStart(2, '0')}-${slugify(name) || 'section'}`;
}

/**
 * program.yaml and one section.yaml per section, in the school's order (paths relative to the
 * program folder). A section.yaml takes `id` or `name`, not both, so the name is a comment.
 */
export function programFolderFiles(
  programId: string,
  sections: readonly Pick<Section, 'id' | 'name'>[],
  programName?: string,
): Array<{ path: string; text: string }> {
  const program = `id: ${JSON.stringify(programId)}\n` + (programName === undefined ? '' : `name: ${JSON.stringify(programName)}\n`);
  const files = [{ path: 'program.yaml', text: program }];
  sections.forEach((s, i) => {
    const header = `# ${s.name.replace(/\s+/g, ' ')} (the section's name in the school)\n`;
    files.push({ path: `${sectionFolderName(i, s.name)}/section.yaml`, text: `${header}id: ${JSON.stringify(s.id)}\n` });
  });
  return files;
}
