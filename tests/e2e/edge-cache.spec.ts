import { expect, test } from "@playwright/test";
import { testSql } from "./support";

// The caches of the real server (dist/server.mjs, src/edge) in front of the real build, seen only
// through standard HTTP: an answer a cache gives carries `Age` (RFC 9111 §5.1), one the app
// rendered does not; a validator it gave is honoured with a 304.

const plain = { "accept-encoding": "gzip, br" };

test("a prerendered page is rendered once, then served from the page cache with Age and an ETag", async ({
  request,
}) => {
  // Whatever the suite asked before, the cache holds /docs after this.
  await request.get("/docs", { headers: plain });
  const cached = await request.get("/docs", { headers: plain });
  expect(cached.status()).toBe(200);
  const headers = cached.headers();
  expect(Number(headers.age)).toBeGreaterThanOrEqual(0);
  expect(headers.etag).toMatch(/^"[\w-]+"$/);
  expect(headers["content-encoding"]).toMatch(/^(br|gzip)$/);
  expect(headers.vary).toContain("Accept-Encoding");
  expect(await cached.text()).toContain("<html");

  const revalidated = await request.get("/docs", {
    headers: { ...plain, "if-none-match": headers.etag ?? "" },
  });
  expect(revalidated.status()).toBe(304);
  expect(revalidated.headers().etag).toBe(headers.etag);
  expect(await revalidated.body()).toHaveLength(0);
});

test("/pricing is cached per FX version: a rate change is rendered anew on the next request", async ({
  request,
}) => {
  const sql = testSql();
  try {
    const path = "/pricing?currency=EUR&interval=month";
    await request.get(path, { headers: plain });
    expect((await request.get(path, { headers: plain })).headers().age).toBeDefined();

    // What ratesChanged() does in the transaction that changes rates.
    await sql`
      insert into fx_rates_version (id, version) values (1, 1)
      on conflict (id) do update set version = fx_rates_version.version + 1, changed_at = now()`;
    const fresh = await request.get(path, { headers: plain });
    expect(fresh.status()).toBe(200);
    expect(fresh.headers().age).toBeUndefined();
    expect((await request.get(path, { headers: plain })).headers().age).toBeDefined();
  } finally {
    await sql.end();
  }
});

test("a router or action request for a cached page goes to the app", async ({ request }) => {
  await request.get("/docs", { headers: plain });
  const rsc = await request.get("/docs", { headers: { ...plain, rsc: "1" } });
  expect(rsc.headers().age).toBeUndefined();
});

test("build files go out precompressed with a validator and immutable caching", async ({ request }) => {
  const script = (await (await request.get("/")).text()).match(/\/_next\/static\/chunks\/[\w.-]+\.js/)?.[0];
  expect(script).toBeDefined();
  for (const [accepted, coding] of [
    ["gzip, deflate, br", "br"],
    ["br;q=0, gzip", "gzip"],
  ] as const) {
    const answer = await request.get(String(script), { headers: { "accept-encoding": accepted } });
    const headers = answer.headers();
    expect(headers["content-encoding"]).toBe(coding);
    expect(headers["cache-control"]).toContain("immutable");
    expect(headers.vary).toContain("Accept-Encoding");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    const again = await request.get(String(script), {
      headers: { "accept-encoding": accepted, "if-none-match": headers.etag ?? "" },
    });
    expect(again.status()).toBe(304);
  }
});

test("the anonymous session answer is repeated by the edge with an Age, never to a signed-in request", async ({
  request,
}) => {
  // Uncompressed: an answer encoded for one client's Accept-Encoding is not kept.
  const identity = { "accept-encoding": "identity" };
  await request.get("/api/auth/get-session", { headers: identity });
  const again = await request.get("/api/auth/get-session", { headers: identity });
  expect(again.status()).toBe(200);
  expect(again.headers().age).toBeDefined();
  expect(again.headers()["cache-control"]).toContain("s-maxage=");
  const withCookie = await request.get("/api/auth/get-session", { headers: { ...identity, cookie: "x=1" } });
  expect(withCookie.headers().age).toBeUndefined();
});
