import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { needsSession, ROUTES } from "@/core/routes";

// Every page that needs a session is rendered per request anyway: the header's account area is
// drawn with it (the root layout's @account slot) instead of after /api/me. A new signed-in route
// needs its slot page too, or its header would pop in after load.
describe("the @account slot", () => {
  it("has a page for every route that needs a session", () => {
    const slot = path.join(process.cwd(), "src/app/@account");
    const missing = ROUTES.filter((route) => needsSession(route.audience)).filter((route) => {
      const dir = path.join(slot, route.path);
      const page =
        "catchAll" in route && route.catchAll
          ? path.join(dir, "[[...rest]]", "page.tsx")
          : path.join(dir, "page.tsx");
      return !existsSync(page);
    });
    expect(missing.map((route) => route.path)).toEqual([]);
  });
});
