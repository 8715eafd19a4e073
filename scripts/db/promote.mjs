// Makes a user a platform admin:  npm run user:promote -- someone@example.com
import postgres from "postgres";

const email = process.argv[2]?.trim().toLowerCase();
if (!email?.includes("@")) {
  console.error("usage: npm run user:promote -- <email>");
  process.exit(2);
}
const url = process.env.DATABASE_URL;
if (!url) {
  console.error("DATABASE_URL is not set (run it through `npm run user:promote`).");
  process.exit(2);
}
const sql = postgres(url, { max: 1, onnotice: () => {} });
try {
  const rows =
    await sql`update "user" set role = 'admin', updated_at = now() where lower(email) = ${email} returning email`;
  if (rows.length === 0) {
    console.error(`No user with the email ${email}. They need to sign up first.`);
    process.exitCode = 1;
  } else {
    console.log(`${rows[0].email} is now a platform admin.`);
  }
} finally {
  await sql.end({ timeout: 5 });
}
