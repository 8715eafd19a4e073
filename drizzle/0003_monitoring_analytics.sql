CREATE TABLE "monitoring_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "monitoring_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"event_id" text,
	"type" text NOT NULL,
	"level" text,
	"message" text,
	"url" text,
	"release" text,
	"environment" text,
	"trace_id" text,
	"payload" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "page_views" (
	"day" date NOT NULL,
	"path" text NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "page_views_day_path_pk" PRIMARY KEY("day","path")
);
--> statement-breakpoint
CREATE INDEX "monitoring_events_received_at_idx" ON "monitoring_events" USING btree ("received_at");