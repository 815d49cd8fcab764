/**
 * Natural order of file names (PURE): `2-x` before `10-x`, as ICU's numeric collation orders
 * them. Names of lower-case ASCII letters, digits, `-`, `_`, `.` and `/` (nearly every lesson
 * file and folder path) are ordered by a sort key that gives ICU's exact order without ICU: loading the
 * collator and comparing through it cost ~40 ms per 10,000 lessons. Any other name goes
 * through the collator itself (test/compile/natural-order.test.ts checks the two agree).
 */
let collator: Intl.Collator | undefined;

/** Compare in natural order; ties broken by code-unit order so the order is total and stable. */
export function compareNatural(a: string, b: string): number {
  const ka = naturalKey(a);
  const kb = ka === undefined ? undefined : naturalKey(b);
  const order = kb !== undefined ? compareText(ka!, kb) : (collator ??= new Intl.Collator('en', { numeric: true })).compare(a, b);
  return order || compareText(a, b);
}

/** `items` sorted by their names in natural order (compareNatural), each name's sort key made once. */
export function sortNatural<T>(items: readonly T[], nameOf: (item: T) => string, first?: (item: T) => boolean): T[] {
  // With every name keyed, one text per item whose code-unit order is the order wanted (the
  // `first` ones, then by key, then by name, then as given; \0 ends a key and a name, and no
  // key or file name holds one), sorted natively, with no call back per comparison: this
  // sorts every section of every plan.
  const texts: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const name = nameOf(items[i]!);
    const key = naturalKey(name);
    if (key === undefined) return [...items].sort((a, b) => Number(first?.(b) === true) - Number(first?.(a) === true) || compareNatural(nameOf(a), nameOf(b)));
    texts.push(`${first?.(items[i]!) === true ? '\0' : '\x01'}${key}\0${name}\0${String(i).padStart(9, '0')}`);
  }
  return texts.sort().map((t) => items[Number(t.slice(t.lastIndexOf('\0') + 1))]!);
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A name's key in ICU's numeric collation when every character is one whose order ICU gives
 * at the primary level alone: `_` < `-` < `.` < `/` (punctuation, before digits), a run of
 * digits as the number it writes (leading zeros ignored: `01` and `1` are equal), then `a`–`z`.
 * Each of those becomes characters that compare, by code unit, as ICU orders them: a
 * punctuation mark one control character, a number its digit count and digits after \x05,
 * a letter itself. Undefined for any other character, and for a number of over 200 digits.
 */
function naturalKey(name: string): string | undefined {
  let key = '';
  for (let i = 0; i < name.length; ) {
    const c = name.charCodeAt(i);
    if (c >= 97 && c <= 122) {
      key += name[i];
      i++;
    } else if (c >= 48 && c <= 57) {
      let end = i;
      while (end < name.length && name.charCodeAt(end) >= 48 && name.charCodeAt(end) <= 57) end++;
      let start = i;
      while (start < end - 1 && name.charCodeAt(start) === 48) start++;
      if (end - start > 200) return undefined;
      key += '\x05' + String.fromCharCode(32 + end - start) + name.slice(start, end);
      i = end;
    } else if (c === 95 || c === 45 || c === 46 || c === 47) {
      key += c === 95 ? '\x01' : c === 45 ? '\x02' : c === 46 ? '\x03' : '\x04';
      i++;
    } else return undefined;
  }
  return key;
}
