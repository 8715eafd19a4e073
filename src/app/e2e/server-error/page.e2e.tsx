import { connection } from "next/server";

// Exists only in the end-to-end test build (ABACUS_E2E_PAGES=1): a real exception during server
// rendering, to prove onRequestError reports it.
export default async function ServerErrorProbe(): Promise<never> {
  await connection();
  throw new Error("E2E server probe: a server render exception");
}
