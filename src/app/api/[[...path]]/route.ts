import { unknownApiPath } from "@/server/api";

export const dynamic = "force-dynamic";

// Only what no other route under /api matches comes here (Next.js prefers static segments, then
// dynamic ones, then catch-alls, the more specific first: /api/auth/* stays Better Auth's), so an
// unknown /api/* path answers 404 in the API's error shape, for every method, not the HTML 404 page.
export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = unknownApiPath();
