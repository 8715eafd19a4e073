import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import Papa from "papaparse";
import { demo, signIn, signUpAndOnboard, uniqueEmail } from "./auth-helpers";

// The notebook, the calculator's first mode, used as a person would: a budget typed line by line,
// each result read on its row. Expected values are worked out by hand from the lines typed.

const BUDGET = [
  "# March budget",
  "rent = 1,250 EUR",
  "food = 420.50 EUR // groceries",
  "transport = 86.40 EUR",
  "subtotal",
  "// savings",
  "savings = 300 EUR",
  "total",
  "food / 0",
  "rent + food",
  "1/3",
];
const EXPECTED: Record<number, string> = {
  2: "1250.00 EUR",
  3: "420.50 EUR",
  4: "86.40 EUR",
  5: "1756.90 EUR", // 1250 + 420.50 + 86.40
  7: "300.00 EUR",
  8: "2056.90 EUR", // the four value lines above, not the subtotal
  10: "1670.50 EUR",
  11: "0.33333333333333333333",
};

const sheet = (page: Page) => page.getByRole("textbox", { name: /^Sheet/ });
const result = (page: Page, line: number) => page.getByTestId(`line-${line}-result`);

async function expectBudget(page: Page) {
  for (const [line, value] of Object.entries(EXPECTED)) {
    await expect(result(page, Number(line))).toContainText(value);
  }
  await expect(page.getByTestId("line-9-error")).toContainText("col 6: Division by zero");
  for (const line of [1, 6]) await expect(result(page, line)).toHaveCount(0);
}

test("a budget typed in the notebook: a result per line, an error stays on its line", async ({ page }) => {
  await page.goto("/calculator");
  await expect(page.getByRole("link", { name: "Notebook" })).toHaveAttribute("aria-current", "page");
  await sheet(page).click();
  await page.keyboard.type(BUDGET.join("\n"));
  await expectBudget(page);
  // exact and rounded badges on the rows (1/3 is rounded to the precision)
  await expect(page.getByTestId("notebook").getByText("Rounded", { exact: true })).toHaveCount(1);
  await expect(page.getByText("1 line has an error")).toBeVisible();

  // fixing the error line changes it alone; the lines that do not read it keep their results
  await sheet(page).fill(BUDGET.join("\n").replace("food / 0", "food / 2"));
  await expect(result(page, 9)).toContainText("210.25 EUR");
  await expect(page.getByTestId("line-9-error")).toHaveCount(0);
  for (const [line, value] of Object.entries(EXPECTED)) {
    await expect(result(page, Number(line))).toContainText(value);
  }

  // a later line that reads a broken one says so, at that name's column
  await sheet(page).fill("a = 1 / 0\nb = 2\na + b\nb * 3");
  await expect(page.getByTestId("line-3-error")).toContainText("col 1: a has no value: line 1 has an error");
  await expect(result(page, 2)).toContainText("2");
  await expect(result(page, 4)).toContainText("6");

  // a total over amounts and a plain number adds the amounts and says which line it left out
  await sheet(page).fill("1/3\n10 EUR\n20 EUR\ntotal");
  await expect(result(page, 4)).toContainText("30.00 EUR");
  await expect(page.getByTestId("line-4-skipped")).toContainText("leaves out line 1");

  // the precision is the sheet's: 1/3 at 5 digits
  await sheet(page).fill("1/3");
  await page.getByLabel("Precision").fill("5");
  await expect(result(page, 1)).toHaveText("0.33333");
});

test("the sheet lives in the link: a new page opens it; a damaged or huge link says so", async ({
  browser,
  page,
}) => {
  await page.goto("/calculator");
  // the precision first: an empty sheet has no fragment, so the first one written holds both
  await page.getByLabel("Precision").fill("30");
  await sheet(page).fill(BUDGET.join("\n"));
  await expect(page).toHaveURL(/#sheet=[A-Za-z0-9_-]+$/);
  const link = page.url();
  // the fragment never reaches the server: the request the browser sends has no #…
  const requests: string[] = [];
  const other = await browser.newContext();
  const fresh = await other.newPage();
  fresh.on("request", (r) => requests.push(r.url()));
  await fresh.goto(link);
  await expectBudget(fresh);
  await expect(result(fresh, 11)).toHaveText("0.333333333333333333333333333333");
  expect(requests.some((u) => u.includes("sheet="))).toBe(false);
  await expect(sheet(fresh)).toHaveValue(BUDGET.join("\n"));

  await fresh.goto("/calculator#sheet=not-really-a-sheet");
  await expect(fresh.getByRole("alert").filter({ hasText: "could not be read" })).toBeVisible();
  await fresh.goto(`/calculator#sheet=${"A".repeat(40_000)}`);
  await expect(fresh.getByRole("alert").filter({ hasText: "too big to open" })).toBeVisible();
  // local storage keeps nothing but the theme
  const keys = await fresh.evaluate(() => Object.keys(localStorage));
  expect(keys.filter((k) => k !== "theme")).toEqual([]);
  await other.close();
});

test("exports the sheet as CSV and Markdown", async ({ page }) => {
  await page.goto("/calculator");
  await sheet(page).fill(BUDGET.join("\n"));
  await expect(result(page, 10)).toContainText("1670.50 EUR");

  const csvDownload = page.waitForEvent("download");
  await page.getByRole("button", { name: "CSV" }).click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toBe("sheet.csv");
  const parsed = Papa.parse<string[]>(await readFile((await csv.path()) ?? "", "utf8"), {
    skipEmptyLines: true,
  });
  expect(parsed.data[0]).toEqual(["line", "expression", "result"]);
  expect(parsed.data.length).toBe(BUDGET.length + 1);
  for (const [line, value] of Object.entries(EXPECTED)) {
    expect(parsed.data[Number(line)]).toEqual([line, BUDGET[Number(line) - 1], value]);
  }
  expect(parsed.data[9]?.[2]).toBe("Error (column 6): Division by zero");

  const mdDownload = page.waitForEvent("download");
  await page.getByRole("button", { name: "Markdown" }).click();
  const md = await readFile((await (await mdDownload).path()) ?? "", "utf8");
  expect(md).toContain("| Line | Expression | Result |");
  expect(md).toContain("| 2 | rent = 1,250 EUR | 1250.00 EUR |");
  expect(md).toContain("| 8 | total | 2056.90 EUR |");
});

test("the notebook has no serious or critical axe violations", async ({ page }) => {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/calculator");
    await sheet(page).fill(BUDGET.join("\n"));
    await expect(result(page, 10)).toContainText("1670.50 EUR");
    const results = await new AxeBuilder({ page })
      .include("main")
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
      .analyze();
    const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  }
});

async function signedIn(browser: Browser, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email);
  return { context, page };
}

test("signed in: sheets are saved to the organization, shared by its members, deleted with undo", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const title = `Budget ${Date.now().toString(36)}`;
  const owner = await signedIn(browser, demo.owner);
  const page = owner.page;
  await page.goto("/calculator");
  await page.getByRole("button", { name: "New" }).click();
  await page.getByLabel("Title").fill(title);
  await sheet(page).fill(BUDGET.join("\n"));
  await expect(page.getByTestId("save-state")).toContainText("Saved · edited", { timeout: 15_000 });
  await expect(page.getByTestId("save-state")).toContainText("by Olive Owner");
  await expect(page).toHaveURL(/[?&]sheet=[0-9a-f-]{36}/);
  const link = page.url();

  // an edit is saved too, and survives a reload
  await sheet(page).press("ControlOrMeta+End");
  await page.keyboard.type("\nline10 * 2");
  await expect(page.getByTestId("save-state")).toContainText("Unsaved changes");
  await expect(page.getByTestId("save-state")).toContainText("Saved · edited", { timeout: 15_000 });
  await page.reload();
  await expect(page.getByLabel("Title")).toHaveValue(title);
  await expectBudget(page);
  await expect(result(page, 12)).toContainText("3341.00 EUR");

  // another member of the organization finds it by searching, reads and edits it
  const member = await signedIn(browser, demo.member);
  await member.page.goto("/calculator");
  await member.page.getByRole("searchbox", { name: "Search sheets" }).fill(title);
  await expect(member.page.getByRole("list", { name: "Sheets" }).getByRole("button")).toHaveCount(1);
  await member.page.getByRole("list", { name: "Sheets" }).getByRole("button", { name: title }).click();
  await expectBudget(member.page);
  await expect(member.page.getByTestId("save-state")).toContainText("by Olive Owner");
  await sheet(member.page).press("ControlOrMeta+End");
  await member.page.keyboard.type(" + 1 EUR");
  await expect(member.page.getByTestId("save-state")).toContainText("by Max Member", { timeout: 15_000 });
  await page.reload();
  await expect(result(page, 12)).toContainText("3342.00 EUR");
  await expect(page.getByTestId("save-state")).toContainText("by Max Member");

  // someone outside the organization, with the link, gets an empty sheet of their own organization
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  await signUpAndOnboard(strangerPage, {
    name: "Sam Stranger",
    email: uniqueEmail("stranger"),
    org: "Elsewhere",
  });
  await strangerPage.goto(link);
  await expect(strangerPage.getByRole("heading", { name: /Sheets of Elsewhere/ })).toBeVisible();
  await expect(sheet(strangerPage)).toHaveValue("");
  await expect(strangerPage.getByText(title)).toHaveCount(0);
  await stranger.close();

  // delete, then undo from the toast
  await page.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText(`Deleted “${title}”`)).toBeVisible();
  await expect(page.getByRole("list", { name: "Sheets" }).getByRole("button", { name: title })).toHaveCount(
    0,
  );
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByLabel("Title")).toHaveValue(title);
  await expect(result(page, 10)).toContainText("1670.50 EUR");
  await member.page.reload();
  await member.page.getByRole("searchbox", { name: "Search sheets" }).fill(title);
  await expect(member.page.getByRole("list", { name: "Sheets" }).getByRole("button")).toHaveCount(1);

  // the saved calculations stay reachable from the notebook
  await expect(page.getByRole("link", { name: "Saved calculations" })).toHaveAttribute("href", "/dashboard");
  await owner.context.close();
  await member.context.close();
});

test("signed in, a shared link opens as a new sheet that is saved to the organization", async ({
  browser,
}) => {
  const anonymous = await browser.newContext();
  const page = await anonymous.newPage();
  await page.goto("/calculator");
  const text = `# Shared ${Date.now().toString(36)}\n${BUDGET.slice(1).join("\n")}`;
  await sheet(page).fill(text);
  await expect(page).toHaveURL(/#sheet=/);
  const link = page.url();
  await anonymous.close();

  const owner = await signedIn(browser, demo.owner);
  await owner.page.goto(link);
  await expect(sheet(owner.page)).toHaveValue(text);
  await expectBudget(owner.page);
  await expect(owner.page).not.toHaveURL(/#sheet=/);
  await owner.page.getByRole("button", { name: /^Save to / }).click();
  await expect(owner.page.getByTestId("save-state")).toContainText("Saved · edited", { timeout: 15_000 });
  await owner.page.reload();
  await expect(sheet(owner.page)).toHaveValue(text);
  await owner.context.close();
});

test("a long sheet draws the rows in view, each on its own line of the text", async ({ page }) => {
  await page.goto("/calculator");
  // 400 amounts of 1.01 EUR … 5.00 EUR, then their total: (1.01 + 5.00) × 400 / 2 = 1202.00 EUR
  const text = [...Array.from({ length: 400 }, (_, i) => `${(101 + i) / 100} EUR`), "total"].join("\n");
  await sheet(page).fill(text);
  const last = 401;
  // scrolled to the end: the total is drawn on the text's last line; the first rows are not drawn
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(result(page, last)).toContainText("1202.00 EUR");
  await expect(result(page, 1)).toHaveCount(0);
  await expect(page.getByTestId("notebook").getByRole("listitem").last()).toHaveAttribute(
    "aria-posinset",
    "401",
  );
  const lineAt = async (line: number) => {
    const box = await sheet(page).boundingBox();
    const lineHeight = await sheet(page).evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight));
    const padding = await sheet(page).evaluate((el) => Number.parseFloat(getComputedStyle(el).paddingTop));
    return (box?.y ?? 0) + padding + (line - 1) * lineHeight + lineHeight / 2;
  };
  const middle = async (line: number) => {
    const box = await result(page, line).boundingBox();
    return (box?.y ?? 0) + (box?.height ?? 0) / 2;
  };
  expect(Math.abs((await middle(last)) - (await lineAt(last)))).toBeLessThan(2);
  // back in the middle: the rows there are drawn, aligned, and an edit there updates them and the total
  const toLine200 = () =>
    page.evaluate(() => {
      const el = document.querySelector("textarea") as HTMLTextAreaElement;
      const top = el.getBoundingClientRect().top + window.scrollY;
      window.scrollTo(0, top + 199 * Number.parseFloat(getComputedStyle(el).lineHeight) - 200);
    });
  await toLine200();
  await expect(result(page, 200)).toContainText("3.00 EUR");
  await expect(result(page, last)).toHaveCount(0);
  expect(Math.abs((await middle(200)) - (await lineAt(200)))).toBeLessThan(2);
  await sheet(page).fill(text.replace("\n3 EUR\n", "\n13 EUR\n"));
  await toLine200();
  await expect(result(page, 200)).toContainText("13.00 EUR");
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(result(page, last)).toContainText("1212.00 EUR");
});
