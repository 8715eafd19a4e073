import { describe, expect, it } from "vitest";
import { FLASH_MESSAGES, flashMessage } from "./flash";

describe("flashMessage", () => {
  it("turns a known code into its message", () => {
    expect(flashMessage("signed-out")).toBe("Signed out.");
    expect(flashMessage("account-deleted")).toBe(FLASH_MESSAGES["account-deleted"]);
  });

  it("ignores anything else, so no outside text becomes a toast", () => {
    expect(flashMessage(undefined)).toBeNull();
    expect(flashMessage("")).toBeNull();
    expect(flashMessage("<b>hi</b>")).toBeNull();
    expect(flashMessage("toString")).toBeNull();
    expect(flashMessage("__proto__")).toBeNull();
  });
});
