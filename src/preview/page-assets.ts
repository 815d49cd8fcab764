/**
 * The preview page's style, its live-reload script and the Content-Security-Policy of its
 * responses (constants; no user text goes in here).
 */
import { createHash } from 'node:crypto';

export const PAGE_STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
main{max-width:60rem;margin:0 auto;padding:1rem 1.5rem 4rem}
header h1{margin:.5rem 0 0;font-size:1.4rem}.summary{color:#5b6474;margin:.2rem 0 1rem}
#diagnostics{background:#fff4f2;border:1px solid #e8b4a8;border-radius:6px;padding:.5rem 1rem;margin-bottom:1rem}
#diagnostics.ok{background:#f0f8f2;border-color:#b4d8bd}
.diagnostic{margin:.3rem 0}.diagnostic .severity{font-weight:600}.diagnostic.error .severity{color:#b42318}
.diagnostic.warning .severity{color:#9a6700}.hint{color:#5b6474;margin-left:1rem}.stale{font-weight:600}
#calendar ol{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.5rem}
#calendar .day{background:#fff;border:1px solid #d6dae1;border-radius:6px;padding:.3rem .8rem;min-width:10rem}
#calendar h3{margin:.2rem 0;font-size:1rem}.program-calendar>h3{margin-top:.8rem}#calendar p{margin:0;color:#5b6474}
.program,.section{margin-top:1.5rem}.section>h3{border-bottom:1px solid #d6dae1}
.lesson{background:#fff;border:1px solid #d6dae1;border-radius:6px;padding:.5rem 1rem;margin:.8rem 0}
.lesson.hidden{opacity:.6;border-style:dashed}
.mark{font-size:.75rem;border-radius:4px;padding:.05rem .4rem;margin-left:.3rem;vertical-align:middle}
.mark.draft{background:#eceff3;color:#5b6474}.mark.lock{background:#fff1c2}.mark.day{background:#e4efff}
.meta,.gate{color:#5b6474;font-size:.9rem;margin:.2rem 0}small{color:#5b6474;font-weight:400}
.player iframe{width:100%;aspect-ratio:16/9;border:0}
.lesson img,.lesson video{max-width:100%;height:auto}.lesson-body,.lesson-description{overflow-wrap:anywhere}
.lesson pre{overflow-x:auto}
`;

/**
 * Live reload: the server sends an event after each recompile; the page fetches itself (the
 * course, or one lesson's page) and swaps <main>, so the scroll position and the open tab stay
 * (no navigation). Scripts in the fetched page are never run (DOMParser's never are).
 */
export const PAGE_SCRIPT = `
(() => {
  const events = new EventSource('/events');
  events.onmessage = async (e) => {
    const current = document.getElementById('preview');
    if (current && current.dataset.version === e.data) return;
    const res = await fetch(location.pathname, { cache: 'no-store' });
    const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
    const next = doc.getElementById('preview');
    if (current && next) current.replaceWith(document.adoptNode(next));
  };
})();
`;

/**
 * The policy of the preview's pages: the only script that runs is PAGE_SCRIPT (by its hash, so
 * no event handler, `javascript:` URL or script of a lesson runs), it may only talk to this
 * server, and no `<base href>`, form or plugin of a lesson acts. Images, media, players and
 * styles load from anywhere, as in the school.
 */
export const PAGE_POLICY = [
  "default-src 'none'",
  `script-src 'sha256-${createHash('sha256').update(PAGE_SCRIPT).digest('base64')}'`,
  "connect-src 'self'",
  'img-src * data: blob:',
  'media-src * data: blob:',
  "style-src * 'unsafe-inline'",
  'font-src * data:',
  'frame-src *',
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * The policy of `/lessons/<key>/body.html` (a lesson's exact bytes, opened on their own): a
 * sandbox with no scripts, no forms, no refresh and an origin of its own.
 */
export const BODY_POLICY = ["sandbox", "default-src 'none'", 'img-src * data:', 'media-src *', "style-src * 'unsafe-inline'", 'font-src *', "base-uri 'none'", "form-action 'none'"].join('; ');

/** Anything else the server answers (plain text) needs nothing. */
export const TEXT_POLICY = "default-src 'none'";
