"use server";

import { action } from "@/server/action";
import { ALL_MEMBER_ROLES } from "@/server/authz";
import { listSheetsSchema, sheetFieldsSchema, sheetIdSchema, updateSheetSchema } from "./schemas";
import {
  createSheet,
  deleteSheet,
  getSheet,
  listSheets,
  restoreSheet,
  SHEET_GONE_ERROR,
  updateSheet,
} from "./server/service";

// Every member of the active organization reads and edits its sheets; the guard re-reads the
// membership on each call, so a removed member is refused at once.
const members = { kind: "org", roles: ALL_MEMBER_ROLES } as const;

export const listSheetsAction = action(members, listSheetsSchema, async ({ db, viewer, input }) => ({
  ok: true,
  data: await listSheets(db, viewer.org.id, input.q),
}));

export const openSheetAction = action(members, sheetIdSchema, async ({ db, viewer, input }) => {
  const sheet = await getSheet(db, viewer.org.id, input.id);
  return sheet ? { ok: true, data: sheet } : { ok: false, error: SHEET_GONE_ERROR };
});

export const createSheetAction = action(members, sheetFieldsSchema, async ({ db, viewer, input }) =>
  createSheet(db, viewer.org.id, viewer.user.id, input),
);

export const updateSheetAction = action(members, updateSheetSchema, async ({ db, viewer, input }) => {
  const { id, ...fields } = input;
  return updateSheet(db, viewer.org.id, viewer.user.id, id, fields);
});

export const deleteSheetAction = action(members, sheetIdSchema, async ({ db, viewer, input }) =>
  deleteSheet(db, viewer.org.id, input.id),
);

export const restoreSheetAction = action(members, sheetIdSchema, async ({ db, viewer, input }) =>
  restoreSheet(db, viewer.org.id, input.id),
);
