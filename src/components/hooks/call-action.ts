import { notify } from "./notify";

export const UNEXPECTED_RESPONSE_MESSAGE = "An unexpected response was received from the server.";

/**
 * Calls a server action from an event handler. Expected failures come back as values; anything
 * thrown (a network failure, or a response that is not an action result, which Next.js reports as
 * "An unexpected response was received from the server.") is announced with a toast and returns
 * undefined, so the caller keeps its form as it was.
 */
export async function callAction<T>(run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    console.error(error);
    notify.error(UNEXPECTED_RESPONSE_MESSAGE);
    return undefined;
  }
}
