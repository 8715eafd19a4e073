import { describe, expect, it } from "vitest";
import { announcementLines } from "./outbox";
import { mailTemplates } from "./templates";

describe("the terminal lines of a local instance", () => {
  it("give a confirmation's code and link on one line, and nothing of the body", () => {
    const message = mailTemplates.verifyEmail(
      "http://localhost:3000",
      "http://localhost:3000/sign-up/confirm?token=abc.def",
      "042137",
    );
    expect(announcementLines("ana@example.com", message)).toEqual([
      "[mail] Confirm your email address (to ana@example.com): code 042137 http://localhost:3000/sign-up/confirm?token=abc.def",
    ]);
  });

  it("give one line per link of other messages", () => {
    const lines = announcementLines("bo@example.com", mailTemplates.accountExists("http://localhost:3000"));
    expect(lines).toEqual([
      "[mail] You already have an Abacus account (to bo@example.com): http://localhost:3000/sign-in",
      "[mail] You already have an Abacus account (to bo@example.com): http://localhost:3000/sign-in/forgot-password",
    ]);
  });
});
