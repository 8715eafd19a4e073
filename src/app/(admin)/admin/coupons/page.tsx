import type { Metadata } from "next";
import { COUPON_LIST_LIMIT, CouponAdmin, listCoupons } from "@/features/billing";
import { requireAdmin } from "@/server/authz";
import { getDb } from "@/server/db/client";

export const metadata: Metadata = { title: "Coupons" };

export default async function CouponsAdminPage() {
  await requireAdmin("/admin/coupons");
  const rows = await listCoupons(getDb());
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-12 sm:px-6">
      <div>
        <h1 className="text-3xl font-semibold tracking-tight">Coupons</h1>
        <p className="mt-2 text-muted-foreground">
          Promotion codes customers enter at checkout: a percentage or a fixed amount per currency, for the
          first charge, a number of charges or every charge.
        </p>
      </div>
      <CouponAdmin rows={rows} limit={COUPON_LIST_LIMIT} />
    </div>
  );
}
