// Local demo data, seeded on the embedded database only (never with DATABASE_URL). Idempotent.
// The accounts are listed in the README.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { hashPassword } from "better-auth/crypto";
import postgres from "postgres";

export const DEMO_PASSWORD = "abacus-demo-2026";
export const DEMO_ACCOUNTS = [
  { email: "admin@abacus.local", name: "Ada Admin", role: "admin", orgRole: "member" },
  { email: "owner@abacus.local", name: "Olive Owner", role: "user", orgRole: "owner" },
  { email: "member@abacus.local", name: "Max Member", role: "user", orgRole: "member" },
];
const DEMO_ORG = { name: "Demo Company", slug: "demo-company" };

/**
 * Loads the committed ECB snapshot (src/core/money/data/ecb-eurofxref.xml) into the rate tables
 * through the app's one ECB reader, without replacing rates an admin has set or imported.
 */
async function seedRates(sql) {
  const { tsImport } = await import("tsx/esm/api");
  const { parseEcbXml, singleTable } = await tsImport("../../src/core/money/rates.ts", import.meta.url);
  const xml = readFileSync(new URL("../../src/core/money/data/ecb-eurofxref.xml", import.meta.url), "utf8");
  const parsed = singleTable(parseEcbXml(xml));
  if (!parsed.ok) throw new Error(`the ECB snapshot does not read: ${parsed.error.message}`);
  const { date, rates } = parsed.value;
  const rows = Object.entries(rates).map(([currency, rate]) => ({ currency, rate, rates_date: date }));
  await sql`insert into fx_rates ${sql(rows)} on conflict (currency) do nothing`;
  await sql`insert into fx_rate_history ${sql(rows.map((r) => ({ ...r, source: "seed" })))}
    on conflict (rates_date, currency) do nothing`;
}

export async function seedDatabase(url) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await seedRates(sql);
    const [existing] = await sql`select 1 from "user" where email = ${DEMO_ACCOUNTS[0].email}`;
    if (existing) {
      await seedDemoPlan(sql);
      return;
    }
    const hash = await hashPassword(DEMO_PASSWORD);
    await sql.begin(async (tx) => {
      const orgId = randomUUID();
      await tx`insert into organization (id, name, slug) values (${orgId}, ${DEMO_ORG.name}, ${DEMO_ORG.slug})
        on conflict (slug) do nothing`;
      for (const account of DEMO_ACCOUNTS) {
        const userId = randomUUID();
        await tx`insert into "user" (id, name, email, email_verified, role, onboarding_step)
          values (${userId}, ${account.name}, ${account.email}, true, ${account.role}, 'done')`;
        await tx`insert into account (id, account_id, provider_id, user_id, password)
          values (${randomUUID()}, ${userId}, 'credential', ${userId}, ${hash})`;
        if (account.orgRole) {
          await tx`insert into member (id, organization_id, user_id, role) values (${randomUUID()}, ${orgId}, ${userId}, ${account.orgRole})`;
        }
      }
    });
    await seedDemoPlan(sql);
    console.log(
      `[db] seeded demo accounts (password ${DEMO_PASSWORD}): ${DEMO_ACCOUNTS.map((a) => a.email).join(", ")}`,
    );
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * Demo Company has 3 members: the Pro plan (up to 5) fits them; Free allows 1. The plan comes from
 * the one source of plans in force, a subscription (monthly Pro in USD, from the day of seeding),
 * paid at checkout like a customer's (`seed-billing.ts`: the approving Visa test card, which stays on
 * file), so its invoice has its signed receipt and `npm run billing:run -- --at <a month later>`
 * renews it.
 */
async function seedDemoPlan(sql) {
  const [org] = await sql`select id from organization where slug = ${DEMO_ORG.slug}`;
  if (!org) return;
  const [existing] = await sql`select 1 from subscriptions where organization_id = ${org.id}`;
  if (existing) return;
  const owner = DEMO_ACCOUNTS.find((a) => a.orgRole === "owner");
  const script = fileURLToPath(new URL("./seed-billing.ts", import.meta.url));
  const run = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", script, DEMO_ORG.slug, owner.email],
    { cwd: fileURLToPath(new URL("../..", import.meta.url)), env: process.env, stdio: "inherit" },
  );
  if (run.status !== 0) throw new Error(`seeding the demo plan failed (exit ${run.status ?? run.signal})`);
}
