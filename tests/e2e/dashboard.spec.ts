import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { expect, type Page, request as playwrightRequest, test } from "@playwright/test";
import { demo, signIn } from "./auth-helpers";

// The dashboard of Demo Company (Pro plan, 3 members), used as its owner and as a member would:
// save from the calculator, find and export it; create a key, call the API, see usage move.

const run = promisify(execFile);

function apiCallsUsed(page: Page) {
  return page.locator("p", { hasText: /^API calls this month$/ }).locator("xpath=following-sibling::p[1]");
}

async function usedCount(page: Page): Promise<number> {
  const text = (await apiCallsUsed(page).textContent()) ?? "";
  return Number(text.split("/")[0]?.replace(/[^\d]/g, ""));
}

test("save a calculation from the calculator, find it on the dashboard, export it as CSV", async ({
  page,
}) => {
  const note = `e2e, "quoted" note ${Date.now().toString(36)}`;
  await signIn(page, demo.owner);
  await page.goto("/calculator?mode=decimal");
  await page.getByLabel("Expression").fill("1234.5 * 2");
  await expect(page.getByTestId("result-value")).toHaveText("2469");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByLabel("Note (optional)").fill(note);
  await page.getByRole("button", { name: "Save calculation" }).click();
  await expect(page.getByText(/Saved to Demo Company's history/)).toBeVisible();

  await page.goto("/dashboard");
  await page.getByLabel("Search expressions, results and notes").fill(note);
  await page.getByRole("button", { name: "Search" }).click();
  const row = page.getByTestId("saved-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("1234.5 * 2");
  await expect(row).toContainText("= 2469");

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const file = await (await download).path();
  const csv = readFileSync(file, "utf8");
  expect(csv.startsWith('"saved_at","mode","expression","result"')).toBe(true);
  expect(csv).toContain(`"${note.replace(/"/g, '""')}"`);

  // Re-open it in the calculator.
  await row.getByRole("link", { name: "Open" }).click();
  await expect(page).toHaveURL(/\/calculator\?mode=decimal&expr=/);
  await expect(page.getByLabel("Expression")).toHaveValue("1234.5 * 2");
});

test("delete a saved calculation and undo it", async ({ page }) => {
  const note = `undo me ${Date.now().toString(36)}`;
  await signIn(page, demo.owner);
  await page.goto("/calculator?mode=decimal");
  await page.getByLabel("Expression").fill("1234.5 * 3");
  await expect(page.getByTestId("result-value")).toHaveText("3703.5");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByLabel("Note (optional)").fill(note);
  await page.getByRole("button", { name: "Save calculation" }).click();
  await expect(page.getByText(/Saved to Demo Company's history/)).toBeVisible();

  await page.goto(`/dashboard?q=${encodeURIComponent(note)}`);
  const row = page.getByTestId("saved-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("= 3703.5");
  await row.getByRole("button", { name: "Delete 1234.5 * 3" }).click();
  await page
    .getByRole("alertdialog", { name: "Delete this calculation?" })
    .getByRole("button", { name: "Delete" })
    .click();
  await expect(page.getByText("Calculation deleted.")).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByText("Calculation restored.")).toBeVisible();
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("= 3703.5");
});

test("create an API key, call the API with it, see usage move, revoke it", async ({ page, baseURL }) => {
  await signIn(page, demo.owner, undefined, "/dashboard");
  await page.goto("/dashboard");
  const before = await usedCount(page);
  await page.getByLabel("Key name").fill(`e2e ${Date.now().toString(36)}`);
  await page.getByRole("button", { name: "Create key" }).click();
  const secret = (await page.getByTestId("new-key").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^abk_/);

  const api = await playwrightRequest.newContext({ baseURL });
  const ok = await api.post("/api/v1/calculate", {
    data: { expression: "0.1 + 0.2" },
    headers: { Authorization: `Bearer ${secret}` },
  });
  expect(ok.status()).toBe(200);
  expect((await ok.json()).result).toBe("0.3");
  expect(ok.headers()["ratelimit-limit"]).toBe("50000");

  // The docs' curl examples, run as written against this instance with this key.
  const docs = readFileSync("content/docs/600-api.md", "utf8");
  const examples = [...docs.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
  expect(examples.length).toBeGreaterThanOrEqual(4);
  for (const example of examples) {
    const { stdout } = await run("bash", ["-c", example.replace(/\\\n/g, " ")], {
      env: { ...process.env, ABACUS: baseURL, ABACUS_KEY: secret },
    });
    const body = JSON.parse(stdout);
    expect(body, example).not.toHaveProperty("error");
  }

  await page.reload();
  // The one call above and each of the docs' examples that sends the key: each is one call counted.
  const keyed = examples.filter((example) => example.includes("$ABACUS_KEY")).length;
  expect(keyed).toBeGreaterThanOrEqual(3);
  await expect.poll(() => usedCount(page)).toBe(before + 1 + keyed);
  await expect(page.getByTestId("api-key-row").first()).not.toContainText("Never");

  await page.getByTestId("api-key-row").first().getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByText(/revoked\./)).toBeVisible();
  const refused = await api.post("/api/v1/calculate", {
    data: { expression: "1" },
    headers: { Authorization: `Bearer ${secret}` },
  });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.code).toBe("invalid_api_key");
  await api.dispose();
});

test("a member sees the dashboard but cannot create keys", async ({ page }) => {
  await signIn(page, demo.member, undefined, "/dashboard");
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Create key" })).toHaveCount(0);
  await expect(page.getByText("Only owners and admins can create or revoke keys.")).toBeVisible();
});

test("the OpenAPI document describes the keyed endpoints", async ({ request }) => {
  const response = await request.get("/api/v1/openapi.json");
  expect(response.status()).toBe(200);
  const doc = await response.json();
  expect(doc.openapi).toBe("3.1.0");
  expect(doc.paths["/api/v1/calculate"].post.requestBody.content["application/json"].schema.required).toEqual(
    ["expression"],
  );
});
