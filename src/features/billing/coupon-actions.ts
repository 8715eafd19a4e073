"use server";

import { z } from "zod";
import { type ActionResult, action } from "@/server/action";
import { couponFormSchema, toNewCoupon } from "./coupon-schemas";
import { createCoupon, deactivateCoupon } from "./server/coupons";

/** A platform admin creates a coupon; each bad field gets its own message and nothing is written. */
export const createCouponAction = action(
  { kind: "admin" },
  couponFormSchema,
  async ({ db, viewer, input }): Promise<ActionResult<{ code: string }>> => {
    const checked = toNewCoupon(input, new Date());
    if (!checked.ok) {
      return { ok: false, error: "Please correct the highlighted fields.", fieldErrors: checked.fieldErrors };
    }
    const created = await createCoupon(db, checked.coupon, viewer.user.id);
    if (!created.ok) return created;
    return { ok: true, data: { code: created.data.code }, message: `Coupon ${created.data.code} created.` };
  },
);

/** Stops new redemptions of a coupon (subscriptions that redeemed it keep their discount). */
export const deactivateCouponAction = action(
  { kind: "admin" },
  z.object({ id: z.uuid("Choose a coupon.") }),
  async ({ db, input }): Promise<ActionResult> => {
    const done = await deactivateCoupon(db, input.id);
    if (!done.ok) return done;
    return { ok: true, data: undefined, message: `Coupon ${done.data.code} deactivated.` };
  },
);
