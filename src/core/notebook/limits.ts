/**
 * Limits of a saved sheet, one source for the database's CHECKs, the actions' schemas and the editor.
 * The body cap is in UTF-8 bytes, as PostgreSQL's octet_length counts them.
 */
export const SHEET_ROW_LIMITS = {
  titleChars: 200,
  bodyBytes: 64 * 1024,
  /** Live sheets per organization. */
  perOrganization: 500,
  /** Sheets a list shows (the newest edited first; search narrows). */
  listed: 100,
  search: 100,
} as const;
