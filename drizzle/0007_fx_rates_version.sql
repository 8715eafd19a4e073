CREATE TABLE "fx_rates_version" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fx_rates_version_single_row" CHECK ("fx_rates_version"."id" = 1)
);
