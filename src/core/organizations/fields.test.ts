import { describe, expect, it } from "vitest";
import { createOrgSchema, emailField, slugify } from "./fields";

describe("identity fields", () => {
  it("slugifies organization names", () => {
    expect(slugify("Acme Finance, Ltd.")).toBe("acme-finance-ltd");
    expect(slugify("Café Ñandú")).toBe("cafe-nandu");
    expect(slugify("---")).toBe("");
  });

  it("normalises emails and slugs", () => {
    expect(emailField.parse("  Ada@Example.COM ")).toBe("ada@example.com");
    expect(createOrgSchema.safeParse({ name: "Acme", slug: "Acme-Finance" }).data?.slug).toBe("acme-finance");
    expect(createOrgSchema.safeParse({ name: "Acme", slug: "acme--finance" }).success).toBe(false);
  });
});
