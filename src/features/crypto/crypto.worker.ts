/**
 * The crypto workbench's worker: runs one operation of ops.ts per message off the main thread, so large
 * files, slow PBKDF2 and key generation never freeze the page. Protocol: worker-serve.ts and client.ts.
 */
import { ops } from "./ops";
import { serve } from "./worker-serve";

serve(ops);
