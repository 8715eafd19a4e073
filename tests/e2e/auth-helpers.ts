import { expect, type Page } from "@playwright/test";

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
  await expect(page).not.toHaveURL(/\/sign-in/);
}

/** Signs up and walks through onboarding with a new organization and the Free plan. */
export async function signUpAndOnboard(page: Page, opts: { name: string; email: string; org: string }) {
  const password = "a-long-unusual-passphrase";
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill(opts.name);
  await page.getByLabel("Email").fill(opts.email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
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
