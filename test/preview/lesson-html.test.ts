/**
 * What the preview shows of a lesson's HTML, its routes and its watch rule (pure parts).
 */
import type { Element, Root, RootContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { describe, expect, it } from 'vitest';
import { inertHtml } from '../../src/preview/lesson-html.js';
import { hostAllowed, routeOf } from '../../src/preview/routes.js';
import { isCourseInput } from '../../src/preview/watch-rule.js';

/** The elements named `tag` a browser makes of `html` (parse5 reads HTML as browsers do). */
function elements(html: string, tag: string): Element[] {
  const found: Element[] = [];
  const walk = (node: Root | RootContent) => {
    if (node.type === 'element' && node.tagName === tag) found.push(node);
    if ('children' in node) node.children.forEach(walk);
  };
  walk(fromHtml(html));
  return found;
}

describe('inertHtml', () => {
  it('shows a refresh, a <base> and <plaintext> as text, in any case, and leaves everything else as it is', () => {
    expect(inertHtml('<p>a</p><meta http-equiv="refresh" content="0;url=https://evil.example/">')).toBe('<p>a</p>&lt;meta http-equiv="refresh" content="0;url=https://evil.example/">');
    expect(inertHtml('<META\nhttp-equiv=refresh><Base/href=x><plaintext>')).toBe('&lt;META\nhttp-equiv=refresh>&lt;Base/href=x>&lt;plaintext>');
    expect(inertHtml('<p>unfinished <meta')).toBe('<p>unfinished &lt;meta');
    const plain = '<h2 id="setup">Setup</h2><metadata>x</metadata><basement>y</basement><p title="a &lt;meta tag">z</p>';
    expect(inertHtml(plain)).toBe(plain); // the same string: nothing to show differently
  });

  it('holds whatever state an earlier lesson left the browser in', () => {
    // After an open <textarea> in one lesson, the next lesson's comment would end the textarea and its <meta> would act.
    const next = '<!--</textarea><meta http-equiv="refresh" content="0">-->';
    expect(elements(`<textarea>${next}`, 'meta')).toHaveLength(1);
    expect(elements(`<textarea>${inertHtml(next)}`, 'meta')).toHaveLength(0);
    // In an attribute value or a textarea, the text reads the same.
    const html = inertHtml('<p title="<meta x>">t</p><textarea><base></textarea>');
    expect(elements(html, 'p')[0]!.properties.title).toBe('<meta x>');
    expect(elements(html, 'textarea')[0]!.children).toEqual([expect.objectContaining({ type: 'text', value: '<base>' })]);
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
