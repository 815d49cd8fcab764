/**
 * The school's size limits, as plain numbers: what messages quote without loading the schemas
 * (school-rules.ts builds its checks from these, and re-exports them).
 */

/** Names and ids: 1 to this many characters. */
export const MAX_NAME_LENGTH = 255;
/** body, description, the video fields and embed_code: at most this many characters. */
export const MAX_CONTENT_LENGTH = 200_000;
/** drip_delay: 0 to this many days. */
export const MAX_DRIP_DELAY = 32_767;
