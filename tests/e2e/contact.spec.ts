import { expect, type Page, test } from "@playwright/test";
import { testSql } from "./support";

// These tests share the one client address the server sees, so they run one after another on a
// clean slate.
test.describe.configure({ mode: "serial" });

const sql = testSql();
test.beforeEach(async () => {
  await sql`delete from rate_limit_events where bucket = 'contact'`;
});
test.afterAll(async () => {
  await sql.end();
});

async function fill(page: Page, values: { name: string; email: string; topic: string; message: string }) {
  await page.getByLabel("Name").fill(values.name);
  await page.getByLabel("Email").fill(values.email);
  await page.getByLabel("Topic").selectOption({ label: values.topic });
  await page.getByLabel("Message").fill(values.message);
}

const good = { name: "Grace Hopper", email: "grace@example.com", topic: "Support", message: "" };

test("bad input shows a specific error on each field and keeps what was typed", async ({ page }) => {
  await page.goto("/contact");
  await page.getByLabel("Name").fill("   ");
  await page.getByLabel("Email").fill("grace@");
  await page.getByLabel("Message").fill("Too short");
  await page.getByRole("button", { name: "Send message" }).click();

  await expect(page.getByText("Enter your name.")).toBeVisible();
  await expect(page.getByText("Enter a valid email address, like name@example.com.")).toBeVisible();
  await expect(page.getByText("Choose a topic.")).toBeVisible();
  await expect(page.getByText("Your message needs at least 10 characters.")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue("grace@");
  await expect(page.getByLabel("Message")).toHaveValue("Too short");
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Name")).toBeFocused();
});

test("a valid message is stored, announced with a dismissible toast, and the form clears", async ({
  page,
}) => {
  const message = `Please explain half-even rounding. ${Date.now()}`;
  await page.goto("/contact");
  await fill(page, { ...good, message });
  await page.getByRole("button", { name: "Send message" }).click();

  const toast = page.getByText("Message sent. We will reply by email.");
  await expect(toast).toBeVisible();
  await expect(page.getByLabel("Message")).toHaveValue("");
  const rows = await sql`select name, email, topic, message from contact_messages where message = ${message}`;
  expect(rows).toEqual([{ name: "Grace Hopper", email: "grace@example.com", topic: "support", message }]);

  await page.getByRole("button", { name: "Close toast" }).click();
  await expect(toast).toBeHidden();
});

test("a toast disappears by itself after about five seconds", async ({ page }) => {
  await page.goto("/contact");
  await fill(page, { ...good, message: "Does the free plan include the API?" });
  await page.getByRole("button", { name: "Send message" }).click();
  const toast = page.getByText("Message sent. We will reply by email.");
  await expect(toast).toBeVisible();
  await page.waitForTimeout(3500);
  await expect(toast).toBeVisible();
  await expect(toast).toBeHidden({ timeout: 5000 });
});

test("a filled honeypot looks like success but stores nothing", async ({ page }) => {
  const message = `Buy cheap followers ${Date.now()}`;
  await page.goto("/contact");
  await fill(page, { ...good, message });
  await page.locator("#contact-website").fill("http://spam.example", { force: true });
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByText("Message sent. We will reply by email.")).toBeVisible();
  expect(await sql`select 1 from contact_messages where message = ${message}`).toHaveLength(0);
});

test("the sixth message within an hour is refused and the form keeps its values", async ({ page }) => {
  await page.goto("/contact");
  for (let i = 1; i <= 5; i++) {
    await fill(page, { ...good, message: `Rate limit check number ${i}` });
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByLabel("Message")).toHaveValue("");
  }
  await fill(page, { ...good, message: "Rate limit check number 6" });
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "You have sent 5 messages in the last hour." }),
  ).toBeVisible();
  await expect(page.getByLabel("Message")).toHaveValue("Rate limit check number 6");
  expect(await sql`select 1 from contact_messages where message = 'Rate limit check number 6'`).toHaveLength(
    0,
  );
});

test("an unexpected server-action response is announced and loses nothing", async ({ page }) => {
  await page.goto("/contact");
  await page.route("**/contact", async (route) => {
    if (route.request().method() === "POST") {
      await route.fulfill({
        status: 200,
        contentType: "text/html",
        body: "<html><body>proxy error</body></html>",
      });
    } else await route.continue();
  });
  await fill(page, { ...good, message: "This one meets a broken proxy." });
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByText("An unexpected response was received from the server.")).toBeVisible();
  await expect(page.getByLabel("Message")).toHaveValue("This one meets a broken proxy.");
});
