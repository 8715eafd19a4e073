/** Registers the unit table and the calendar at once (servers, tests, scripts): see registry.ts. */
import { EXTENSIONS } from "./extensions";
import { register } from "./registry";

register(EXTENSIONS);
