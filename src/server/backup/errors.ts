/** A refusal the operator can act on: the CLI prints its message alone and exits non-zero. */
export class BackupError extends Error {
  override name = "BackupError";
}
