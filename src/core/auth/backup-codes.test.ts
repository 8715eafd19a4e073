import { describe, expect, it } from "vitest";
import {
  BACKUP_CODE_ALPHABET,
  backupCodesFile,
  generateBackupCodes,
  normaliseBackupCode,
} from "./backup-codes";

describe("backup codes", () => {
  it("are ten upper-case codes in two groups of five, with no look-alike characters", () => {
    const codes = generateBackupCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[2-9A-HJKMNP-TV-Z]{5}-[2-9A-HJKMNP-TV-Z]{5}$/);
    expect(BACKUP_CODE_ALPHABET).not.toMatch(/[01OILU]/);
  });

  it("use every symbol of the alphabet", () => {
    const seen = new Set(generateBackupCodes(200).join("").replaceAll("-", ""));
    expect([...seen].sort().join("")).toBe([...BACKUP_CODE_ALPHABET].sort().join(""));
  });

  it("accept what a person types: lower case, spaces, no dash", () => {
    expect(normaliseBackupCode("7kq2m xh9pa")).toBe("7KQ2M-XH9PA");
    expect(normaliseBackupCode(" 7KQ2MXH9PA ")).toBe("7KQ2M-XH9PA");
    expect(normaliseBackupCode("7KQ2M-XH9PA")).toBe("7KQ2M-XH9PA");
    // Older mixed-case codes are kept as typed.
    expect(normaliseBackupCode("aB3dE-fG7hK")).toBe("aB3dE-fG7hK");
    expect(normaliseBackupCode("short")).toBe("short");
  });

  it("make a text file to keep", () => {
    expect(backupCodesFile(["AAAAA-BBBBB"], "ada@example.com")).toBe(
      "Abacus backup codes for ada@example.com\nEach code signs you in once when you cannot use your authenticator app.\n\nAAAAA-BBBBB\n",
    );
  });
});
