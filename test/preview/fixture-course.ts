/**
 * A small course for the preview tests: two sections, a progression lock, a draft, drips, a
 * video on each of the four hosts and in embed code, an embed lesson, and real content (a
 * table, code, an image, links, raw HTML).
 */
import { lesson } from '../e2e/helpers.js';

export const PREVIEW_COURSE: Record<string, string> = {
  'course/program.yaml': 'id: prog_intro\nname: Intro to TypeScript\n',
  'course/01-start/section.yaml': 'id: sec_start\n',
  'course/01-start/01-welcome.md': lesson(
    'name: Welcome <aboard>\nlesson_type: text\ndescription: What you will **learn**.',
    '# Welcome\n\nThis course has [a syllabus](https://example.com/syllabus) and a ![logo](https://example.com/logo.png "Logo").\n\n| week | topic |\n|---|---|\n| 1 | types |\n| 2 | generics |\n',
  ),
  'course/01-start/02-install.md': lesson('name: Install Node\nvideo:\n  host_a: https://www.youtube.com/watch?v=Zp5rCk4vW7s\ndrip_delay: 2', '```sh\nnode --version\n```\n'),
  'course/01-start/03-quiz.md': lesson('name: First quiz\nlesson_type: embed\nembed_code: <div class="quiz" data-quiz="q1">Quiz</div>\nis_progression_locked: true\ndrip_delay: 7', 'Answer every question to go on.'),
  'course/01-start/04-notes.md': lesson('name: Teacher notes\nlesson_type: text\nis_published: false', '<aside class="note">Not for learners yet.</aside>\n\nDraft text.'),
  'course/02-types/section.yaml': 'id: sec_types\n',
  'course/02-types/01-primitives.md': lesson('name: Primitives\nvideo:\n  host_b: https://vimeo.com/76979871\ndrip_delay: 7', 'Strings, numbers & booleans: `string`, `number`.'),
  'course/02-types/02-objects.md': lesson('name: Objects\nvideo:\n  host_c: https://fast.wistia.net/embed/iframe/abc123xyz0\ndrip_delay: 14', 'Objects <em>with</em> raw HTML.'),
  'course/02-types/03-unions.md': lesson('name: Unions\nvideo:\n  host_d: https://www.loom.com/share/0281766fa2d04bb788eaf19e65135184\ndrip_delay: 14', 'A | B'),
  'course/02-types/04-talk.md': lesson('name: Recorded talk\nvideo:\n  embed_code: <div class="player-box" data-talk="t1">talk</div>\ndrip_delay: 21', 'The talk.'),
};

/** Lesson keys in learner order. */
export const ORDER = ['welcome', 'install', 'quiz', 'notes', 'primitives', 'objects', 'unions', 'talk'];

/**
 * A co-author's hostile lesson and a lesson it links to: event handlers, a `javascript:` link,
 * a refresh, a `<base>`, script in embed code (each would set `window.pwned` or navigate), an
 * embed code left open before a lesson whose comment would then act, and an image 3000 px wide. School.lesson_url is set, as links between lessons need it.
 */
export const HOSTILE_COURSE: Record<string, string> = {
  'coursesync.yaml': 'school:\n  lesson_url: https://academy.example.com/products/{program_id}/lessons/{lesson_id}\n',
  'course/program.yaml': 'id: prog_intro\nname: Intro to TypeScript\n',
  'course/01-start/section.yaml': 'id: sec_start\n',
  'course/01-start/01-hostile.md': lesson(
    'name: Shared notes\nlesson_type: text',
    [
      '# Shared notes',
      '',
      'Read [the setup lesson](02-setup.md#install-node) first, or [its top](./02-setup.md).',
      '',
      '<img src="https://images.example.com/missing.png" onerror="window.pwned = \'onerror\'" alt="a broken image">',
      '',
      '<svg onload="window.pwned = \'onload\'" width="10" height="10"></svg>',
      '',
      '<details ontoggle="window.pwned = \'ontoggle\'"><summary>More</summary>Hidden text.</details>',
      '',
      '<a id="run" href="javascript:window.pwned = \'javascript-url\'">click me</a>',
      '',
      '<meta http-equiv="refresh" content="0;url=/lessons/setup/body.html">',
      '',
      '<base href="https://evil.example/" target="_blank">',
      '',
      '<img id="wide" src="data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHdpZHRoPSIzMDAwIiBoZWlnaHQ9IjIwMCIvPg==" alt="a diagram 3000 px wide">',
      '',
      '| step | what |',
      '|---|---|',
      '| 1 | [setup](02-setup.md) |',
    ].join('\n'),
  ),
  'course/01-start/02-setup.md': lesson(
    "name: Setup\nlesson_type: embed\nembed_code: <div id=\"quiz\">Quiz</div><script>window.pwned = 'embed script'</script>",
    '# Setup\n\nFirst the editor.\n\n## Install Node\n\n```sh\nnode --version\n```\n\nBack to [the notes](01-hostile.md).\n',
  ),
  // An embed code left open: the next lesson's comment would end it and its refresh would act.
  'course/01-start/03-form.md': lesson('name: Feedback form\nlesson_type: embed\nembed_code: "<form>Your answer: <textarea>"', 'Tell us.'),
  'course/01-start/04-after.md': lesson('name: After the form\nlesson_type: text', 'Next.\n\n<!--</textarea><meta http-equiv="refresh" content="0;url=/lessons/setup/">-->\n'),
};
