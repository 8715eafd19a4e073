/**
 * The one shape of an outcome that can fail in an expected way: a value (and, for the person, an
 * optional message), or an error message with, for forms, one message per field and, where a
 * caller must act on the reason, a machine-readable `code`. Bugs throw; expected failures are values.
 */
export type Ok<T> = { ok: true; data: T; message?: string };
export type Failure<F extends string = string> = {
  ok: false;
  error: string;
  fieldErrors?: string extends F ? Record<string, string> : Partial<Record<F, string>>;
  code?: string;
};
export type Result<T = undefined, F extends string = string> = Ok<T> | Failure<F>;

export function ok<T = undefined>(data?: T, message?: string): Ok<T> {
  return message === undefined ? { ok: true, data: data as T } : { ok: true, data: data as T, message };
}

export function fail(error: string, more: Omit<Failure, "ok" | "error"> = {}): Failure {
  return { ok: false, error, ...more };
}
