/**
 * Names a browser knows as elements (PURE): HTML's, and the SVG and MathML ones lessons use
 * inline. Any other tag in a lesson (`Box<T>`, `<ENTER>`) is an unknown element to a browser:
 * it is kept in the page, shows nothing, and its text is lost to the learner. Custom elements
 * (a name with `-`) are left alone: they are unknown on purpose.
 */
const HTML = `a abbr address area article aside audio b base bdi bdo blockquote body br button canvas caption
cite code col colgroup data datalist dd del details dfn dialog div dl dt em embed fieldset figcaption figure
footer form h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe img input ins kbd label legend li link main
map mark menu meta meter nav noscript object ol optgroup option output p param picture pre progress q rp rt
ruby s samp script search section select slot small source span strong style sub summary sup table tbody td
template textarea tfoot th thead time title tr track u ul var video wbr
acronym applet basefont big blink center dir font frame frameset marquee nobr noembed noframes plaintext rb rtc strike tt xmp`;

const SVG = `svg g path circle rect line polyline polygon ellipse text tspan textpath defs use symbol desc
lineargradient radialgradient stop clippath mask pattern image foreignobject marker filter`;

const MATHML = 'math mi mo mn ms mtext mrow msup msub msubsup mfrac msqrt mroot mover munder munderover mtable mtr mtd mspace mstyle semantics annotation';

const KNOWN = new Set(`${HTML} ${SVG} ${MATHML}`.split(/\s+/));

/** Is `name` (any case) a tag a browser would show as nothing: neither a known element nor a custom one? */
export function isUnknownElement(name: string): boolean {
  const lower = name.toLowerCase();
  return !KNOWN.has(lower) && !lower.includes('-');
}
