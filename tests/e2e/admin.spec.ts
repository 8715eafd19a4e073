import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { DEMO_PASSWORD, demo, uniqueEmail } from "./auth-helpers";
import { testSql } from "./support";

/** Signs in through the form; password hashing is slow on a loaded machine, so it waits longer. */
async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/sign-in/, { timeout: 30_000 });
}

async function adminPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, demo.admin);
  return page;
}

async function findUser(page: Page, email: string) {
  await page.goto("/admin/users");
  await page.getByLabel("Search name or email").fill(email);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(email).replace(/\./g, "\\.")}`));
  await expect(page.getByRole("table", { name: "Users" }).getByText(email, { exact: true })).toBeVisible();
}

async function manage(page: Page, email: string) {
  await page.getByRole("button", { name: `Manage ${email}` }).click();
  return page.getByRole("dialog");
}

test("an admin finds a user, bans them (they cannot sign in), unbans them, impersonates them and returns", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const email = uniqueEmail("banned");
  const password = "a-long-unusual-passphrase";
  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  // An account made through the auth API (onboarding is covered elsewhere), then signed in for real.
  const created = await userContext.request.post("/api/auth/sign-up/email", {
    data: { name: "Bea Banned", email, password },
    headers: { Origin: baseURL ?? "" },
    timeout: 30_000,
  });
  expect(created.status()).toBe(200);
  // Confirmed and onboarded as if by hand: those screens have their own specs.
  const sql = testSql();
  await sql`update "user" set onboarding_step = 'done', email_verified = true where email = ${email}`;
  await sql.end();
  await userContext.clearCookies();
  await signIn(userPage, email, password);

  const admin = await adminPage(browser);
  await findUser(admin, email);
  let dialog = await manage(admin, email);
  await dialog.getByLabel("Reason").fill("Abusing the API");
  await dialog.getByRole("button", { name: "Ban and sign out" }).click();
  await expect(admin.getByText("is banned and signed out everywhere")).toBeVisible();
  await admin.keyboard.press("Escape");
  await expect(admin.getByText("banned", { exact: true })).toBeVisible();

  // Their open session is gone, and signing in again is refused.
  await userPage.goto("/dashboard");
  await expect(userPage).toHaveURL(/\/sign-in/);
  await userPage.goto("/sign-in");
  await userPage.getByLabel("Email").fill(email);
  await userPage.getByLabel("Password").fill(password);
  await userPage.getByRole("button", { name: "Sign in" }).click();
  await expect(userPage.getByText("This account has been suspended.").first()).toBeVisible();
  await expect(userPage).toHaveURL(/\/sign-in/);

  dialog = await manage(admin, email);
  await dialog.getByRole("button", { name: "Unban" }).click();
  await expect(admin.getByText("can sign in again")).toBeVisible();
  await admin.keyboard.press("Escape");
  await signIn(userPage, email, password);

  // The audit log on the page shows both actions.
  await admin.reload();
  const log = admin.getByRole("table", { name: "Audit log" });
  await expect(log.getByText("user.ban", { exact: true }).first()).toBeVisible();
  await expect(log.getByText("user.unban", { exact: true }).first()).toBeVisible();

  // Impersonate: a banner on every page, no admin area, one click back.
  dialog = await manage(admin, email);
  await dialog.getByRole("button", { name: "Impersonate" }).click();
  // The user has no organization yet, so the dashboard sends them on to create one.
  await expect(admin).toHaveURL(/\/(dashboard|organization-profile)/);
  const banner = admin.getByRole("region", { name: "Impersonation" });
  await expect(banner).toContainText(email);
  await admin.goto("/pricing");
  await expect(banner).toContainText(email);
  const response = await admin.goto("/admin/users");
  expect(response?.status()).toBe(404);
  await banner.getByRole("button", { name: "Stop impersonating" }).click();
  await expect(admin).toHaveURL(/\/admin\/users/);
  await expect(admin.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
  await expect(banner).toHaveCount(0);
  await admin.context().close();
  await userContext.close();
});

test("an admin imports an ECB file and /pricing changes", async ({ browser }) => {
  test.setTimeout(90_000);
  const sql = testSql();
  const [before] = await sql<{ rate: string; date: string }[]>`
    select rate::text as rate, rates_date::text as date from fx_rates where currency = 'ISK'`;
  try {
    const admin = await adminPage(browser);
    await admin.goto("/pricing?currency=ISK");
    const price = admin.getByTestId("price-pro").filter({ visible: true });
    const oldPrice = (await price.textContent()) ?? "";

    // A daily file holding one currency, dated after the current rates.
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
	<gesmes:subject>Reference rates</gesmes:subject>
	<gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender>
	<Cube>
		<Cube time='2099-01-02'>
			<Cube currency='ISK' rate='200.00'/>
		</Cube>
	</Cube>
</gesmes:Envelope>`;
    await admin.goto("/admin/currency-test");
    await admin.getByLabel("ECB XML or CSV file").setInputFiles({
      name: "eurofxref-daily.xml",
      mimeType: "text/xml",
      buffer: Buffer.from(xml),
    });
    await admin.getByRole("button", { name: "Preview" }).click();
    const changes = admin.getByRole("table", { name: "Current rates that will change" });
    await expect(changes.getByRole("row", { name: /ISK/ })).toContainText("200.00");
    await admin.getByRole("button", { name: "Apply import" }).click();
    await expect(admin.getByText(/Imported: 1 current rate changed/)).toBeVisible();
    await expect(admin.getByText("fx.import")).toHaveCount(0); // the audit log lives on /admin/users

    await admin.goto("/pricing?currency=ISK");
    // 12 USD at 200 ISK per EUR and the seeded 1.1582 USD per EUR: 2,072.0083 rounds to 2,072 (ISK has no minor unit).
    await expect(price).toContainText("2,072");
    expect(await price.textContent()).not.toBe(oldPrice);
    await expect(admin.getByText("ECB rates of 2099-01-02").first()).toBeVisible();

    await admin.goto("/admin/users?action=fx.import");
    await expect(
      admin.getByRole("table", { name: "Audit log" }).getByText("ECB XML: 2099-01-02").first(),
    ).toBeVisible();
    await admin.context().close();
  } finally {
    // Put the seeded rate back so other specs see the rates they expect.
    if (before) {
      await sql.begin(async (tx) => {
        await tx`update fx_rates set rate = ${before.rate}::numeric, rates_date = ${before.date}::date where currency = 'ISK'`;
        // Every change to fx_rates bumps its version, or instances keep serving their cached table.
        await tx`insert into fx_rates_version (id, version) values (1, 1)
          on conflict (id) do update set version = fx_rates_version.version + 1, changed_at = now()`;
      });
    }
    await sql.end();
  }
});

test("every admin screen fits a 360 px wide phone without sideways scrolling", async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await signIn(page, demo.admin);
  for (const path of ["/admin", "/admin/users", "/admin/currency-test"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
  await context.close();
});

for (const scheme of ["light", "dark"] as const) {
  test(`admin screens have no serious or critical axe violations (${scheme})`, async ({ browser }) => {
    test.setTimeout(90_000);
    const context = await browser.newContext({ colorScheme: scheme });
    const page = await context.newPage();
    await signIn(page, demo.admin);
    for (const path of ["/admin", "/admin/users", "/admin/currency-test"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      const results = await new AxeBuilder({ page })
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
        .analyze();
      const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(
        blocking.map((v) => `${path} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      ).toEqual([]);
    }
    await context.close();
  });
}
