import { inflateSync } from "node:zlib";
import { expect, type Page, type Request, test } from "@playwright/test";
import { parseEnvelope } from "@sentry/core";
import { testSql } from "./support";

type Item = [Record<string, unknown>, unknown];

/** Envelopes the page POSTs to the /monitoring tunnel, parsed with the SDK's own parser. */
function tunnelEnvelopes(page: Page) {
  const seen: { request: Request; items: Item[] }[] = [];
  page.on("request", (request) => {
    if (request.method() !== "POST" || new URL(request.url()).pathname !== "/monitoring") return;
    const body = request.postDataBuffer();
    if (!body) return;
    const [, items] = parseEnvelope(new Uint8Array(body)) as unknown as [unknown, Item[]];
    seen.push({ request, items });
  });
  return seen;
}
const hasItem = (items: Item[], type: string) => items.some(([header]) => header.type === type);

/** A replay recording item: `{"segment_id":n}\n`, then rrweb's events as JSON deflated by the worker. */
function recordingText(payload: unknown): { text: string; compressed: boolean } {
  const bytes = Buffer.from(payload as Uint8Array);
  const rest = bytes.subarray(bytes.indexOf(10) + 1);
  try {
    return { text: inflateSync(rest).toString("utf8"), compressed: true };
  } catch {
    return { text: rest.toString("utf8"), compressed: false };
  }
}

test("a client exception reaches /monitoring with o and p in its query and is stored", async ({ page }) => {
  const envelopes = tunnelEnvelopes(page);
  await page.goto("/e2e/client-error");
  await page.getByRole("button", { name: "Break this page" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Application error" })).toBeVisible();

  await expect
    .poll(() => envelopes.filter((e) => hasItem(e.items, "event")).length, { timeout: 15_000 })
    .toBe(1);
  const sent = envelopes.find((e) => hasItem(e.items, "event"));
  const query = new URL(sent?.request.url() ?? "http://x").searchParams;
  expect(query.get("o")).toMatch(/^\d+$/);
  expect(query.get("p")).toMatch(/^\d+$/);

  // Other specs break this page too: find this test's report by its event id.
  const eventId = (sent?.items.find(([header]) => header.type === "event")?.[1] as { event_id?: string })
    ?.event_id;
  expect(eventId).toMatch(/^[0-9a-f]{32}$/);
  const sql = testSql();
  try {
    await expect
      .poll(
        async () =>
          (
            await sql`select type, level, message, url from monitoring_events where event_id = ${eventId ?? ""}`
          ).map((row) => ({ ...row })),
        { timeout: 10_000 },
      )
      .toEqual([
        {
          type: "error",
          level: "error",
          message: "Error: E2E probe: a render-time exception",
          url: expect.stringContaining("/e2e/client-error"),
        },
      ]);
  } finally {
    await sql.end();
  }
});

test("a server render exception is captured by onRequestError and stored", async ({ page }) => {
  const response = await page.goto("/e2e/server-error");
  expect(response?.status()).toBe(500);
  const sql = testSql();
  try {
    await expect
      .poll(
        async () =>
          (
            await sql`select type, level from monitoring_events
                      where message like ${"%E2E server probe: a server render exception%"}`
          ).length,
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);
  } finally {
    await sql.end();
  }
});

test("the tunnel refuses GET and envelopes for another project", async ({ request }) => {
  expect((await request.get("/monitoring?o=1&p=1")).status()).toBe(405);
  const foreign = `${JSON.stringify({ dsn: "https://abc@o9.ingest.sentry.io/9" })}\n{"type":"event"}\n{}`;
  expect((await request.post("/monitoring?o=1&p=1", { data: foreign })).status()).toBe(403);
  expect((await request.post("/monitoring?o=9&p=9", { data: foreign })).status()).toBe(403);
  expect((await request.post("/monitoring?o=1&p=1", { data: "garbage" })).status()).toBe(400);
});

test("an unknown path shows the 404 page and sends no error report", async ({ page }) => {
  const envelopes = tunnelEnvelopes(page);
  const path = `/no-such-page-${Date.now()}`;
  const response = await page.goto(path);
  expect(response?.status()).toBe(404);
  await page.waitForLoadState("networkidle");
  // The SDK loads at the first interaction (else only seconds later): a key press loads it now. Then
  // give it time to start and flush anything it would have sent.
  await page.keyboard.press("Shift");
  await expect.poll(() => page.evaluate(() => "__SENTRY__" in window), { timeout: 10_000 }).toBe(true);
  await page.waitForTimeout(2000);
  expect(envelopes.filter((e) => hasItem(e.items, "event"))).toEqual([]);
  const sql = testSql();
  try {
    expect(await sql`select id from monitoring_events where url like ${`%${path}%`}`).toHaveLength(0);
  } finally {
    await sql.end();
  }
  // The silence means something only if the SDK was running on this very page: a real uncaught
  // error here must be reported (else this test would pass with monitoring broken).
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error("E2E 404 page probe");
    });
  });
  await expect
    .poll(
      () =>
        envelopes.filter(
          (e) => hasItem(e.items, "event") && JSON.stringify(e.items).includes("E2E 404 page probe"),
        ).length,
      { timeout: 15_000 },
    )
    .toBe(1);
});

test("an error and a rejection thrown before the SDK has loaded are still reported", async ({ page }) => {
  const envelopes = tunnelEnvelopes(page);
  // Right after the load event, long before the SDK loads by itself (a few seconds later, or at the
  // first interaction): only boot.ts's small listeners are there to catch these.
  await page.addInitScript(() => {
    window.addEventListener(
      "load",
      () => {
        (window as unknown as { sdkAtProbe: boolean }).sdkAtProbe = "__SENTRY__" in window;
        setTimeout(() => {
          throw new Error("E2E early probe");
        });
        void Promise.reject(new Error("E2E early rejection probe"));
      },
      { once: true },
    );
  });
  await page.goto("/pricing");
  expect(await page.evaluate(() => (window as unknown as { sdkAtProbe: boolean }).sdkAtProbe)).toBe(false);
  // Each probe is one event of its own (a later event also lists earlier ones among its breadcrumbs,
  // so match the event's exception, not its whole text).
  const exceptionsSent = () =>
    envelopes
      .flatMap((e) => e.items)
      .filter(([header]) => header.type === "event")
      .flatMap(
        ([, payload]) =>
          (payload as { exception?: { values?: { value?: string }[] } }).exception?.values ?? [],
      )
      .map((exception) => exception.value);
  for (const probe of ["E2E early probe", "E2E early rejection probe"]) {
    await expect
      .poll(() => exceptionsSent().filter((value) => value === probe).length, { timeout: 15_000 })
      .toBe(1);
  }
});

test("a replay of a form shows none of the typed text", async ({ page }) => {
  const envelopes = tunnelEnvelopes(page);
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  const typed = { name: "Zyxwvut Qwertyson", message: "confidential-plan-7731 do not record" };
  await page.goto("/contact");
  // Replay is added once the page is idle; wait for it before typing.
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(1000);
  await page.getByLabel("Name").fill(typed.name);
  await page.getByLabel("Message").pressSequentially(typed.message, { delay: 5 });
  // A real uncaught exception: replays are kept for sessions with an error.
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error("E2E replay probe");
    });
  });

  await expect
    .poll(() => envelopes.filter((e) => hasItem(e.items, "replay_recording")).length, { timeout: 20_000 })
    .toBeGreaterThan(0);
  const recordings = envelopes
    .flatMap((e) => e.items)
    .filter(([header]) => header.type === "replay_recording")
    .map(([, payload]) => recordingText(payload));
  const all = recordings.map((r) => r.text).join("\n");
  // The compression worker (a blob: worker) runs under the CSP.
  expect(recordings.every((r) => r.compressed)).toBe(true);
  expect(violations).toEqual([]);
  // It is a real recording of the form (the DOM snapshot has its inputs)...
  expect(all).toContain('"tagName":"textarea"');
  // ...but nothing that was typed, not even in part.
  for (const secret of [typed.name, typed.message, "Zyxwvut", "confidential-plan-7731"]) {
    expect(all).not.toContain(secret);
  }
  for (const { request } of envelopes) {
    expect(request.postDataBuffer()?.toString("latin1") ?? "").not.toContain("confidential-plan-7731");
  }
});

test("page views are counted on load and after client-side navigation, without cookies", async ({ page }) => {
  const sql = testSql();
  const views = async (path: string) =>
    Number((await sql`select coalesce(sum(views), 0) as n from page_views where path = ${path}`)[0]?.n ?? 0);
  try {
    const before = { home: await views("/"), pricing: await views("/pricing"), docs: await views("/docs") };
    const beacons: Request[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname === "/api/views") beacons.push(r);
    });
    await page.goto("/");
    await expect.poll(() => views("/"), { timeout: 10_000 }).toBeGreaterThan(before.home);

    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Pricing" }).click();
    await expect(page).toHaveURL("/pricing");
    await expect.poll(() => views("/pricing"), { timeout: 10_000 }).toBeGreaterThan(before.pricing);
    await nav.getByRole("link", { name: "Docs" }).click();
    await expect(page).toHaveURL("/docs");
    await expect.poll(() => views("/docs"), { timeout: 10_000 }).toBeGreaterThan(before.docs);

    // One beacon per route (other specs may visit these pages meanwhile, so the counts above only
    // grow; sendBeacon's Blob body is not visible to Playwright).
    expect(beacons).toHaveLength(3);
    expect(await page.context().cookies()).toEqual([]);
  } finally {
    await sql.end();
  }
});

test("Global Privacy Control means no page view is sent", async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, "globalPrivacyControl", { get: () => true });
  });
  const beacons: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === "/api/views") beacons.push(r.url());
  });
  await page.goto("/pricing");
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(1000);
  expect(beacons).toEqual([]);
});
