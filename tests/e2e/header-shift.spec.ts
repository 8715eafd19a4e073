import { expect, type Page, test } from "@playwright/test";
import { demo, signIn } from "./auth-helpers";

// The header's account area (and the footer's account links) must not move anything when they learn
// who is signed in: layout shift 0 on a signed-in visit. Tall windows, so the footer is in view too.

// Five pages each, waited on till the network is quiet: more time on a busy machine.
test.slow();

declare global {
  interface Window {
    layoutShifts: { value: number; sources: string[] }[];
  }
}

async function watchShifts(page: Page) {
  await page.addInitScript(() => {
    window.layoutShifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node | null }[];
      })[]) {
        if (entry.hadRecentInput) continue;
        window.layoutShifts.push({
          value: entry.value,
          sources: (entry.sources ?? []).map((s) =>
            s.node instanceof Element ? s.node.outerHTML.slice(0, 80) : String(s.node?.nodeName),
          ),
        });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

for (const width of [1280, 360]) {
  test(`a signed-in visit shifts nothing at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 2400 });
    await watchShifts(page);
    await signIn(page, demo.owner);
    // The pointer rests where sign-in clicked; a control under it would wake from its stand-in on
    // hover, which is the visitor's doing, not the page's. Out of the way, at the window's corner.
    await page.mouse.move(0, 0);
    for (const path of ["/dashboard", "/organization-profile", "/pricing", "/docs", "/contact"]) {
      await page.goto(path);
      // Signed in, as the footer says once the page knows (both at every width).
      await expect(page.getByRole("contentinfo").getByRole("link", { name: "Dashboard" })).toBeVisible();
      if (width >= 640) await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();
      await page.waitForLoadState("networkidle");
      const shifts = await page.evaluate(() => window.layoutShifts);
      expect(shifts, `layout shifts on ${path}`).toEqual([]);
    }
  });
}

test("app pages draw the signed-in header in their first HTML", async ({ page }) => {
  await signIn(page, demo.owner);
  for (const path of ["/dashboard", "/user-profile"]) {
    const html = await (await page.request.get(path)).text();
    const header = html.slice(html.indexOf("<header"), html.indexOf("</header>"));
    expect(header, path).toContain('aria-label="Account menu"');
    expect(header, path).toContain("Demo Company");
  }
});

test("a static page draws a signed-in visitor's controls before any of its scripts run", async ({ page }) => {
  await signIn(page, demo.owner);
  // A signed-in page teaches the browser what the header shows.
  await page.goto("/dashboard");
  await expect
    .poll(async () => (await page.context().cookies()).some((cookie) => cookie.name === "abacus_viewer"))
    .toBe(true);
  // No script file of the page may run: only what the first HTML and its inline script draw counts.
  await page.route("**/_next/static/**", (route) =>
    route.request().resourceType() === "script" ? route.abort() : route.continue(),
  );
  for (const path of ["/pricing", "/docs"]) {
    await page.goto(path);
    const header = page.locator("header");
    const drawn = (selector: string) =>
      header.locator(selector).evaluate((el) => getComputedStyle(el, "::before").content);
    await expect(header.locator(".viewer-initials")).toBeVisible();
    expect(await drawn(".viewer-initials"), path).toBe('"OO"');
    expect(await drawn(".viewer-org"), path).toBe('"Demo Company"');
    await expect(header.getByRole("link", { name: "Sign in" })).toBeHidden();
  }
});
