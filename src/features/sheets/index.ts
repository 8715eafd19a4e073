export {
  createSheetAction,
  deleteSheetAction,
  listSheetsAction,
  openSheetAction,
  restoreSheetAction,
  updateSheetAction,
} from "./actions";
export type { SavedSheet, SheetSummary } from "./server/types";
