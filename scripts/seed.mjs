// Local demo data, seeded on the embedded database only (never with DATABASE_URL). Idempotent.
// The accounts are listed in the README.
import { randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import postgres from "postgres";

export const DEMO_PASSWORD = "abacus-demo-2026";
export const DEMO_ACCOUNTS = [
  { email: "admin@abacus.local", name: "Ada Admin", role: "admin", orgRole: "member" },
  { email: "owner@abacus.local", name: "Olive Owner", role: "user", orgRole: "owner" },
  { email: "member@abacus.local", name: "Max Member", role: "user", orgRole: "member" },
];
const DEMO_ORG = { name: "Demo Company", slug: "demo-company" };

export async function seedDatabase(url) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
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

/** Demo Company has 3 members: the Pro plan (up to 5) fits them; Free allows 1. */
async function seedDemoPlan(sql) {
  await sql`insert into organization_plan (organization_id, plan)
    select id, 'pro' from organization where slug = ${DEMO_ORG.slug}
    on conflict (organization_id) do nothing`;
}
