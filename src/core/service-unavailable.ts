/**
 * The digest of the error a page throws when the database cannot be reached. Next.js keeps a
 * thrown error's own `digest` on its way to the client's error boundary (messages are stripped in
 * production), so the boundary can show "temporarily unavailable" instead of a generic failure.
 */
export const SERVICE_UNAVAILABLE_DIGEST = "ABACUS_SERVICE_UNAVAILABLE";

export const SERVICE_UNAVAILABLE_TITLE = "Abacus is temporarily unavailable";
export const SERVICE_UNAVAILABLE_TEXT =
  "We cannot reach our database right now. Nothing you saved is lost. Try again in a moment.";
