import postgres from "postgres";

/** A direct connection to the database the server under test uses (DATABASE_URL from run-with-db). */
export function testSql() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: run the e2e tests with `npm run test:e2e`.");
  return postgres(url, { max: 2, onnotice: () => {} });
}

export const publicRoutes = ["/", "/pricing", "/docs", "/contact", "/calculator"] as const;
