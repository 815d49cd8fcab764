/** The catalogue of repo diagnostics lives in the leaf (diagnostics/repo-codes.ts): the reader (source/) reports with it too. */
export { CODES, diag, type Code, type Place } from '../diagnostics/repo-codes.js';
