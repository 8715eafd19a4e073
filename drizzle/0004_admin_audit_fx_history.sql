CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text NOT NULL,
	"actor_email" text NOT NULL,
	"impersonated_by" text,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"target_label" text,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE TABLE "fx_rate_history" (
	"rates_date" date NOT NULL,
	"currency" text NOT NULL,
	"rate" numeric NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fx_rate_history_rates_date_currency_pk" PRIMARY KEY("rates_date","currency"),
	CONSTRAINT "fx_rate_history_currency_check" CHECK ("fx_rate_history"."currency" ~ '^[A-Z]{3}$' and "fx_rate_history"."currency" <> 'EUR'),
	CONSTRAINT "fx_rate_history_rate_check" CHECK ("fx_rate_history"."rate" > 0)
);
--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","at");--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_id","at");