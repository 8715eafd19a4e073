import { describe, expect, it } from "vitest";
import {
  EU_COUNTRIES,
  isEuCountry,
  reverseChargeApplies,
  VAT_ID_MAX_LENGTH,
  validateVatId,
  vatPrefix,
} from "./vat";

describe("validateVatId", () => {
  // Published VAT IDs of large companies, one per algorithm family.
  it.each([
    ["IE6388047V", "IE", "IE6388047V"],
    ["be 0411.905.847", "BE", "BE0411905847"],
    ["FR-40-303-265-045", "FR", "FR40303265045"],
    ["ATU13585627", "AT", "ATU13585627"],
    ["de136695976", "DE", "DE136695976"],
    ["NL004495445B01", "NL", "NL004495445B01"],
    ["EL094014201", "GR", "EL094014201"],
    ["ESA28015865", "ES", "ESA28015865"],
    ["PL 526-025-02-74", "PL", "PL5260250274"],
    ["IT00743110157", "IT", "IT00743110157"],
    ["SE556703748501", "SE", "SE556703748501"],
  ])("accepts %s as %s", (raw, country, normalized) => {
    expect(validateVatId(raw)).toEqual({ ok: true, country, normalized });
  });

  it("rejects a wrong check digit with its own message", () => {
    const result = validateVatId("DE136695977");
    expect(result).toMatchObject({ ok: false, code: "checksum" });
    if (!result.ok) expect(result.error).toMatch(/check digits/);
  });

  it("rejects a number of the wrong shape for its country", () => {
    expect(validateVatId("DE12345")).toMatchObject({ ok: false, code: "format" });
    expect(validateVatId("FR4030326504")).toMatchObject({ ok: false, code: "format" });
  });

  it("tells Greek customers to use EL", () => {
    const result = validateVatId("GR094014201");
    expect(result).toMatchObject({ ok: false, code: "format" });
    if (!result.ok) expect(result.error).toMatch(/EL/);
  });

  it("rejects prefixes outside the EU, and numbers without a prefix", () => {
    expect(validateVatId("GB980780684")).toMatchObject({ ok: false, code: "not_eu" });
    expect(validateVatId("CHE123456788")).toMatchObject({ ok: false, code: "not_eu" });
    expect(validateVatId("EU372000041")).toMatchObject({ ok: false, code: "not_eu" });
    expect(validateVatId("136695976")).toMatchObject({ ok: false, code: "no_prefix" });
  });

  it("rejects empty and over-long input", () => {
    expect(validateVatId("  - ")).toMatchObject({ ok: false, code: "empty" });
    expect(validateVatId("DE".padEnd(VAT_ID_MAX_LENGTH + 1, "1"))).toMatchObject({
      ok: false,
      code: "too_long",
    });
  });
});

describe("EU membership and prefixes", () => {
  it("lists the 27 member states", () => {
    expect(EU_COUNTRIES).toHaveLength(27);
    expect(isEuCountry("de")).toBe(true);
    expect(isEuCountry("GB")).toBe(false);
    expect(isEuCountry("CH")).toBe(false);
    expect(vatPrefix("GR")).toBe("EL");
    expect(vatPrefix("fr")).toBe("FR");
  });
});

describe("reverseChargeApplies", () => {
  it("applies between two different member states", () => {
    expect(reverseChargeApplies("DE", "FR")).toBe(true);
    expect(reverseChargeApplies("at", "GR")).toBe(true);
  });
  it("does not apply in the seller's own country, without a VAT ID, or outside the EU", () => {
    expect(reverseChargeApplies("DE", "DE")).toBe(false);
    expect(reverseChargeApplies("DE", null)).toBe(false);
    expect(reverseChargeApplies(null, "FR")).toBe(false);
    expect(reverseChargeApplies("GB", "FR")).toBe(false);
    expect(reverseChargeApplies("US", "DE")).toBe(false);
  });
});
