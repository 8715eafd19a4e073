import { describe, expect, it } from "vitest";
import { assignableRoles, MANAGER_ROLES, MEMBER_ROLES, memberRoleOf, platformRoleOf } from "./roles";

describe("roles", () => {
  it("derives the manager roles from the member roles", () => {
    expect(MANAGER_ROLES).toEqual(["owner", "admin"]);
    expect(MEMBER_ROLES).toContain("member");
  });

  it("reads stored roles defensively", () => {
    expect(memberRoleOf("owner")).toBe("owner");
    expect(memberRoleOf("superuser")).toBe("member");
    expect(memberRoleOf(null)).toBe("member");
    expect(platformRoleOf("admin")).toBe("admin");
    expect(platformRoleOf("Admin")).toBe("user");
  });

  it("lets only owners assign the owner role", () => {
    expect(assignableRoles("owner")).toEqual(["owner", "admin", "member"]);
    expect(assignableRoles("admin")).toEqual(["admin", "member"]);
    expect(assignableRoles("member")).toEqual([]);
  });
});
