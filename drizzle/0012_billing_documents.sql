CREATE TABLE "billing_profiles" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"country" text NOT NULL,
	"vat_id" text,
	"address" text,
	"email" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_profiles_name_check" CHECK (char_length("billing_profiles"."name") between 1 and 200),
	CONSTRAINT "billing_profiles_country_check" CHECK ("billing_profiles"."country" ~ '^[A-Z]{2}$'),
	CONSTRAINT "billing_profiles_address_check" CHECK (char_length("billing_profiles"."address") <= 500)
);
--> statement-breakpoint
CREATE TABLE "coupon_amounts" (
	"coupon_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	CONSTRAINT "coupon_amounts_coupon_id_currency_pk" PRIMARY KEY("coupon_id","currency"),
	CONSTRAINT "coupon_amounts_positive_check" CHECK ("coupon_amounts"."amount_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "coupon_redemptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"coupon_id" uuid NOT NULL,
	"organization_id" text NOT NULL,
	"order_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupon_redemptions_order_id_unique" UNIQUE("order_id")
);
--> statement-breakpoint
CREATE TABLE "coupons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"percent_off" numeric,
	"duration" text NOT NULL,
	"duration_periods" integer,
	"expires_at" timestamp with time zone,
	"max_redemptions" integer,
	"redemption_count" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupons_code_unique" UNIQUE("code"),
	CONSTRAINT "coupons_code_check" CHECK ("coupons"."code" ~ '^[A-Z0-9][A-Z0-9-]{1,39}$'),
	CONSTRAINT "coupons_kind_check" CHECK ("coupons"."kind" in ('percent', 'fixed')),
	CONSTRAINT "coupons_duration_check" CHECK ("coupons"."duration" in ('once', 'repeating', 'forever')),
	CONSTRAINT "coupons_percent_check" CHECK (("coupons"."kind" = 'percent') = ("coupons"."percent_off" is not null) and ("coupons"."percent_off" is null or ("coupons"."percent_off" > 0 and "coupons"."percent_off" <= 100))),
	CONSTRAINT "coupons_periods_check" CHECK (("coupons"."duration" = 'repeating') = ("coupons"."duration_periods" is not null) and ("coupons"."duration_periods" is null or "coupons"."duration_periods" > 0)),
	CONSTRAINT "coupons_redemptions_check" CHECK ("coupons"."redemption_count" >= 0 and ("coupons"."max_redemptions" is null or ("coupons"."max_redemptions" > 0 and "coupons"."redemption_count" <= "coupons"."max_redemptions")))
);
--> statement-breakpoint
CREATE TABLE "credit_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"organization_id" text NOT NULL,
	"number" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"currency" text NOT NULL,
	"net_minor" bigint NOT NULL,
	"tax_minor" bigint NOT NULL,
	"total_minor" bigint NOT NULL,
	"reason" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"provider" text NOT NULL,
	"provider_reference" text,
	"failure_code" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"issued_at" timestamp with time zone,
	"kid" text,
	"payload" text,
	"signature" text,
	CONSTRAINT "credit_notes_number_unique" UNIQUE("number"),
	CONSTRAINT "credit_notes_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "credit_notes_status_check" CHECK ("credit_notes"."status" in ('pending', 'issued', 'failed')),
	CONSTRAINT "credit_notes_totals_check" CHECK ("credit_notes"."net_minor" + "credit_notes"."tax_minor" = "credit_notes"."total_minor"),
	CONSTRAINT "credit_notes_positive_check" CHECK ("credit_notes"."total_minor" > 0 and "credit_notes"."net_minor" >= 0 and "credit_notes"."tax_minor" >= 0),
	CONSTRAINT "credit_notes_number_check" CHECK (("credit_notes"."status" = 'issued') = ("credit_notes"."number" is not null and "credit_notes"."issued_at" is not null)),
	CONSTRAINT "credit_notes_reason_check" CHECK (char_length("credit_notes"."reason") between 1 and 500)
);
--> statement-breakpoint
CREATE TABLE "document_sequences" (
	"series" text PRIMARY KEY NOT NULL,
	"last_value" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "document_sequences_last_value_check" CHECK ("document_sequences"."last_value" >= 0)
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"description" text NOT NULL,
	"period_start" timestamp with time zone,
	"period_end" timestamp with time zone,
	"amount_minor" bigint NOT NULL,
	CONSTRAINT "invoice_lines_kind_check" CHECK ("invoice_lines"."kind" in ('plan', 'proration_credit', 'proration_charge', 'discount', 'tax')),
	CONSTRAINT "invoice_lines_description_check" CHECK (char_length("invoice_lines"."description") between 1 and 300)
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"organization_id" text NOT NULL,
	"number" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"currency" text NOT NULL,
	"subtotal_minor" bigint NOT NULL,
	"credit_minor" bigint DEFAULT 0 NOT NULL,
	"discount_minor" bigint DEFAULT 0 NOT NULL,
	"net_minor" bigint NOT NULL,
	"tax_minor" bigint NOT NULL,
	"total_minor" bigint NOT NULL,
	"tax_rate" numeric NOT NULL,
	"reverse_charge" boolean DEFAULT false NOT NULL,
	"billing_name" text NOT NULL,
	"billing_country" text NOT NULL,
	"vat_id" text,
	"period_start" timestamp with time zone,
	"period_end" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finalized_at" timestamp with time zone,
	"voided_at" timestamp with time zone,
	CONSTRAINT "invoices_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "invoices_number_unique" UNIQUE("number"),
	CONSTRAINT "invoices_status_check" CHECK ("invoices"."status" in ('draft', 'paid', 'void')),
	CONSTRAINT "invoices_number_check" CHECK (("invoices"."status" = 'paid') = ("invoices"."number" is not null and "invoices"."finalized_at" is not null)),
	CONSTRAINT "invoices_totals_check" CHECK ("invoices"."net_minor" + "invoices"."tax_minor" = "invoices"."total_minor"),
	CONSTRAINT "invoices_net_check" CHECK ("invoices"."subtotal_minor" - "invoices"."credit_minor" - "invoices"."discount_minor" = "invoices"."net_minor")
);
--> statement-breakpoint
DROP INDEX "orders_renewal_period_unique";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "kind" text DEFAULT 'purchase' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "period_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "subtotal_minor" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "credit_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "coupon_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reverse_charge" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "orders" SET "subtotal_minor" = "net_minor", "kind" = CASE WHEN "period_start" IS NULL THEN 'purchase' ELSE 'renewal' END;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "subtotal_minor" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "coupon_id" uuid;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "discount_periods_left" integer;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "dunning_attempt" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "next_retry_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "canceled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "billing_profiles" ADD CONSTRAINT "billing_profiles_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_amounts" ADD CONSTRAINT "coupon_amounts_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_kid_receipt_keys_kid_fk" FOREIGN KEY ("kid") REFERENCES "public"."receipt_keys"("kid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "coupon_redemptions_org_unique" ON "coupon_redemptions" USING btree ("coupon_id","organization_id");--> statement-breakpoint
CREATE INDEX "credit_notes_invoice_idx" ON "credit_notes" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "credit_notes_org_idx" ON "credit_notes" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_lines_position_unique" ON "invoice_lines" USING btree ("invoice_id","position");--> statement-breakpoint
CREATE INDEX "invoices_org_idx" ON "invoices" USING btree ("organization_id","created_at");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscriptions_due_idx" ON "subscriptions" USING btree ("status","current_period_end");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_renewal_period_unique" ON "orders" USING btree ("organization_id","period_start") WHERE "orders"."kind" = 'renewal';--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_kind_check" CHECK ("orders"."kind" in ('purchase', 'renewal', 'proration'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check" CHECK ("orders"."status" in ('pending', 'paid', 'failed'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_net_check" CHECK ("orders"."subtotal_minor" - "orders"."credit_minor" - "orders"."discount_minor" = "orders"."net_minor");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_credit_discount_check" CHECK ("orders"."credit_minor" >= 0 and "orders"."discount_minor" >= 0);--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_status_check" CHECK ("subscriptions"."status" in ('active', 'past_due', 'ended'));--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_dunning_attempt_check" CHECK ("subscriptions"."dunning_attempt" >= 0);--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_discount_periods_check" CHECK ("subscriptions"."discount_periods_left" is null or "subscriptions"."discount_periods_left" >= 0);--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_cancel_reason_check" CHECK (char_length("subscriptions"."cancel_reason") <= 500);