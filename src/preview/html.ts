/** Escaping for text and attribute values the preview writes into HTML (PURE). */

/** Escape `&`, `<`, `>`, `"` and `'`: safe in element text and in quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
