/** What GET /api/me answers about the signed-in visitor: the header and app shell render from it. */
export type MeSummary = {
  user: { name: string; email: string; isAdmin: boolean; onboarded: boolean };
  impersonating: boolean;
  activeOrganizationId: string | null;
  organizations: { id: string; name: string; slug: string; role: string }[];
};
