/**
 * The hash-only worker: file hashing without loading the rest of the crypto libraries, so it starts in a
 * few milliseconds. client.ts starts one as soon as the hash tool opens and keeps it warm between runs.
 */
import { ops } from "./tools/hash/op";
import { serve } from "./worker-serve";

serve(ops);
