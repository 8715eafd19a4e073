import { expect, type Page } from "@playwright/test";
import { testSql } from "./support";

export const DEMO_PASSWORD = "abacus-demo-2026";
export const demo = {
  admin: "admin@abacus.local",
  owner: "owner@abacus.local",
  member: "member@abacus.local",
} as const;

let counter = 0;
export function uniqueEmail(prefix: string) {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${process.pid}-${counter}@example.com`;
}

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD, redirect?: string) {
  await page.goto(redirect ? `/sign-in?redirect_url=${encodeURIComponent(redirect)}` : "/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Signing in hashes a password: allow a busy machine some time.
  await expect(page).not.toHaveURL(/\/sign-in/, { timeout: 20_000 });
}

/** The newest message the instance sent to `to` (from the outbox; no mail server in tests). */
export async function latestMail(to: string, kind?: string) {
  const sql = testSql();
  try {
    for (let attempt = 0; attempt < 20; attempt++) {
      const [row] = kind
        ? await sql<{ text: string; subject: string }[]>`select text, subject from mail_outbox
            where "to" = ${to} and kind = ${kind} order by created_at desc limit 1`
        : await sql<{ text: string; subject: string }[]>`select text, subject from mail_outbox
            where "to" = ${to} order by created_at desc limit 1`;
      if (row) return row;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`no mail to ${to}`);
  } finally {
    await sql.end();
  }
}

/** The first link in the newest message to `to`, as a path on the server under test. */
export async function mailedLink(to: string, kind?: string): Promise<string> {
  const { text } = await latestMail(to, kind);
  const match = /(https?:\/\/\S+)/.exec(text);
  if (!match?.[1]) throw new Error(`no link in the mail to ${to}`);
  const url = new URL(match[1]);
  return url.pathname + url.search;
}

/** The 6-digit code in the newest confirmation mail to `to`. */
export async function mailedCode(to: string): Promise<string> {
  const { text } = await latestMail(to, "verify-email");
  const match = /confirmation code: (\d{6})/.exec(text);
  if (!match?.[1]) throw new Error(`no code in the mail to ${to}`);
  return match[1];
}

/**
 * Fills in the sign-up form, then types the emailed code on the "Check your email" screen (which
 * confirms the address, signs the new user in and continues to onboarding, or to the invitation it
 * started from).
 */
export async function signUpAndVerify(page: Page, opts: { name: string; email: string; password?: string }) {
  await page.getByLabel("Name").fill(opts.name);
  await page.getByLabel("Email").fill(opts.email);
  await page.getByLabel("Password").fill(opts.password ?? "a-long-unusual-passphrase");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible({ timeout: 20_000 });
  await page.getByLabel("Confirmation code").fill(await mailedCode(opts.email));
  await page.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(page).not.toHaveURL(/\/sign-up/, { timeout: 20_000 });
}

/** Signs up and walks through onboarding with a new organization and the Free plan. */
export async function signUpAndOnboard(page: Page, opts: { name: string; email: string; org: string }) {
  const password = "a-long-unusual-passphrase";
  await page.goto("/sign-up");
  await signUpAndVerify(page, { name: opts.name, email: opts.email, password });
  await expect(page).toHaveURL(/\/onboarding/);
  await expect(page.getByRole("heading", { name: "Your profile", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Your organization", exact: true })).toBeVisible();
  await page.getByLabel("Organization name").fill(opts.org);
  // Slugs are unique across the instance: make this one unique to the run (and to a retry).
  const slug = `${await page.getByLabel("Slug").inputValue()}-${Date.now().toString(36)}${counter}`;
  await page.getByLabel("Slug").fill(slug);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page.getByRole("heading", { name: "Preferences", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Choose a plan", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Start free" }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  return { password, slug };
}
