import type { SheetFields } from "../schemas";

/** A saved sheet as the notebook shows it. */
export type SavedSheet = SheetFields & {
  id: string;
  updatedAt: string;
  updatedByName: string | null;
};
/** A sheet in the list. */
export type SheetSummary = Pick<SavedSheet, "id" | "title" | "updatedAt" | "updatedByName">;
