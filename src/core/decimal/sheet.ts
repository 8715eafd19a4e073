/** A sheet (sheet-core.ts) with the unit table and the calendar loaded; the browser uses `./lazy`. */
import "./eager";

export * from "./sheet-core";
