ALTER TABLE "orders" ADD COLUMN "period_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_renewal_period_unique" ON "orders" USING btree ("organization_id","period_start");