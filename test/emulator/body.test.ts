/** Request body parsing (pure parts): form names with brackets, form text → native types. */
import { describe, expect, it } from 'vitest';
import { coerceFormFields, parseBody, parseForm } from '../../src/emulator/body.js';
import { HttpError } from '../../src/emulator/errors.js';

describe('parseForm', () => {
  it.each([
    ['name=A&position=2', { name: 'A', position: '2' }],
    ['section_id=s&attributes[name]=A&attributes[is_published]=false', { section_id: 's', attributes: { name: 'A', is_published: 'false' } }],
    ['step_type[]=quiz&step_type[]=post', { step_type: ['quiz', 'post'] }],
    ['extra_parameters[step_type][]=quiz', { extra_parameters: { step_type: ['quiz'] } }],
    ['description=null&body=', { description: 'null', body: '' }],
    ['name=a%20b+c', { name: 'a b c' }],
    ['weird]name=1', { 'weird]name': '1' }],
  ])('%s', (text, want) => {
    expect(parseForm(text)).toEqual(want);
  });
});

describe('coerceFormFields', () => {
  it.each([
    [{ position: '3', drip_delay: ' 7 ' }, { position: 3, drip_delay: 7 }],
    [{ position: 'null', drip_delay: '' }, { position: 'null', drip_delay: '' }],
    [{ position: '1.5' }, { position: '1.5' }],
    [{ is_published: 'TRUE', is_progression_locked: '0' }, { is_published: true, is_progression_locked: false }],
    [{ is_published: 'yes' }, { is_published: 'yes' }],
  ])('%j → %j', (input, want) => {
    const o: Record<string, unknown> = { ...input };
    coerceFormFields(o, { ints: ['position', 'drip_delay'], bools: ['is_published', 'is_progression_locked'] });
    expect(o).toEqual(want);
  });
});

describe('parseBody', () => {
  it('reads JSON, forms and empty bodies; rejects malformed JSON and other types', () => {
    expect(parseBody('application/json; charset=utf-8', Buffer.from('{"a":1}'))).toEqual({ kind: 'json', value: { a: 1 } });
    expect(parseBody('application/x-www-form-urlencoded', Buffer.from('a=1'))).toEqual({ kind: 'form', value: { a: '1' } });
    expect(parseBody(undefined, Buffer.alloc(0))).toEqual({ kind: 'none', value: {} });
    expect(() => parseBody('application/json', Buffer.from('{'))).toThrow(new HttpError(400, 'Malformed JSON body'));
    expect(() => parseBody('text/plain', Buffer.from('x'))).toThrow(HttpError);
  });
});
