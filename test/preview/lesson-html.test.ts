/**
 * What the preview shows of a lesson's HTML, its routes and its watch rule (pure parts).
 */
import { describe, expect, it } from 'vitest';
import { inertHtml } from '../../src/preview/lesson-html.js';
import { hostAllowed, routeOf } from '../../src/preview/routes.js';
import { isCourseInput } from '../../src/preview/watch-rule.js';

describe('inertHtml', () => {
  it('defuses a refresh and a <base> wherever they are, and keeps the rest as it is', () => {
    expect(inertHtml('<p>a <em>b</em></p><meta http-equiv="Refresh" content="0;url=https://evil.example/">')).toBe(
      '<p>a <em>b</em></p><meta content="0;url=https://evil.example/" data-preview-inert="http-equiv=Refresh">',
    );
    expect(inertHtml('<svg><meta http-equiv="refresh" content="0"></svg><template><base href="https://evil.example/" target="_top"></template>')).not.toMatch(
      /\s(?:http-equiv|href|target)=/,
    );
    expect(inertHtml('<table><tr><td>1</td></tr></table>')).toBe('<table><tbody><tr><td>1</td></tr></tbody></table>');
  });

  it('closes what a lesson leaves open, so it cannot change how the next lesson is read', () => {
    // Read after an open <textarea>, the next lesson's comment would end the textarea and let its <meta> act.
    expect(inertHtml('<p>Type here: <textarea>')).toBe('<p>Type here: <textarea></textarea></p>');
    expect(inertHtml('<p>x</p><!-- never closed')).toBe('<p>x</p><!-- never closed-->');
    expect(inertHtml('<plaintext>rest')).toBe('<pre data-preview-inert="plaintext">rest</pre>');
    expect(inertHtml('<!--</textarea><meta http-equiv="refresh" content="0">-->')).toBe('<!--</textarea><meta http-equiv="refresh" content="0">-->');
  });
});

describe('routes', () => {
  it('answers only its own host and port', () => {
    expect(hostAllowed('127.0.0.1:4300', 4300)).toBe(true);
    expect(hostAllowed('LOCALHOST:4300', 4300)).toBe(true);
    for (const host of [undefined, '', 'localhost', '127.0.0.1:4301', 'evil.example:4300', 'localhost.evil.example:4300', '[::1]:4300']) {
      expect(hostAllowed(host, 4300), String(host)).toBe(false);
    }
  });

  it('routes every path, a bad one to a 400', () => {
    expect(routeOf('/')).toEqual({ kind: 'course' });
    expect(routeOf('/events')).toEqual({ kind: 'events' });
    expect(routeOf('/lessons/a%20b/')).toEqual({ kind: 'lesson', key: 'a b' });
    expect(routeOf('/lessons/setup')).toEqual({ kind: 'lesson', key: 'setup' });
    expect(routeOf('/lessons/setup/body.html')).toEqual({ kind: 'body', key: 'setup' });
    expect(routeOf('/lessons/%E0%A4%A/body.html').kind).toBe('bad');
    expect(routeOf('/lessons/a/b/c')).toEqual({ kind: 'none' });
    expect(routeOf('/../../etc/passwd')).toEqual({ kind: 'none' });
  });
});

describe('the watch rule', () => {
  const referenced = new Set(['course/img/logo.png']);
  it('recompiles for lessons, settings, referenced files and paths that appear or go', () => {
    for (const name of ['course/01/intro.md', 'course/program.yaml', 'course/01/section.yaml', 'coursesync.yaml', 'course/img/logo.png']) {
      expect(isCourseInput('change', name, referenced), name).toBe(true);
    }
    expect(isCourseInput('rename', 'course/img/new.png', referenced)).toBe(true);
    expect(isCourseInput('rename', 'course/02-new-section', referenced)).toBe(true);
  });

  it('ignores other files written, hidden paths and node_modules', () => {
    for (const name of ['preview.log', '_site/index.html', 'course/img/unused.png', 'course/01/notes.md~', 'sub/coursesync.yaml']) {
      expect(isCourseInput('change', name, referenced), name).toBe(false);
    }
    for (const name of ['.coursesync/cache/lessons.json', '.git/index', 'course/.intro.md.swp', 'node_modules/x/README.md']) {
      expect(isCourseInput('rename', name, referenced), name).toBe(false);
    }
  });
});
