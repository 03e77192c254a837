-- The W3C traceparent of the run that wrote an outbox event (issue 21, tracing): the webhook relay runs later in
-- another process and continues that trace when it enqueues the event's deliveries. Null when tracing is off.
ALTER TABLE "outbox_events" ADD COLUMN "trace_parent" VARCHAR(55);
