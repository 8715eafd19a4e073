export { getSheet, listSheets, type SavedSheet, type SheetSummary } from "./service";
