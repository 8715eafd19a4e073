import { expect, type Page, test } from "@playwright/test";
import { testSql } from "./support";
import { recordToasts, toastsSeen } from "./toasts";

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
  // The topic is our Select (Radix): open it, then pick the option by its name.
  await page.getByLabel("Topic").click();
  await page.getByRole("option", { name: values.topic, exact: true }).click();
  await expect(page.getByLabel("Topic")).toHaveText(values.topic);
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

test("a valid message is stored and confirmed once, in place, until another is started", async ({ page }) => {
  const message = `Please explain half-even rounding. ${Date.now()}`;
  await recordToasts(page);
  await page.goto("/contact");
  await fill(page, { ...good, message });
  await page.getByRole("button", { name: "Send message" }).click();

  const sent = page.getByTestId("contact-sent");
  await expect(sent.getByRole("heading", { name: "Message sent" })).toBeFocused();
  await expect(sent).toContainText("We'll reply to grace@example.com");
  const rows = await sql`select name, email, topic, message from contact_messages where message = ${message}`;
  expect(rows).toEqual([{ name: "Grace Hopper", email: "grace@example.com", topic: "support", message }]);

  await page.getByRole("button", { name: "Send another message" }).click();
  await expect(sent).toHaveCount(0);
  await expect(page.getByLabel("Name")).toBeFocused();
  await expect(page.getByLabel("Name")).toHaveValue("");
  await expect(page.getByLabel("Message")).toHaveValue("");
  await expect(page.getByLabel("Topic")).toHaveText("Choose a topic…");
  // Said once: by the panel, not also by a toast.
  expect(await toastsSeen(page)).toEqual([]);
});

test("an error that wraps under one field moves none of the others", async ({ page }) => {
  await page.setViewportSize({ width: 700, height: 900 });
  await page.goto("/contact");
  const name = page.getByLabel("Name");
  const topic = page.getByLabel("Topic");
  const before = { name: await name.boundingBox(), topic: await topic.boundingBox() };
  // Only the email is wrong: its message is long enough to wrap in its half-width column.
  await fill(page, { ...good, email: "grace@", message: "A message that is long enough." });
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByText("Enter a valid email address, like name@example.com.")).toBeVisible();
  expect(await name.boundingBox()).toEqual(before.name);
  expect((await topic.boundingBox())?.y).toBe(before.topic?.y);
});

test("a toast disappears by itself after about five seconds", async ({ page, context }) => {
  // The page's clock is Playwright's: time is stepped, not waited for, so a busy machine cannot
  // make this pass or fail. Sonner's own default is 4 s, so a toast still there at 4.5 s proves the
  // app's 5 s; one still there at 5.5 s would never close by itself.
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.clock.install();
  await page.goto("/calculator?mode=decimal");
  // Note, on the page's clock, when the toast appears.
  await page.evaluate(() => {
    new MutationObserver((_, observer) => {
      if (document.querySelector("[data-sonner-toast]")) {
        (window as unknown as { toastAt: number }).toastAt = Date.now();
        observer.disconnect();
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
  await page.getByLabel("Expression").fill("1/3*3");
  await page.getByRole("button", { name: "Copy result" }).click();
  const toast = page.getByText("Result copied");
  await expect(toast).toBeVisible();
  await page.mouse.move(0, 0); // hovering the toasts pauses their timers
  // Stop the clock a moment ahead, then step it to 4.5 s and to 5.5 s after the toast appeared.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  const age = () => page.evaluate(() => Date.now() - (window as unknown as { toastAt: number }).toastAt);
  await page.clock.runFor(4500 - (await age()));
  expect(await age()).toBe(4500);
  await expect(toast).toBeVisible();
  await page.clock.runFor(1000);
  await expect(toast).toBeHidden();
});

test("a filled honeypot looks like success but stores nothing", async ({ page }) => {
  const message = `Buy cheap followers ${Date.now()}`;
  await page.goto("/contact");
  await fill(page, { ...good, message });
  await page.locator("#contact-website").fill("http://spam.example", { force: true });
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByTestId("contact-sent")).toBeVisible();
  expect(await sql`select 1 from contact_messages where message = ${message}`).toHaveLength(0);
});

test("the sixth message within an hour is refused and the form keeps its values", async ({ page }) => {
  await page.goto("/contact");
  for (let i = 1; i <= 5; i++) {
    await fill(page, { ...good, message: `Rate limit check number ${i}` });
    await page.getByRole("button", { name: "Send message" }).click();
    await page.getByRole("button", { name: "Send another message" }).click();
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
