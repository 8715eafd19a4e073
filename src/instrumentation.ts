export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // Validate the configuration once at start: a bad variable stops the server here, by name.
    const { getEnv } = await import("./server/env");
    getEnv();
  }
}
