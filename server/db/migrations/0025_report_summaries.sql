CREATE TABLE "order_day_summary" (
	"dimension" text NOT NULL,
	"day" date NOT NULL,
	"key" text NOT NULL,
	"revenue" bigint NOT NULL,
	"cost" bigint NOT NULL,
	"refunds" bigint NOT NULL,
	"orders" integer NOT NULL,
	CONSTRAINT "order_day_summary_dimension_day_key_pk" PRIMARY KEY("dimension","day","key"),
	CONSTRAINT "order_day_summary_dimension" CHECK ("order_day_summary"."dimension" IN ('category', 'service', 'supplier', 'customer'))
);
--> statement-breakpoint
CREATE TABLE "report_day" (
	"day" date PRIMARY KEY NOT NULL,
	"closed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_day_summary" ADD CONSTRAINT "order_day_summary_day_report_day_day_fk" FOREIGN KEY ("day") REFERENCES "public"."report_day"("day") ON DELETE cascade ON UPDATE no action;