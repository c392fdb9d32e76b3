-- The activity figures' window before a start at the head, read after it (see ActivityBackfill).
CREATE TABLE "activity_backfill" (
    "chain_id" INTEGER NOT NULL,
    "from_block" BIGINT NOT NULL,
    "to_block" BIGINT NOT NULL,
    "next_block" BIGINT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "activity_backfill_pkey" PRIMARY KEY ("chain_id")
);
