import { type Browser, expect, type Page, test } from "@playwright/test";
import { ROUNDING_LABELS } from "../../src/core/rounding";
import { demo, signIn, signUpAndOnboard, signUpAndVerify, uniqueEmail } from "./auth-helpers";
import { chooseCountry, chooseCurrency, chooseOption } from "./pickers";

// What a new user meets after signing up: the organization's preferences at work, the plan picked
// on the pricing page kept through sign-up, saved conversions, checkout, the receipt, tables on
// phones and laptops, and the currency picker while it loads. Each journey signs up and onboards.
test.describe.configure({ timeout: 150_000 });
// Each onboarding step is a server action and a refresh: allow a busy machine some time.
const step = { timeout: 20_000 };
test.beforeAll(async ({ request }) => {
  await request.get("/sign-up");
  await request.get("/onboarding", { maxRedirects: 0 });
});

/** Onboarding after the confirmation link: profile, a new organization, then the preferences step. */
async function onboardToPreferences(page: Page, org: string) {
  await expect(page).toHaveURL(/\/onboarding/);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Your organization", exact: true })).toBeVisible(step);
  await page.getByLabel("Organization name").fill(org);
  const slug = `${await page.getByLabel("Slug").inputValue()}-${Date.now().toString(36)}`;
  await page.getByLabel("Slug").fill(slug);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page.getByRole("heading", { name: "Preferences", exact: true })).toBeVisible(step);
}

/** Every visible table fits the box it is in: nothing sticks out or hides behind a scroll. */
async function tablesOverflowing(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("main table")]
      .filter((t) => t.getClientRects().length > 0 && !t.closest(".sr-only, .prose-docs"))
      .map((t) => {
        const box = t.parentElement as HTMLElement;
        return {
          label: t.getAttribute("aria-label") ?? t.querySelector("caption")?.textContent ?? "table",
          width: Math.round(t.getBoundingClientRect().width),
          box: box.clientWidth,
        };
      })
      .filter((t) => t.width > t.box + 1),
  );
}

test("the plan picked on the pricing page is the one selected after sign-up and confirmation", async ({
  page,
}) => {
  await page.goto("/pricing");
  await chooseCurrency(page.getByLabel("Currency"), "JPY");
  await page.locator("label", { hasText: "Yearly" }).click();
  const shown = page.getByTestId("price-pro").filter({ visible: true });
  await expect(shown).toHaveText(/^¥/);
  const price = await shown.textContent();
  await page.getByRole("link", { name: "Choose Pro" }).filter({ visible: true }).click();
  // Signed out: checkout asks to sign in; a new visitor creates an account from there.
  await expect(page).toHaveURL(/\/sign-in\?redirect_url=/);
  await page.getByRole("link", { name: "Create an account" }).click();
  const email = uniqueEmail("chooser");
  await signUpAndVerify(page, { name: "Chooser", email });
  await onboardToPreferences(page, "Chooser Trading");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Choose a plan", exact: true })).toBeVisible(step);

  await expect(page.getByTestId("chosen-plan")).toContainText("Pro");
  await expect(page.getByRole("radio", { name: /Yearly/ })).toBeChecked();
  await expect(page.getByLabel("Currency")).toContainText("JPY");
  const pro = page.getByTestId("plan-pro");
  await expect(pro).toContainText("Your choice");
  await expect(pro.getByTestId("plan-price")).toHaveText(price ?? "");
  await pro.getByRole("button", { name: "Choose Pro" }).click();
  await expect(page).toHaveURL(/\/checkout\?plan=pro&interval=yearly&currency=JPY/, step);
});

test("onboarding's preferences set the calculator's defaults, the plan step's currency, and can be changed", async ({
  page,
}) => {
  const email = uniqueEmail("prefs");
  await page.goto("/sign-up");
  await signUpAndVerify(page, { name: "Pia", email });
  await onboardToPreferences(page, "Pia Imports");
  await chooseCurrency(page.getByLabel("Default currency"), "EUR");
  await chooseOption(page.getByLabel("Rounding mode"), ROUNDING_LABELS.floor);
  await page.getByLabel("Precision (significant digits)").fill("30");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Choose a plan", exact: true })).toBeVisible(step);
  // Prices in the currency just chosen.
  await expect(page.getByTestId("plan-pro").getByTestId("plan-price")).toHaveText(/^€/);
  await page.getByRole("button", { name: "Start free" }).click();
  await expect(page).toHaveURL(/\/dashboard/, step);

  await page.goto("/calculator?mode=decimal");
  await expect(page.getByLabel("Precision", { exact: true })).toHaveValue("30");
  await expect(page.getByRole("combobox", { name: "Rounding" })).toHaveText(ROUNDING_LABELS.floor);
  await page.getByLabel("Expression").fill("1/3");
  await expect(page.getByTestId("result-value")).toHaveText(`0.${"3".repeat(30)}`);
  // A link's own settings still win.
  await page.goto("/calculator?mode=decimal&expr=1%2F3&precision=5&rounding=half-up");
  await expect(page.getByLabel("Precision", { exact: true })).toHaveValue("5");
  await expect(page.getByTestId("result-value")).toHaveText("0.33333");

  await page.goto("/calculator?mode=currency");
  await expect(page.getByRole("region", { name: "Convert" }).getByLabel("From")).toContainText("EUR");
  await expect(page.getByRole("combobox", { name: "Rounding" })).toHaveText(ROUNDING_LABELS.floor);

  // Changed later in the organization's settings, by its owner.
  await page.goto("/organization-profile");
  const prefs = page.getByRole("region", { name: "Preferences" });
  await chooseCurrency(prefs.getByLabel("Default currency"), "GBP");
  await prefs.getByRole("button", { name: "Save preferences" }).click();
  await expect(page.getByText("Preferences saved.")).toBeVisible();
  await page.goto("/calculator?mode=currency");
  await expect(page.getByRole("region", { name: "Convert" }).getByLabel("From")).toContainText("GBP");
});

test("a member sees the organization's preferences but cannot change them", async ({ page }) => {
  await signIn(page, demo.member);
  await page.goto("/organization-profile");
  const prefs = page.getByRole("region", { name: "Preferences" });
  await expect(prefs.getByLabel("Default currency")).toBeDisabled();
  await expect(prefs.getByText("Only owners and admins can change these.")).toBeVisible();
  await expect(prefs.getByRole("button", { name: "Save preferences" })).toHaveCount(0);
});

test("a saved conversion reopens in the Currency mode with its amount, source and every target", async ({
  page,
}) => {
  await signUpAndOnboard(page, { name: "Reo", email: uniqueEmail("reopen"), org: "Reo Freight" });
  await page.goto("/calculator?mode=currency");
  let convert = page.getByRole("region", { name: "Convert" });
  await chooseCurrency(convert.getByLabel("From"), "EUR");
  await convert.getByLabel("Amount", { exact: true }).fill("100");
  // The table: USD, GBP and JPY, in that order.
  const rows = convert.locator('[data-testid^="convert-"]');
  while ((await rows.count()) > 0) {
    const code = (await rows.first().getAttribute("data-testid"))?.slice("convert-".length);
    await convert.getByRole("button", { name: `Remove ${code}` }).click();
    await expect(convert.getByTestId(`convert-${code}`)).toHaveCount(0);
  }
  for (const code of ["USD", "GBP", "JPY"]) await chooseCurrency(convert.getByLabel("Add a currency"), code);
  await expect(convert.locator('[data-testid^="convert-"]')).toHaveCount(3);
  await convert.getByRole("button", { name: "Save", exact: true }).click();
  await convert.getByRole("button", { name: "Save calculation" }).click();
  await expect(page.getByText(/Saved to .*history/)).toBeVisible();

  await page.goto("/dashboard");
  await page.getByTestId("saved-row").first().getByRole("link", { name: "Open" }).click();
  await expect(page).toHaveURL(/mode=currency/);
  convert = page.getByRole("region", { name: "Convert" });
  await expect(convert.getByLabel("From")).toContainText("EUR");
  await expect(convert.getByLabel("Amount", { exact: true })).toHaveValue("100");
  await expect(convert.locator('[data-testid^="convert-"]')).toHaveText([/^USD/, /^GBP/, /^JPY/]);
});

test("typing in the currency picker while its code loads keeps every letter, and Enter picks the match", async ({
  page,
}) => {
  await page.goto("/pricing");
  await page.waitForLoadState("networkidle");
  // From here on every script the page asks for (the picker's own code) arrives late, as on a slow link.
  await page.route("**/_next/static/chunks/**/*.js", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  const picker = page.getByRole("combobox", { name: "Currency" });
  await picker.click();
  await page.keyboard.type("swiss");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/currency=CHF/);
  await expect(picker).toContainText("CHF");
});

test("letters typed at the currency picker before the page has hydrated are kept too", async ({ page }) => {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/_next/static/chunks/**/*.js", async (route) => {
    await gate;
    await route.continue();
  });
  await page.goto("/pricing", { waitUntil: "domcontentloaded" });
  const picker = page.getByRole("combobox", { name: "Currency" });
  await picker.click();
  await page.keyboard.type("swiss");
  release();
  await expect(page.getByRole("combobox", { name: "Search currencies by code or name" })).toHaveValue(
    "swiss",
  );
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/currency=CHF/);
});

test("the members table fits its card on a laptop", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, demo.owner);
  await page.goto("/organization-profile");
  await expect(page.getByTestId("member-row").first()).toBeVisible();
  expect(await tablesOverflowing(page)).toEqual([]);
});

test.describe
  .serial("a paying owner", () => {
    let state: Awaited<ReturnType<Awaited<ReturnType<Browser["newContext"]>>["storageState"]>>;
    let receiptUrl = "";
    /** The EUR rate as checkout showed it. */
    let checkoutRate = "";

    test("checkout says when the offline test provider takes the payment, and links its test cards", async ({
      browser,
    }) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signUpAndOnboard(page, { name: "Greta", email: uniqueEmail("greta"), org: "Greta GmbH" });
      await page.goto("/checkout?plan=pro&interval=monthly&currency=EUR");
      await expect(page.getByTestId("test-mode")).toHaveText("Test mode");
      const cards = page.getByTestId("test-cards");
      await expect(cards).toContainText("4242 4242 4242 4242");
      await expect(cards.getByRole("link", { name: "list of test cards" })).toHaveAttribute(
        "href",
        "/docs#test-cards",
      );

      checkoutRate =
        /converted at (\S+) \(ECB/.exec(
          (await page.getByText(/USD converted at/).textContent()) ?? "",
        )?.[1] ?? "";
      expect(checkoutRate).not.toBe("");
      await chooseCountry(page.getByLabel("Country"), "Germany");
      await page.getByLabel("Card number").fill("4242 4242 4242 4242");
      await page.getByLabel("Expiry (MM/YY)").fill("12/30");
      await page.getByLabel("Security code").fill("123");
      await page.getByRole("button", { name: /^Pay / }).click();
      await expect(page).toHaveURL(/\/receipt\?number=/, { timeout: 30_000 });
      receiptUrl = new URL(page.url()).pathname + new URL(page.url()).search;
      state = await context.storageState();
      await context.close();
    });

    test("the receipt names its seller, the plan properly and the FX rate once", async ({ browser }) => {
      const context = await browser.newContext({ storageState: state });
      const page = await context.newPage();
      await page.goto(receiptUrl);
      const seller = page.getByTestId("receipt-seller");
      await expect(seller).toContainText("Abacus");
      await expect(seller).toContainText("/contact");
      await expect(page.getByText("Pro (monthly)", { exact: true })).toBeVisible();
      // The rate as checkout showed it, once.
      const basis = page.getByRole("definition").filter({ hasText: "USD ×" });
      await expect(basis).toHaveText(
        new RegExp(`^12(\\.00)? USD × ${checkoutRate.replace(/\./g, "\\.")} \\(ECB [\\d-]+\\)$`),
      );
      await context.close();
    });

    test("the printed receipt is the receipt alone, and its signed data stays inside the margins", async ({
      browser,
    }) => {
      // An A4 page's width at 96 dpi.
      const context = await browser.newContext({
        storageState: state,
        viewport: { width: 794, height: 1123 },
      });
      const page = await context.newPage();
      await page.goto(receiptUrl);
      await page.emulateMedia({ media: "print" });
      await expect(page.getByRole("banner")).toBeHidden();
      await expect(page.getByRole("contentinfo")).toBeHidden();
      const json = page.getByTestId("receipt-json");
      await expect(json).toBeVisible();
      const sticking = await page.evaluate(() => {
        const page = document.documentElement.clientWidth;
        return [...document.querySelectorAll("main *")]
          .filter((el) => el.getClientRects().length > 0 && !el.closest(".sr-only"))
          .filter(
            (el) =>
              el.getBoundingClientRect().right > page + 0.5 ||
              (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1),
          )
          .map((el) => `${el.tagName.toLowerCase()}: ${el.textContent?.slice(0, 40)}`);
      });
      expect(sticking).toEqual([]);
      await context.close();
    });

    test("upgrading to Team opens checkout in the currency and country the organization was billed in", async ({
      browser,
    }) => {
      const context = await browser.newContext({ storageState: state });
      const page = await context.newPage();
      await page.goto("/dashboard");
      await page.getByRole("link", { name: "Upgrade to Team" }).click();
      await expect(page).toHaveURL(/\/checkout\?plan=team/);
      await expect(page.getByLabel("Currency")).toContainText("EUR");
      await expect(page.getByLabel("Country")).toHaveText("Germany");
      await expect(page.getByTestId("summary-tax")).toHaveText(/^€/);
      // A plain checkout link without a currency also bills in the organization's currency.
      await page.goto("/checkout?plan=team&interval=monthly");
      await expect(page.getByLabel("Currency")).toContainText("EUR");
      await context.close();
    });

    test("the orders table is a list of cards on a phone", async ({ browser }) => {
      const context = await browser.newContext({
        storageState: state,
        viewport: { width: 360, height: 740 },
      });
      const page = await context.newPage();
      await page.goto("/dashboard");
      await expect(page.getByRole("link", { name: /^AB-/ })).toBeVisible();
      expect(await tablesOverflowing(page)).toEqual([]);
      // Every cell of an order is on screen, under its column's name.
      const receipt = page.getByRole("link", { name: /^AB-/ });
      const box = await receipt.boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(360);
      await expect(page.getByRole("cell", { name: "Paid" })).toBeVisible();
      await context.close();
    });
  });

test("no table sticks out of its box, on a phone or a laptop, anywhere an owner or admin goes", async ({
  browser,
}) => {
  const visits: [string, string[]][] = [
    [demo.owner, ["/dashboard", "/organization-profile", "/calculator?mode=currency", "/pricing"]],
    [demo.admin, ["/admin", "/admin/users", "/admin/currency-test"]],
  ];
  for (const [email, paths] of visits) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, email);
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      for (const path of paths) {
        await page.goto(path);
        await page.waitForLoadState("networkidle");
        expect.soft(await tablesOverflowing(page), `${path} at ${width} px`).toEqual([]);
      }
    }
    await context.close();
  }
});
