CREATE TABLE "fx_rates" (
	"currency" text PRIMARY KEY NOT NULL,
	"rate" numeric NOT NULL,
	"rates_date" date NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fx_rates_currency_check" CHECK ("fx_rates"."currency" ~ '^[A-Z]{3}$' and "fx_rates"."currency" <> 'EUR'),
	CONSTRAINT "fx_rates_rate_check" CHECK ("fx_rates"."rate" > 0)
);
--> statement-breakpoint
-- ECB euro reference rates of 2026-11-20, from src/core/money/data/ecb-eurofxref.xml
INSERT INTO "fx_rates" ("currency", "rate", "rates_date") VALUES
  ('USD', 1.1582, '2026-11-20'),
  ('JPY', 181.42, '2026-11-20'),
  ('CZK', 24.182, '2026-11-20'),
  ('DKK', 7.4691, '2026-11-20'),
  ('GBP', 0.88125, '2026-11-20'),
  ('HUF', 384.35, '2026-11-20'),
  ('PLN', 4.2318, '2026-11-20'),
  ('RON', 5.0865, '2026-11-20'),
  ('SEK', 10.9815, '2026-11-20'),
  ('CHF', 0.9284, '2026-11-20'),
  ('ISK', 146.90, '2026-11-20'),
  ('NOK', 11.6945, '2026-11-20'),
  ('TRY', 49.3127, '2026-11-20'),
  ('AUD', 1.7742, '2026-11-20'),
  ('BRL', 6.1620, '2026-11-20'),
  ('CAD', 1.6271, '2026-11-20'),
  ('CNY', 8.2347, '2026-11-20'),
  ('HKD', 9.0163, '2026-11-20'),
  ('IDR', 19381.25, '2026-11-20'),
  ('ILS', 3.7812, '2026-11-20'),
  ('INR', 102.8345, '2026-11-20'),
  ('KRW', 1702.56, '2026-11-20'),
  ('MXN', 21.2364, '2026-11-20'),
  ('MYR', 4.8175, '2026-11-20'),
  ('NZD', 2.0538, '2026-11-20'),
  ('PHP', 68.214, '2026-11-20'),
  ('SGD', 1.5098, '2026-11-20'),
  ('THB', 37.522, '2026-11-20'),
  ('ZAR', 20.0124, '2026-11-20')
ON CONFLICT ("currency") DO NOTHING;
